package monitoring

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Source is one monitored source (a row of monitor_sources).
type Source struct {
	URL  string
	Kind SourceKind
	Site string
	// ETag and LastModified are the validators of its last answer.
	ETag, LastModified string
	// Interval is its interval in rounds, Next the round it is due.
	Interval, Next int
	Checks         int
	// Links are a hub's links at its last check, newline-separated.
	Links string
	Seq   int64
}

// AddSource inserts a source unless it is known or its site has limit
// sources already; it reports whether it was added.
func (r *Repo) AddSource(ctx context.Context, s Source, limit int) (bool, error) {
	n, err := r.count(ctx, `SELECT COUNT(*) FROM monitor_sources WHERE monitor = ? AND site = ?`, r.name, s.Site)
	if err != nil {
		return false, fmt.Errorf("monitor: sources of %s: %w", s.Site, err)
	}
	if n >= limit {
		return false, nil
	}
	res, err := r.exec(ctx, `INSERT INTO monitor_sources (monitor, url, kind, site, interval_rounds, next_round, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (monitor, url) DO NOTHING`,
		r.name, s.URL, s.Kind.String(), s.Site, s.Interval, s.Next, time.Now().UnixNano())
	if err != nil {
		return false, fmt.Errorf("monitor: add source %s: %w", s.URL, err)
	}
	return affected(res), nil
}

const sourceColumns = `url, kind, site, etag, last_modified, interval_rounds, next_round, checks, links, seq`

func scanSource(sc interface{ Scan(...any) error }) (Source, error) {
	var s Source
	var kind string
	err := sc.Scan(&s.URL, &kind, &s.Site, &s.ETag, &s.LastModified, &s.Interval, &s.Next, &s.Checks, &s.Links, &s.Seq)
	s.Kind = SourceKind(kind)
	return s, err
}

// DueSources lists the sources due in round n (in no order).
func (r *Repo) DueSources(ctx context.Context, n int) ([]Source, error) {
	var out []Source
	err := r.each(ctx, `SELECT `+sourceColumns+` FROM monitor_sources WHERE monitor = ? AND next_round <= ?`, []any{r.name, n},
		func(rows *sql.Rows) error {
			s, err := scanSource(rows)
			out = append(out, s)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("monitor: due sources: %w", err)
	}
	return out, nil
}

// Source returns the source stored under url.
func (r *Repo) Source(ctx context.Context, url string) (Source, bool, error) {
	s, err := scanSource(r.queryRow(ctx, `SELECT `+sourceColumns+` FROM monitor_sources WHERE monitor = ? AND url = ?`, r.name, url))
	found, err := noRow(err)
	if err != nil {
		return s, false, fmt.Errorf("monitor: source %s: %w", url, err)
	}
	return s, found, nil
}

// SourceChecked records a successful check of s: its kind, validators,
// interval (due again at Next) and links as s now holds them, and found
// URLs it was the first to list.
func (r *Repo) SourceChecked(ctx context.Context, s Source, found int) error {
	_, err := r.exec(ctx, `UPDATE monitor_sources SET kind = ?, etag = ?, last_modified = ?, interval_rounds = ?, next_round = ?,
		checks = checks + 1, found = found + ?, links = ?, last_error = '' WHERE monitor = ? AND url = ?`,
		s.Kind.String(), s.ETag, s.LastModified, s.Interval, s.Next, found, s.Links, r.name, s.URL)
	if err != nil {
		return fmt.Errorf("monitor: update source %s: %w", s.URL, err)
	}
	return nil
}

// SourceFailed records a failed check of s, due again at s.Next.
func (r *Repo) SourceFailed(ctx context.Context, s Source, cause error) error {
	_, err := r.exec(ctx, `UPDATE monitor_sources SET interval_rounds = ?, next_round = ?, checks = checks + 1,
		errors = errors + 1, last_error = ? WHERE monitor = ? AND url = ?`, s.Interval, s.Next, truncate(cause.Error(), 500), r.name, s.URL)
	if err != nil {
		return fmt.Errorf("monitor: update source %s: %w", s.URL, err)
	}
	return nil
}

// HasListings reports whether a site has a feed, a sitemap or a sitemap
// index among its sources.
func (r *Repo) HasListings(ctx context.Context, site string) (bool, error) {
	n, err := r.count(ctx, `SELECT COUNT(*) FROM monitor_sources WHERE monitor = ? AND site = ? AND kind IN (?, ?, ?)`,
		r.name, site, SourceFeed.String(), SourceSitemap.String(), SourceSitemapIndex.String())
	if err != nil {
		return false, fmt.Errorf("monitor: sources of %s: %w", site, err)
	}
	return n > 0, nil
}
