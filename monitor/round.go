package monitor

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gleaner/gleaner/feeds"
)

// Source kinds, in the order a round checks them.
const (
	srcRobots  = "robots"
	srcHub     = "hub"
	srcIndex   = "sitemap-index"
	srcFeed    = "feed"
	srcSitemap = "sitemap"
)

var kindOrder = map[string]int{srcRobots: 0, srcHub: 1, srcIndex: 2, srcFeed: 3, srcSitemap: 4}

// source is one row of monitor_sources.
type source struct {
	url, kind, site    string
	etag, lastModified string
	interval, next     int
	checks             int
	links              string
	seq                int64
}

// hint is what a source said about a URL it listed, kept with the URL.
type hint struct {
	Via       string    `json:"via"` // "news" (feed, news sitemap), "sitemap", "hub"
	Source    string    `json:"source"`
	Title     string    `json:"title,omitempty"`
	Published time.Time `json:"published,omitzero"`
	Modified  time.Time `json:"modified,omitzero"`
	Authors   []string  `json:"authors,omitempty"`
	Lang      string    `json:"lang,omitempty"`
}

// maxHubLinks bounds the links remembered for one hub.
const maxHubLinks = 5000

// Round runs one round: the round interrupted last time if there is one,
// else the next. It returns the round's report, its new documents in
// Report.Documents.
func (m *Monitor) Round(ctx context.Context) (*Report, error) {
	startReq := m.requests.Load()
	r, resumed, err := m.beginRound(ctx)
	if err != nil {
		return nil, err
	}
	rep := &Report{Round: r, Resumed: resumed}
	if err := m.seed(ctx, r); err != nil {
		return nil, err
	}
	if err := m.loadShapes(ctx); err != nil {
		return nil, err
	}
	if err := m.loadRoundNew(ctx, r); err != nil {
		return nil, err
	}
	if err := m.checkSources(ctx, r, rep); err != nil {
		return nil, err
	}
	if err := m.fetchPending(ctx, r, rep); err != nil {
		return nil, err
	}
	if err := m.applyTemplates(ctx, rep); err != nil {
		return nil, err
	}
	rep.Requests = int(m.requests.Load() - startReq)
	return rep, m.finishRound(ctx, rep)
}

func (m *Monitor) q(s string) string { return m.db.Rebind(s) }

// beginRound returns the round to run: an unfinished one, else a new one.
func (m *Monitor) beginRound(ctx context.Context) (int, bool, error) {
	next, err := m.NextRound(ctx)
	if err != nil {
		return 0, false, err
	}
	var n int
	if err := m.db.SQL().QueryRowContext(ctx, m.q(`SELECT COUNT(*) FROM monitor_rounds WHERE monitor = ? AND round = ?`), m.cfg.Name, next).Scan(&n); err != nil {
		return 0, false, fmt.Errorf("monitor %s: round %d: %w", m.cfg.Name, next, err)
	}
	if n > 0 {
		return next, true, nil
	}
	if _, err := m.db.SQL().ExecContext(ctx, m.q(`INSERT INTO monitor_rounds (monitor, round, started_at) VALUES (?, ?, ?)`),
		m.cfg.Name, next, m.cfg.Now().UnixMilli()); err != nil {
		return 0, false, fmt.Errorf("monitor %s: start round %d: %w", m.cfg.Name, next, err)
	}
	return next, false, nil
}

