package monitoring

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Listed is a URL a source listed, recorded as pending unless known.
type Listed struct {
	URL, Site string
	Round     int
	// Seq orders the round's fetches (the order sources listed them).
	Seq int64
	// Hint is what the source said of it, as the monitor encodes it.
	Hint string
	// Modified is the modification (else publication) time the source
	// stated, zero when none.
	Modified time.Time
}

// AddURL records a listed URL as pending unless known; it reports
// whether it was new.
func (r *Repo) AddURL(ctx context.Context, l Listed) (bool, error) {
	res, err := r.exec(ctx, `INSERT INTO monitor_urls (monitor, url, site, state, round, seq, hint, listed_modified)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (monitor, url) DO NOTHING`,
		r.name, l.URL, l.Site, URLPending.String(), l.Round, l.Seq, l.Hint, millis(l.Modified))
	if err != nil {
		return false, fmt.Errorf("monitor: record %s: %w", l.URL, err)
	}
	return affected(res), nil
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// PendingHint returns the hint of a URL still pending.
func (r *Repo) PendingHint(ctx context.Context, url string) (string, bool, error) {
	var h string
	err := r.queryRow(ctx, `SELECT hint FROM monitor_urls WHERE monitor = ? AND url = ? AND state = ?`, r.name, url, URLPending.String()).Scan(&h)
	found, err := noRow(err)
	if err != nil {
		return "", false, fmt.Errorf("monitor: hint for %s: %w", url, err)
	}
	return h, found, nil
}

// SetHint replaces a URL's hint.
func (r *Repo) SetHint(ctx context.Context, url, hint string) error {
	if _, err := r.exec(ctx, `UPDATE monitor_urls SET hint = ? WHERE monitor = ? AND url = ?`, hint, r.name, url); err != nil {
		return fmt.Errorf("monitor: hint for %s: %w", url, err)
	}
	return nil
}

// RoundURLs lists the URLs first listed in round n.
func (r *Repo) RoundURLs(ctx context.Context, n int) ([]string, error) {
	var out []string
	err := r.each(ctx, `SELECT url FROM monitor_urls WHERE monitor = ? AND round = ?`, []any{r.name, n}, func(rows *sql.Rows) error {
		var u string
		err := rows.Scan(&u)
		out = append(out, u)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("monitor: urls of round %d: %w", n, err)
	}
	return out, nil
}

// MarkModified queues a stored article for a conditional re-fetch in
// round n when a source lists it as modified at mod, after what the
// monitor last saw; a URL first listed without a date takes mod as its
// baseline.
func (r *Repo) MarkModified(ctx context.Context, n int, url string, mod time.Time) error {
	_, err := r.exec(ctx, `UPDATE monitor_urls SET state = ?, update_round = ?, listed_modified = ?
		WHERE monitor = ? AND url = ? AND state = ? AND doc_id > 0 AND listed_modified > 0 AND listed_modified < ?`,
		URLRecheck.String(), n, mod.UnixMilli(), r.name, url, URLArticle.String(), mod.UnixMilli())
	if err != nil {
		return fmt.Errorf("monitor: mark %s modified: %w", url, err)
	}
	_, err = r.exec(ctx, `UPDATE monitor_urls SET listed_modified = ? WHERE monitor = ? AND url = ? AND listed_modified = 0`,
		mod.UnixMilli(), r.name, url)
	if err != nil {
		return fmt.Errorf("monitor: mark %s modified: %w", url, err)
	}
	return nil
}

// Queued is a URL waiting for its fetch: pending, to recheck, or a copy
// waiting for its original.
type Queued struct {
	URL, Site string
	State     URLState
	// Detail is, for a copy waiting, the URL of its original.
	Detail   string
	Hint     string
	Attempts int
	DocID    int64
	// ETag and LastModified are the validators of a stored article's
	// last fetch.
	ETag, LastModified string
}

// Queue lists the URLs waiting for a fetch, in the order their sources
// listed them.
func (r *Repo) Queue(ctx context.Context) ([]Queued, error) {
	var out []Queued
	err := r.each(ctx, `SELECT url, site, state, detail, hint, attempts, doc_id, etag, last_modified FROM monitor_urls
		WHERE monitor = ? AND state IN (?, ?, ?) ORDER BY seq`, []any{r.name, URLPending.String(), URLRecheck.String(), URLWaiting.String()},
		func(rows *sql.Rows) error {
			var q Queued
			var state string
			err := rows.Scan(&q.URL, &q.Site, &state, &q.Detail, &q.Hint, &q.Attempts, &q.DocID, &q.ETag, &q.LastModified)
			q.State = URLState(state)
			out = append(out, q)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("monitor: pending urls: %w", err)
	}
	return out, nil
}

// Outcome is what became of a fetched URL.
type Outcome struct {
	State URLState
	DocID int64
	// Detail says why (an error, a duplicate's reason), truncated.
	Detail string
	// ETag and LastModified are the validators of the page fetched.
	ETag, LastModified string
}

// SetOutcome records what became of a URL, counting the attempt.
func (r *Repo) SetOutcome(ctx context.Context, url string, o Outcome) error {
	_, err := r.exec(ctx, `UPDATE monitor_urls SET state = ?, doc_id = ?, detail = ?, etag = ?, last_modified = ?,
		attempts = attempts + 1 WHERE monitor = ? AND url = ?`, o.State.String(), o.DocID, truncate(o.Detail, 500), o.ETag, o.LastModified, r.name, url)
	if err != nil {
		return fmt.Errorf("monitor: record %s: %w", url, err)
	}
	return nil
}

// SetWaiting records a copy as waiting for the original it names.
func (r *Repo) SetWaiting(ctx context.Context, url, original string) error {
	_, err := r.exec(ctx, `UPDATE monitor_urls SET state = ?, detail = ? WHERE monitor = ? AND url = ?`, URLWaiting.String(), original, r.name, url)
	if err != nil {
		return fmt.Errorf("monitor: record %s: %w", url, err)
	}
	return nil
}

// SetHubPage records the store page of a URL taken for a hub.
func (r *Repo) SetHubPage(ctx context.Context, url string, pageID int64) error {
	if _, err := r.exec(ctx, `UPDATE monitor_urls SET page_id = ? WHERE monitor = ? AND url = ?`, pageID, r.name, url); err != nil {
		return fmt.Errorf("monitor: record %s: %w", url, err)
	}
	return nil
}

// IsPending reports whether url is pending.
func (r *Repo) IsPending(ctx context.Context, url string) (bool, error) {
	n, err := r.count(ctx, `SELECT COUNT(*) FROM monitor_urls WHERE monitor = ? AND url = ? AND state = ?`, r.name, url, URLPending.String())
	if err != nil {
		return false, fmt.Errorf("monitor: url %s: %w", url, err)
	}
	return n > 0, nil
}

// URLState returns what became of a URL and why; "" when never met.
func (r *Repo) URLState(ctx context.Context, url string) (URLState, string, error) {
	var state, detail string
	err := r.queryRow(ctx, `SELECT state, detail FROM monitor_urls WHERE monitor = ? AND url = ?`, r.name, url).Scan(&state, &detail)
	if _, err := noRow(err); err != nil {
		return "", "", fmt.Errorf("monitor: url %s: %w", url, err)
	}
	return URLState(state), detail, nil
}

// SiteURL is a URL with its site.
type SiteURL struct{ Site, URL string }

// ArticleURLs lists the URLs stored as articles or linked to one.
func (r *Repo) ArticleURLs(ctx context.Context) ([]SiteURL, error) {
	var out []SiteURL
	err := r.each(ctx, `SELECT site, url FROM monitor_urls WHERE monitor = ? AND state IN (?, ?)`,
		[]any{r.name, URLArticle.String(), URLDuplicate.String()}, func(rows *sql.Rows) error {
			var s SiteURL
			err := rows.Scan(&s.Site, &s.URL)
			out = append(out, s)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("monitor: article urls: %w", err)
	}
	return out, nil
}

// HubPages lists the store pages of the URLs taken for hubs.
func (r *Repo) HubPages(ctx context.Context) ([]int64, error) {
	return r.ids(ctx, `SELECT page_id FROM monitor_urls WHERE monitor = ? AND state = ? AND page_id > 0`, r.name, URLHub.String())
}

// ids runs a query of one id column.
func (r *Repo) ids(ctx context.Context, q string, args ...any) ([]int64, error) {
	var out []int64
	err := r.each(ctx, q, args, func(rows *sql.Rows) error {
		var id int64
		err := rows.Scan(&id)
		out = append(out, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("monitor: ids: %w", err)
	}
	return out, nil
}
