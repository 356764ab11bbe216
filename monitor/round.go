package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gleaner/gleaner/feeds"
	"github.com/gleaner/gleaner/store/monitoring"
)

// kindOrder is the order in which a round checks its sources' kinds.
var kindOrder = map[monitoring.SourceKind]int{monitoring.SourceRobots: 0, monitoring.SourceHub: 1, monitoring.SourceSitemapIndex: 2,
	monitoring.SourceFeed: 3, monitoring.SourceSitemap: 4}

// source is a monitored source as the store keeps it.
type source = monitoring.Source

// via says how a source listed a URL: what it says of the URL's kind.
type via string

const (
	viaNews    via = "news" // a feed or a news sitemap: articles only
	viaSitemap via = "sitemap"
	viaHub     via = "hub"
)

// hint is what a source said about a URL it listed, kept with the URL.
type hint struct {
	Via       via       `json:"via"`
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
	steps := []func(context.Context, *Report) error{m.seed, m.loadShapes, m.loadRoundNew, m.checkSources, m.fetchPending, m.applyTemplates}
	for _, step := range steps {
		if err := step(ctx, rep); err != nil {
			return nil, err
		}
	}
	rep.Requests = int(m.requests.Load() - startReq)
	return rep, m.finishRound(ctx, rep)
}

// beginRound returns the round to run: an unfinished one, else a new one.
func (m *Monitor) beginRound(ctx context.Context) (int, bool, error) {
	next, err := m.NextRound(ctx)
	if err != nil {
		return 0, false, err
	}
	resumed, err := m.repo.StartRound(ctx, next, m.cfg.Now())
	return next, resumed, err
}