// seed adds the configured sites (home pages, feeds, sitemaps or sitemap
// indexes: a seed's kind is found at its first check) and their robots.txt
// as sources.
func (m *Monitor) seed(ctx context.Context, r int) error {
	m.seeds = map[string]bool{}
	for _, s := range m.cfg.Sites {
		u, _ := url.Parse(s)
		home, err := canonical(nil, s)
		if err != nil {
			return fmt.Errorf("monitor: site %q: %w", s, err)
		}
		m.seeds[home] = true
		robots := u.Scheme + "://" + u.Host + "/robots.txt"
		for _, src := range []source{{url: robots, kind: srcRobots}, {url: home, kind: srcHub}} {
			src.site, src.interval, src.next = site(home), 1, r
			if _, err := m.addSource(ctx, src); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxSourcesPerSite bounds the sources a site's robots.txt, home page and
// sitemap indexes can add (an index may name 50,000 sitemaps).
const maxSourcesPerSite = 200

// addSource inserts a source unless known or the site has too many; it
// reports whether it was added.
func (m *Monitor) addSource(ctx context.Context, s source) (bool, error) {
	var n int
	if err := m.db.SQL().QueryRowContext(ctx, m.q(`SELECT COUNT(*) FROM monitor_sources WHERE monitor = ? AND site = ?`), m.cfg.Name, s.site).Scan(&n); err != nil {
		return false, fmt.Errorf("monitor: sources of %s: %w", s.site, err)
	}
	if n >= maxSourcesPerSite {
		return false, nil
	}
	res, err := m.db.SQL().ExecContext(ctx, m.q(`INSERT INTO monitor_sources (monitor, url, kind, site, interval_rounds, next_round, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (monitor, url) DO NOTHING`),
		m.cfg.Name, s.url, s.kind, s.site, s.interval, s.next, time.Now().UnixNano())
	if err != nil {
		return false, fmt.Errorf("monitor: add source %s: %w", s.url, err)
	}
	added, _ := res.RowsAffected()
	return added > 0, nil
}

// dueSources lists the sources to check in round r, in checking order.
func (m *Monitor) dueSources(ctx context.Context, r int, done map[string]bool) ([]source, error) {
	rows, err := m.db.SQL().QueryContext(ctx, m.q(`SELECT url, kind, site, etag, last_modified, interval_rounds, next_round, checks, links, seq
		FROM monitor_sources WHERE monitor = ? AND next_round <= ?`), m.cfg.Name, r)
	if err != nil {
		return nil, fmt.Errorf("monitor: due sources: %w", err)
	}
	defer rows.Close()
	var out []source
	for rows.Next() {
		var s source
		if err := rows.Scan(&s.url, &s.kind, &s.site, &s.etag, &s.lastModified, &s.interval, &s.next, &s.checks, &s.links, &s.seq); err != nil {
			return nil, fmt.Errorf("monitor: due sources: %w", err)
		}
		if !done[s.url] {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := kindOrder[out[i].kind], kindOrder[out[j].kind]; a != b {
			return a < b
		}
		return out[i].url < out[j].url
	})
	return out, rows.Err()
}

// checkSources checks every due source, those discovered on the way
// included, and records the URLs they list as pending.
func (m *Monitor) checkSources(ctx context.Context, r int, rep *Report) error {
	done := map[string]bool{}
	for {
		due, err := m.dueSources(ctx, r, done)
		if err != nil || len(due) == 0 {
			return err
		}
		for _, s := range due {
			if err := ctx.Err(); err != nil {
				return err
			}
			done[s.url] = true
			rep.Sources++
			if err := m.checkSource(ctx, r, s, rep); err != nil {
				return err
			}
		}
	}
}

// checked is what one source check found.
type checked struct {
	entries  []feeds.Entry
	via      string
	sources  []source
	links    string // a hub's links, newline-separated
	baseline bool   // a hub's first check: its links are recorded, not taken
	kind     string // what the source turned out to be ("" for a hub)
}

// checkSource fetches one source conditionally, records what it lists and
// reschedules it. Fetch and parse errors count in the report; store errors
// end the round.
func (m *Monitor) checkSource(ctx context.Context, r int, s source, rep *Report) error {
	resp, err := m.get(ctx, s.url, s.etag, s.lastModified, readSource)
	var c *checked
	switch {
	case err != nil:
	case resp.status == http.StatusNotModified:
		rep.NotModified++
	case s.kind == srcRobots && (resp.status == http.StatusNotFound || resp.status == http.StatusGone):
		// A site without robots.txt: nothing to read, nothing wrong.
		c = &checked{}
	case resp.status != http.StatusOK:
		err = fmt.Errorf("source %s: HTTP %d", s.url, resp.status)
	default:
		c, err = m.parseSource(ctx, s, resp)
	}
	if m.seeds[s.url] && s.checks == 0 {
		if note := seedNote(s, c, err); note != "" {
			rep.Notes = append(rep.Notes, note)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rep.Errors++
		return m.sourceFailed(ctx, r, s, err)
	}
	found := 0
	if c != nil {
		if found, err = m.record(ctx, r, s, c); err != nil {
			return err
		}
		s.etag, s.lastModified = resp.etag, resp.lastModified
		if c.links != "" || c.baseline {
			s.links = c.links
		}
		if c.kind != "" {
			// robots.txt names an index as a sitemap; a seed may be
			// any listing.
			s.kind = c.kind
		}
	}
	s.interval = m.nextInterval(ctx, s, found)
	_, err = m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_sources SET kind = ?, etag = ?, last_modified = ?, interval_rounds = ?, next_round = ?,
		checks = checks + 1, found = found + ?, links = ?, last_error = '' WHERE monitor = ? AND url = ?`),
		s.kind, s.etag, s.lastModified, s.interval, r+s.interval, found, s.links, m.cfg.Name, s.url)
	if err != nil {
		return fmt.Errorf("monitor: update source %s: %w", s.url, err)
	}
	return nil
}

// seedNote says why a seed's first check yields nothing, "" when it
// yields URLs or sources.
func seedNote(s source, c *checked, err error) string {
	switch {
	case err != nil:
		return fmt.Sprintf("site %s: %v", s.url, err)
	case c == nil || len(c.entries) > 0 || len(c.sources) > 0:
		return ""
	case c.kind != "":
		return fmt.Sprintf("site %s: the %s lists no URL", s.url, c.kind)
	case c.links == "":
		return fmt.Sprintf("site %s: an HTML page with no link, no feed announced and no sitemap in robots.txt", s.url)
	case c.baseline:
		return ""
	}
	return fmt.Sprintf("site %s: an HTML page linking none of its site's pages, no feed announced and no sitemap in robots.txt", s.url)
}

func (m *Monitor) sourceFailed(ctx context.Context, r int, s source, cause error) error {
	s.interval = m.nextInterval(ctx, s, 0)
	_, err := m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_sources SET interval_rounds = ?, next_round = ?, checks = checks + 1,
		errors = errors + 1, last_error = ? WHERE monitor = ? AND url = ?`), s.interval, r+s.interval, truncate(cause.Error(), 500), m.cfg.Name, s.url)
	if err != nil {
		return fmt.Errorf("monitor: update source %s: %w", s.url, err)
	}
	return nil
}

// nextInterval adapts a source's interval: halved when its check found
// new URLs, doubled when not (a first check, which may come after other
// sources listed the same URLs, keeps it); structural sources (robots.txt, hubs,
// sitemap indexes, hubs of a site with a feed or sitemap) wait at least
// half the maximum once checked.
func (m *Monitor) nextInterval(ctx context.Context, s source, found int) int {
	iv := max(1, s.interval)
	if found > 0 || s.checks == 0 {
		iv = max(1, iv/2)
	} else {
		iv = min(m.cfg.MaxInterval, iv*2)
	}
	if s.kind == srcRobots || s.kind == srcIndex || (s.kind == srcHub && m.hasListings(ctx, s.site)) {
		iv = max(iv, m.cfg.MaxInterval/2)
	}
	return iv
}

func readSource(name string, resp *http.Response) ([]byte, error) { return feeds.Read(name, resp.Body) }

func readPage(name string, resp *http.Response) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxPageBytes+1))
	if err != nil {
		return nil, fmt.Errorf("url %s: read: %w", name, err)
	}
	if len(b) > maxPageBytes {
		return nil, fmt.Errorf("url %s: page over %d bytes: %w", name, maxPageBytes, feeds.ErrTooLarge)
	}
	return b, nil
}

// hasListings reports whether a site has a feed or sitemap among its
// sources (robots.txt, checked before hubs, adds its sitemaps).
func (m *Monitor) hasListings(ctx context.Context, site string) bool {
	var n int
	err := m.db.SQL().QueryRowContext(ctx, m.q(`SELECT COUNT(*) FROM monitor_sources WHERE monitor = ? AND site = ? AND kind IN (?, ?, ?)`),
		m.cfg.Name, site, srcFeed, srcSitemap, srcIndex).Scan(&n)
	return err == nil && n > 0
}

// parseSource reads a fetched source according to its kind.
func (m *Monitor) parseSource(ctx context.Context, s source, resp *response) (*checked, error) {
	switch s.kind {
	case srcRobots:
		c := &checked{}
		for _, u := range feeds.RobotsSitemaps(s.url, resp.body) {
			c.sources = append(c.sources, source{url: u, kind: srcSitemap, site: s.site})
		}
		return c, nil
	case srcHub:
		if !isHTML(resp) {
			// A seed may be a feed, a sitemap or a sitemap index: its
			// kind is what its body says.
			doc, err := feeds.Parse(s.url, resp.body)
			if err != nil {
				return nil, fmt.Errorf("source %s (content type %q) is no HTML page, feed or sitemap: %w", s.url, resp.contentType, err)
			}
			return listingOf(s, doc), nil
		}
		c := &checked{links: hubLinks(resp.finalURL, resp.body), baseline: s.checks == 0}
		for _, u := range feeds.Discover(resp.finalURL, resp.body) {
			c.sources = append(c.sources, source{url: u, kind: srcFeed, site: s.site})
		}
		if c.baseline && len(c.sources) == 0 && !m.hasListings(ctx, s.site) {
			// A site without feed or sitemap: its hubs are its only
			// listing, so the first check takes their links too.
			c.baseline = false
		}
		if !c.baseline {
			old := map[string]bool{}
			for _, l := range strings.Split(s.links, "\n") {
				old[l] = true
			}
			for _, l := range strings.Split(c.links, "\n") {
				if lu, err := url.Parse(l); l != "" && !old[l] && site(l) == s.site && err == nil && !hubURL(lu) {
					c.entries = append(c.entries, feeds.Entry{URL: l})
				}
			}
		}
		c.via = "hub"
		return c, nil
	}
	doc, err := feeds.Parse(s.url, resp.body)
	if err != nil {
		return nil, err
	}
	return listingOf(s, doc), nil
}