// seed adds the configured sites (home pages, feeds, sitemaps or sitemap
// indexes: a seed's kind is found at its first check) and their robots.txt
// as sources.
func (m *Monitor) seed(ctx context.Context, rep *Report) error {
	m.seeds = map[string]bool{}
	for _, s := range m.cfg.Sites {
		u, _ := url.Parse(s)
		home, err := canonical(nil, s)
		if err != nil {
			return fmt.Errorf("monitor: site %q: %w", s, err)
		}
		m.seeds[home] = true
		robots := u.Scheme + "://" + u.Host + "/robots.txt"
		for _, src := range []source{{URL: robots, Kind: monitoring.SourceRobots}, {URL: home, Kind: monitoring.SourceHub}} {
			src.Site, src.Interval, src.Next = site(home), 1, rep.Round
			if _, err := m.repo.AddSource(ctx, src, maxSourcesPerSite); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxSourcesPerSite bounds the sources a site's robots.txt, home page and
// sitemap indexes can add (an index may name 50,000 sitemaps).
const maxSourcesPerSite = 200

// dueSources lists the sources to check in round r that are not done, in
// checking order.
func (m *Monitor) dueSources(ctx context.Context, r int, done map[string]bool) ([]source, error) {
	all, err := m.repo.DueSources(ctx, r)
	if err != nil {
		return nil, err
	}
	var out []source
	for _, s := range all {
		if !done[s.URL] {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := kindOrder[out[i].Kind], kindOrder[out[j].Kind]; a != b {
			return a < b
		}
		return out[i].URL < out[j].URL
	})
	return out, nil
}

// checkSources checks every due source, those discovered on the way
// included, and records the URLs they list as pending.
func (m *Monitor) checkSources(ctx context.Context, rep *Report) error {
	done := map[string]bool{}
	for {
		due, err := m.dueSources(ctx, rep.Round, done)
		if err != nil || len(due) == 0 {
			return err
		}
		for _, s := range due {
			if err := ctx.Err(); err != nil {
				return err
			}
			done[s.URL] = true
			rep.Sources++
			if err := m.checkSource(ctx, rep.Round, s, rep); err != nil {
				return err
			}
		}
	}
}

// checked is what one source check found.
type checked struct {
	entries  []feeds.Entry
	via      via
	sources  []source
	links    string                // a hub's links, newline-separated
	baseline bool                  // a hub's first check: its links are recorded, not taken
	kind     monitoring.SourceKind // what the source turned out to be ("" for a hub)
}

// checkSource fetches one source conditionally, records what it lists and
// reschedules it. Fetch and parse errors count in the report; store errors
// end the round.
func (m *Monitor) checkSource(ctx context.Context, r int, s source, rep *Report) error {
	resp, err := m.get(ctx, s.URL, s.ETag, s.LastModified, readSource)
	c, err := m.answer(ctx, s, resp, err, rep)
	if m.seeds[s.URL] && s.Checks == 0 {
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
	found, err := m.takeChecked(ctx, r, &s, c, resp)
	if err != nil {
		return err
	}
	s.Interval = m.nextInterval(ctx, s, found)
	s.Next = r + s.Interval
	return m.repo.SourceChecked(ctx, s, found)
}

// answer reads a source's answer: nil when it has not changed (or the
// site has no robots.txt, an empty check), an error for an error status.
func (m *Monitor) answer(ctx context.Context, s source, resp *response, err error, rep *Report) (*checked, error) {
	switch {
	case err != nil:
		return nil, err
	case resp.status == http.StatusNotModified:
		rep.NotModified++
		return nil, nil
	case s.Kind == monitoring.SourceRobots && (resp.status == http.StatusNotFound || resp.status == http.StatusGone):
		// A site without robots.txt: nothing to read, nothing wrong.
		return &checked{}, nil
	case resp.status != http.StatusOK:
		return nil, fmt.Errorf("source %s: HTTP %d", s.URL, resp.status)
	}
	return m.parseSource(ctx, s, resp)
}

// takeChecked records what a check found (c nil: nothing changed) and
// keeps in s the source's new validators, links and kind; it returns how
// many URLs the check was the first to list.
func (m *Monitor) takeChecked(ctx context.Context, r int, s *source, c *checked, resp *response) (int, error) {
	if c == nil {
		return 0, nil
	}
	found, err := m.record(ctx, r, *s, c)
	if err != nil {
		return 0, err
	}
	s.ETag, s.LastModified = resp.etag, resp.lastModified
	if c.links != "" || c.baseline {
		s.Links = c.links
	}
	if c.kind != "" {
		// robots.txt names an index as a sitemap; a seed may be any
		// listing.
		s.Kind = c.kind
	}
	return found, nil
}

// seedNote says why a seed's first check yields nothing, "" when it
// yields URLs or sources.
func seedNote(s source, c *checked, err error) string {
	switch {
	case err != nil:
		return fmt.Sprintf("site %s: %v", s.URL, err)
	case c == nil || len(c.entries) > 0 || len(c.sources) > 0:
		return ""
	case c.kind != "":
		return fmt.Sprintf("site %s: the %s lists no URL", s.URL, c.kind)
	case c.links == "":
		return fmt.Sprintf("site %s: an HTML page with no link, no feed announced and no sitemap in robots.txt", s.URL)
	case c.baseline:
		return ""
	}
	return fmt.Sprintf("site %s: an HTML page linking none of its site's pages, no feed announced and no sitemap in robots.txt", s.URL)
}

func (m *Monitor) sourceFailed(ctx context.Context, r int, s source, cause error) error {
	s.Interval = m.nextInterval(ctx, s, 0)
	s.Next = r + s.Interval
	return m.repo.SourceFailed(ctx, s, cause)
}

// nextInterval adapts a source's interval: halved when its check found
// new URLs, doubled when not (a first check, which may come after other
// sources listed the same URLs, keeps it); structural sources (robots.txt, hubs,
// sitemap indexes, hubs of a site with a feed or sitemap) wait at least
// half the maximum once checked.
func (m *Monitor) nextInterval(ctx context.Context, s source, found int) int {
	iv := max(1, s.Interval)
	if found > 0 || s.Checks == 0 {
		iv = max(1, iv/2)
	} else {
		iv = min(m.cfg.MaxInterval, iv*2)
	}
	if m.structural(ctx, s) {
		iv = max(iv, m.cfg.MaxInterval/2)
	}
	return iv
}

// structural reports whether a source changes rarely: robots.txt, a
// sitemap index, the hub of a site that has a feed or a sitemap.
func (m *Monitor) structural(ctx context.Context, s source) bool {
	switch s.Kind {
	case monitoring.SourceRobots, monitoring.SourceSitemapIndex:
		return true
	case monitoring.SourceHub:
		return m.hasListings(ctx, s.Site)
	}
	return false
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
// sources (robots.txt, checked before hubs, adds its sitemaps). A store
// error reads as none: the schedule is a guess, and the round's next
// write reports the store's trouble.
func (m *Monitor) hasListings(ctx context.Context, site string) bool {
	ok, err := m.repo.HasListings(ctx, site)
	return err == nil && ok
}

// parseSource reads a fetched source according to its kind.
func (m *Monitor) parseSource(ctx context.Context, s source, resp *response) (*checked, error) {
	switch {
	case s.Kind == monitoring.SourceRobots:
		c := &checked{}
		for _, u := range feeds.RobotsSitemaps(s.URL, resp.body) {
			c.sources = append(c.sources, source{URL: u, Kind: monitoring.SourceSitemap, Site: s.Site})
		}
		return c, nil
	case s.Kind == monitoring.SourceHub && isHTML(resp):
		return m.hubChecked(ctx, s, resp), nil
	}
	doc, err := feeds.Parse(s.URL, resp.body)
	if err != nil && s.Kind == monitoring.SourceHub {
		// A seed may be a feed, a sitemap or a sitemap index: its kind is
		// what its body says.
		return nil, fmt.Errorf("source %s (content type %q) is no HTML page, feed or sitemap: %w", s.URL, resp.contentType, err)
	}
	if err != nil {
		return nil, err
	}
	return listingOf(s, doc), nil
}

// hubChecked is what a hub page lists: the feeds it announces, and the
// links that appeared since its last check (on its first, none: they are
// its baseline, unless the site has no other listing).
func (m *Monitor) hubChecked(ctx context.Context, s source, resp *response) *checked {
	c := &checked{links: hubLinks(resp.finalURL, resp.body), baseline: s.Checks == 0, via: viaHub}
	for _, u := range feeds.Discover(resp.finalURL, resp.body) {
		c.sources = append(c.sources, source{URL: u, Kind: monitoring.SourceFeed, Site: s.Site})
	}
	if c.baseline && len(c.sources) == 0 && !m.hasListings(ctx, s.Site) {
		// A site without feed or sitemap: its hubs are its only listing,
		// so the first check takes their links too.
		c.baseline = false
	}
	if !c.baseline {
		c.entries = newLinks(s, c.links)
	}
	return c
}

// newLinks are the links of a hub's page, newline-separated, that it did
// not have at its last check and that may be its site's articles.
func newLinks(s source, links string) []feeds.Entry {
	old := map[string]bool{}
	for _, l := range strings.Split(s.Links, "\n") {
		old[l] = true
	}
	var out []feeds.Entry
	for _, l := range strings.Split(links, "\n") {
		if l == "" || old[l] || site(l) != s.Site {
			continue
		}
		if lu, err := url.Parse(l); err == nil && !hubURL(lu) {
			out = append(out, feeds.Entry{URL: l})
		}
	}
	return out
}

// listingOf is what a feed or sitemap lists: its entries, and the child
// sitemaps of an index.
func listingOf(s source, doc *feeds.Document) *checked {
	c := &checked{entries: doc.Entries, via: viaSitemap, kind: monitoring.SourceSitemap}
	switch {
	case doc.Kind == feeds.KindFeed:
		c.via, c.kind = viaNews, monitoring.SourceFeed
	case doc.Format == "news-sitemap":
		c.via = viaNews
	case doc.Kind == feeds.KindSitemapIndex:
		c.kind = monitoring.SourceSitemapIndex
	}
	for _, u := range doc.Sitemaps {
		c.sources = append(c.sources, source{URL: u, Kind: monitoring.SourceSitemap, Site: s.Site})
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
		d.Interval, d.Next = 1, r
		if _, err := m.repo.AddSource(ctx, d, maxSourcesPerSite); err != nil {
			return 0, err
		}
	}
	found := 0
	for i, e := range c.entries {
		isNew, err := m.recordEntry(ctx, r, s, c.via, e, int64(i))
		if err != nil {
			return 0, err
		}
		if isNew {
			found++
		}
	}
	return found, nil
}

// recordEntry records one URL a source listed, pending when new; it
// reports whether it was.
func (m *Monitor) recordEntry(ctx context.Context, r int, s source, v via, e feeds.Entry, i int64) (bool, error) {
	u, err := canonical(nil, e.URL)
	if err != nil {
		return false, nil
	}
	if v == viaNews {
		m.learnShape(site(u), u)
	}
	if !e.Published.IsZero() && m.zones[site(u)] == nil {
		m.zones[site(u)] = e.Published.Location()
	}
	h := hint{Via: v, Source: s.URL, Title: e.Title, Published: e.Published, Modified: e.Modified, Authors: e.Authors, Lang: e.Language}
	isNew, err := m.addURL(ctx, r, u, h, i)
	switch {
	case err != nil:
		return false, err
	case isNew:
		m.roundNew[u] = true
		return true, nil
	case m.roundNew[u]:
		return false, m.mergeHint(ctx, u, h)
	case m.cfg.Updates && !e.Modified.IsZero():
		return false, m.repo.MarkModified(ctx, r, u, e.Modified)
	}
	return false, nil
}

// mergeHint completes the hint of a URL still pending with what another
// source says of it (a feed's title and publication date, a sitemap's
// lastmod), a news source's word on its kind first.
func (m *Monitor) mergeHint(ctx context.Context, u string, h hint) error {
	hj, ok, err := m.repo.PendingHint(ctx, u)
	if err != nil || !ok {
		return err
	}
	var old hint
	_ = json.Unmarshal([]byte(hj), &old) // written by addURL
	b, _ := json.Marshal(old.merge(h))
	if string(b) == hj {
		return nil
	}
	return m.repo.SetHint(ctx, u, string(b))
}

// merge fills h's missing fields from o; "news" wins over other ways.
func (h hint) merge(o hint) hint {
	if o.Via == viaNews && h.Via != viaNews {
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

// loadRoundNew reads the URLs first listed in the round (a resumed
// round's first run listed some).
func (m *Monitor) loadRoundNew(ctx context.Context, rep *Report) error {
	m.roundNew = map[string]bool{}
	if m.zones == nil {
		m.zones = map[string]*time.Location{}
	}
	urls, err := m.repo.RoundURLs(ctx, rep.Round)
	for _, u := range urls {
		m.roundNew[u] = true
	}
	return err
}

// addURL records a listed URL as pending unless known.
func (m *Monitor) addURL(ctx context.Context, r int, u string, h hint, i int64) (bool, error) {
	hj, _ := json.Marshal(h)
	listed := h.Modified
	if listed.IsZero() {
		listed = h.Published
	}
	return m.repo.AddURL(ctx, monitoring.Listed{URL: u, Site: site(u), Round: r, Seq: time.Now().UnixNano() + i, Hint: string(hj), Modified: listed})
}

// finishRound fills the report's counts from the store (so that a resumed
// round counts what its first run did) and closes the round.
func (m *Monitor) finishRound(ctx context.Context, rep *Report) error {
	c, err := m.repo.Counts(ctx, rep.Round)
	if err != nil {
		return err
	}
	rep.New, rep.Templated, rep.HubTemplate, rep.Updated = c.New, c.Templated, c.HubTemplate, c.Updated
	rep.Duplicates, rep.Hubs, rep.OffFocus = c.Duplicates, c.Hubs, c.OffFocus
	if rep.Documents, err = m.Documents(ctx, Selection{Round: rep.Round}); err != nil {
		return err
	}
	return m.repo.FinishRound(ctx, rep.Round, m.cfg.Now(), monitoring.RoundWork{Requests: rep.Requests, Errors: rep.Errors, Sources: rep.Sources})
}

// NextRound returns the number the next call of Round will run under.
func (m *Monitor) NextRound(ctx context.Context) (int, error) {
	r, finished, err := m.repo.LastRound(ctx)
	if err != nil {
		return 0, err
	}
	if finished || r == 0 {
		return r + 1, nil
	}
	return r, nil
}