// listingOf is what a feed or sitemap lists: its entries, and the child
// sitemaps of an index.
func listingOf(s source, doc *feeds.Document) *checked {
	c := &checked{entries: doc.Entries, via: "sitemap", kind: srcSitemap}
	switch {
	case doc.Kind == feeds.KindFeed:
		c.via, c.kind = "news", srcFeed
	case doc.Format == "news-sitemap":
		c.via = "news"
	case doc.Kind == feeds.KindSitemapIndex:
		c.kind = srcIndex
	}
	for _, u := range doc.Sitemaps {
		c.sources = append(c.sources, source{url: u, kind: srcSitemap, site: s.site})
	}
	return c
}

// isHTML reports whether a fetched source is an HTML page: by its content
// type, unless its body opens as XML (a sitemap served as text/html).
func isHTML(resp *response) bool {
	head := bytes.TrimLeft(bytes.TrimPrefix(resp.body[:min(len(resp.body), 512)], []byte("\xef\xbb\xbf")), " \t\r\n")
	if bytes.HasPrefix(head, []byte("<?xml")) || bytes.HasPrefix(head, []byte("{")) {
		return false
	}
	ct := strings.ToLower(resp.contentType)
	return ct == "" || strings.Contains(ct, "html")
}

// record adds the sources a check discovered and the URLs it listed; it
// returns how many of those URLs it was the first to list: a source that
// only repeats what others listed backs off like one that lists nothing.
func (m *Monitor) record(ctx context.Context, r int, s source, c *checked) (int, error) {
	for _, d := range c.sources {
		d.interval, d.next = 1, r
		if _, err := m.addSource(ctx, d); err != nil {
			return 0, err
		}
	}
	found := 0
	for i, e := range c.entries {
		u, err := canonical(nil, e.URL)
		if err != nil {
			continue
		}
		if c.via == "news" {
			m.learnShape(site(u), u)
		}
		if !e.Published.IsZero() && m.zones[site(u)] == nil {
			m.zones[site(u)] = e.Published.Location()
		}
		h := hint{Via: c.via, Source: s.url, Title: e.Title, Published: e.Published, Modified: e.Modified, Authors: e.Authors, Lang: e.Language}
		isNew, err := m.addURL(ctx, r, u, h, int64(i))
		if err != nil {
			return 0, err
		}
		if isNew {
			m.roundNew[u] = true
		}
		if isNew {
			found++
		} else if m.roundNew[u] {
			if err := m.mergeHint(ctx, u, h); err != nil {
				return 0, err
			}
		} else if m.cfg.Updates && !e.Modified.IsZero() {
			if err := m.markModified(ctx, r, u, e.Modified); err != nil {
				return 0, err
			}
		}
	}
	return found, nil
}

// mergeHint completes the hint of a URL still pending with what another
// source says of it (a feed's title and publication date, a sitemap's
// lastmod), a news source's word on its kind first.
func (m *Monitor) mergeHint(ctx context.Context, u string, h hint) error {
	var hj string
	err := m.db.SQL().QueryRowContext(ctx, m.q(`SELECT hint FROM monitor_urls WHERE monitor = ? AND url = ? AND state = 'pending'`), m.cfg.Name, u).Scan(&hj)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("monitor: hint for %s: %w", u, err)
	}
	var old hint
	_ = json.Unmarshal([]byte(hj), &old) // written by addURL
	merged := old.merge(h)
	b, _ := json.Marshal(merged)
	if string(b) == hj {
		return nil
	}
	if _, err := m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_urls SET hint = ? WHERE monitor = ? AND url = ?`), string(b), m.cfg.Name, u); err != nil {
		return fmt.Errorf("monitor: hint for %s: %w", u, err)
	}
	return nil
}

// merge fills h's missing fields from o; "news" wins over other ways.
func (h hint) merge(o hint) hint {
	if o.Via == "news" && h.Via != "news" {
		h.Via, h.Source = o.Via, o.Source
	}
	h.Title = firstOf(h.Title, o.Title)
	h.Lang = firstOf(h.Lang, o.Lang)
	if h.Published.IsZero() {
		h.Published = o.Published
	}
	if h.Modified.IsZero() {
		h.Modified = o.Modified
	}
	if len(h.Authors) == 0 {
		h.Authors = o.Authors
	}
	return h
}

// loadRoundNew reads the URLs first listed in round r (a resumed round's
// first run listed some).
func (m *Monitor) loadRoundNew(ctx context.Context, r int) error {
	m.roundNew = map[string]bool{}
	if m.zones == nil {
		m.zones = map[string]*time.Location{}
	}
	rows, err := m.db.SQL().QueryContext(ctx, m.q(`SELECT url FROM monitor_urls WHERE monitor = ? AND round = ?`), m.cfg.Name, r)
	if err != nil {
		return fmt.Errorf("monitor: urls of round %d: %w", r, err)
	}
	defer rows.Close()
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return fmt.Errorf("monitor: urls of round %d: %w", r, err)
		}
		m.roundNew[u] = true
	}
	return rows.Err()
}

// addURL records a listed URL as pending unless known.
func (m *Monitor) addURL(ctx context.Context, r int, u string, h hint, i int64) (bool, error) {
	hj, _ := json.Marshal(h)
	var listed int64
	if !h.Modified.IsZero() {
		listed = h.Modified.UnixMilli()
	} else if !h.Published.IsZero() {
		listed = h.Published.UnixMilli()
	}
	res, err := m.db.SQL().ExecContext(ctx, m.q(`INSERT INTO monitor_urls (monitor, url, site, state, round, seq, hint, listed_modified)
		VALUES (?, ?, ?, 'pending', ?, ?, ?, ?) ON CONFLICT (monitor, url) DO NOTHING`),
		m.cfg.Name, u, site(u), r, time.Now().UnixNano()+i, string(hj), listed)
	if err != nil {
		return false, fmt.Errorf("monitor: record %s: %w", u, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// markModified queues a known article for a conditional re-fetch when a
// source lists it as modified after what the monitor last saw.
func (m *Monitor) markModified(ctx context.Context, r int, u string, mod time.Time) error {
	_, err := m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_urls SET state = 'recheck', update_round = ?, listed_modified = ?
		WHERE monitor = ? AND url = ? AND state = 'article' AND doc_id > 0 AND listed_modified > 0 AND listed_modified < ?`),
		r, mod.UnixMilli(), m.cfg.Name, u, mod.UnixMilli())
	if err != nil {
		return fmt.Errorf("monitor: mark %s modified: %w", u, err)
	}
	// A URL first listed without a date takes this one as its baseline.
	_, err = m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_urls SET listed_modified = ? WHERE monitor = ? AND url = ? AND listed_modified = 0`),
		mod.UnixMilli(), m.cfg.Name, u)
	if err != nil {
		return fmt.Errorf("monitor: mark %s modified: %w", u, err)
	}
	return nil
}

// finishRound fills the report's counts from the store (so that a resumed
// round counts what its first run did) and closes the round.
func (m *Monitor) finishRound(ctx context.Context, rep *Report) error {
	db, name, r := m.db.SQL(), m.cfg.Name, rep.Round
	counts := []struct {
		q   string
		dst *int
	}{
		{`SELECT COUNT(*) FROM monitor_docs WHERE monitor = ? AND round = ? AND kind = 'article'`, &rep.New},
		{`SELECT COUNT(*) FROM monitor_docs WHERE monitor = ? AND round = ? AND kind = 'article' AND run_id > 0`, &rep.Templated},
		{`SELECT COUNT(*) FROM monitor_docs WHERE monitor = ? AND round = ? AND kind = 'hub'`, &rep.HubTemplate},
		{`SELECT COUNT(*) FROM monitor_docs WHERE monitor = ? AND updated_round = ?`, &rep.Updated},
		{`SELECT COUNT(*) FROM monitor_links WHERE monitor = ? AND round = ?`, &rep.Duplicates},
		{`SELECT COUNT(*) FROM monitor_urls WHERE monitor = ? AND round = ? AND state = 'hub'`, &rep.Hubs},
		{`SELECT COUNT(*) FROM monitor_urls WHERE monitor = ? AND round = ? AND state = 'off-focus'`, &rep.OffFocus},
	}
	for _, c := range counts {
		if err := db.QueryRowContext(ctx, m.q(c.q), name, r).Scan(c.dst); err != nil {
			return fmt.Errorf("monitor: round %d counts: %w", r, err)
		}
	}
	docs, err := m.Documents(ctx, Selection{Round: r})
	if err != nil {
		return err
	}
	rep.Documents = docs
	_, err = db.ExecContext(ctx, m.q(`UPDATE monitor_rounds SET finished_at = ?, requests = requests + ?, errors = errors + ?, sources = sources + ?
		WHERE monitor = ? AND round = ?`), m.cfg.Now().UnixMilli(), rep.Requests, rep.Errors, rep.Sources, name, r)
	if err != nil {
		return fmt.Errorf("monitor: finish round %d: %w", r, err)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// NextRound returns the number the next call of Round will run under.
func (m *Monitor) NextRound(ctx context.Context) (int, error) {
	var r, finished sql.NullInt64
	err := m.db.SQL().QueryRowContext(ctx, m.q(`SELECT round, finished_at FROM monitor_rounds WHERE monitor = ? ORDER BY round DESC LIMIT 1`), m.cfg.Name).Scan(&r, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return 1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("monitor %s: last round: %w", m.cfg.Name, err)
	}
	if finished.Int64 == 0 {
		return int(r.Int64), nil
	}
	return int(r.Int64) + 1, nil
}
