package crawler

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/chain/langid"
	"github.com/gleaner/gleaner/crawlcorpus"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
)

// quick is a fast crawl of the shared fixture web: plain HTTP, no template
// learning, a 1 ms per-host delay.
func quick(t *testing.T, name string, edit func(*Config)) (*store.DB, Summary, Config) {
	t.Helper()
	w := fixtureWeb(t)
	db := tempDB(t)
	cfg := fixtureConfig(w, name)
	cfg.Delay, cfg.LearnAt, cfg.MaxPages = time.Millisecond, -1, 40
	if edit != nil {
		edit(&cfg)
	}
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return db, sum, cfg
}

func outcomeDetails(t *testing.T, db *store.DB, name string, outcome Outcome) []string {
	t.Helper()
	rows, err := db.SQL().Query(db.Rebind(`SELECT url || ' ' || detail FROM crawl_frontier WHERE crawl = ? AND outcome = ?`), name, outcome)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

func TestStopCriteria(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Config)
		check func(t *testing.T, db *store.DB, s Summary)
	}{
		{"max-pages", func(c *Config) { c.MaxPages = 25 }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Stop != StopMaxPages || s.Counters.Tried != 25 {
				t.Errorf("stop %s after %d tried, want max-pages after 25", s.Stop, s.Counters.Tried)
			}
		}},
		{"max-docs", func(c *Config) { c.MaxPages, c.MaxDocs, c.Workers = 0, 5, 1 }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Stop != StopMaxDocs || s.Counters.Validated != 5 {
				t.Errorf("stop %s with %d validated, want max-docs with 5", s.Stop, s.Counters.Validated)
			}
		}},
		{"max-tokens", func(c *Config) { c.MaxPages, c.MaxTokens, c.Workers = 0, 2000, 1 }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Stop != StopMaxTokens || s.Counters.Tokens < 2000 || s.Counters.Tokens > 4000 {
				t.Errorf("stop %s with %d tokens, want max-tokens just past 2000", s.Stop, s.Counters.Tokens)
			}
		}},
		{"max-duration", func(c *Config) { c.MaxPages, c.MaxDuration, c.Delay = 0, 700*time.Millisecond, 50*time.Millisecond }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Stop != StopMaxDuration || s.Elapsed > 6*time.Second {
				t.Errorf("stop %s after %v, want max-duration soon after 700ms", s.Stop, s.Elapsed)
			}
		}},
		{"max-depth", func(c *Config) { c.MaxPages, c.MaxDepth, c.Threshold = 0, 1, 1000 }, func(t *testing.T, db *store.DB, s Summary) {
			// Nothing is relevant at this threshold: the seeds (depth 0)
			// are followed, their links (depth 1) are not.
			var maxDepth, n int
			db.SQL().QueryRow(db.Rebind(`SELECT MAX(depth), COUNT(*) FROM crawl_frontier WHERE crawl = ?`), s.Name).Scan(&maxDepth, &n)
			if s.Stop != StopExhausted || maxDepth != 1 || s.Counters.Tried > n {
				t.Errorf("stop %s, max depth %d over %d URLs, want frontier exhausted at depth 1", s.Stop, maxDepth, n)
			}
			if s.Counters.Tried < 10 {
				t.Errorf("only %d pages tried: the depth-1 pages were not fetched", s.Counters.Tried)
			}
		}},
		{"exhausted-relevant", func(c *Config) { c.MaxPages, c.ExhaustRelevant, c.Threshold = 0, true, 1000 }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Stop != StopRelevantExhausted || s.Counters.Queued == 0 || s.Counters.Tried > 4+s.Counters.Outcomes[OutcomeAlias] {
				t.Errorf("stop %s after %d tried with %d queued, want relevant-frontier-exhausted after the 4 seeds", s.Stop, s.Counters.Tried, s.Counters.Queued)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db, sum, _ := quick(t, "stop-"+tt.name, tt.edit)
			tt.check(t, db, sum)
		})
	}
}

func TestFilters(t *testing.T) {
	w := fixtureWeb(t)
	tests := []struct {
		name  string
		edit  func(*Config)
		check func(t *testing.T, db *store.DB, s Summary)
	}{
		// A filtered page's links are not followed: only the seeds are tried.
		{"size", func(c *Config) { c.MinBytes = 1 << 22 }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Counters.Outcomes[OutcomeSize] != s.Counters.Tried || s.Counters.Tried < 4 {
				t.Errorf("too small: %s", s.Counters)
			}
		}},
		{"max-size", func(c *Config) { c.MaxBytes = 2000 }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Counters.Outcomes[OutcomeSize] < 3 || s.Counters.Validated != 0 {
				t.Errorf("too large: %s", s.Counters)
			}
		}},
		{"min-tokens", func(c *Config) { c.MinTokens = 1 << 20 }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Counters.Outcomes[OutcomeSize] == 0 || s.Counters.Validated != 0 {
				t.Errorf("too few words: %s", s.Counters)
			}
		}},
		{"mime", func(c *Config) { c.MIMETypes = []string{"text/plain"} }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Counters.Outcomes[OutcomeMIME] != s.Counters.Tried || s.Counters.Tried < 4 {
				t.Errorf("mime: %s", s.Counters)
			}
		}},
		{"language", func(c *Config) { c.Languages = []string{"de"}; c.MaxPages = 60 }, func(t *testing.T, db *store.DB, s Summary) {
			if s.Counters.Outcomes[OutcomeLanguage] == 0 || s.Counters.Validated == 0 {
				t.Fatalf("language: %s", s.Counters)
			}
			id, _ := langid.New(nil)
			docs, err := crawlcorpus.Corpus(context.Background(), db, s.Name)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range docs {
				if l, _ := id.Detect(d.Text); l != "de" {
					t.Errorf("kept %s in %s", d.URL, l)
				}
			}
		}},
		{"include", func(c *Config) { c.Include = []string{regexp.QuoteMeta(w.Sites[0].Base) + "/"} }, func(t *testing.T, db *store.DB, s Summary) {
			fetched, _ := Fetched(context.Background(), db, s.Name)
			for _, f := range fetched {
				if !strings.HasPrefix(f.URL, w.Sites[0].Base) && !isSeed(w, f.URL) {
					t.Errorf("fetched %s outside the include pattern", f.URL)
				}
			}
		}},
		{"exclude", func(c *Config) { c.Exclude = []string{`/(sport|rubrique/sport|section/sport)`} }, func(t *testing.T, db *store.DB, s Summary) {
			fetched, _ := Fetched(context.Background(), db, s.Name)
			for _, f := range fetched {
				if regexp.MustCompile(`/(sport|rubrique/sport|section/sport)`).MatchString(f.URL) {
					t.Errorf("fetched excluded %s", f.URL)
				}
			}
		}},
		{"formula", func(c *Config) {
			c.Terms, c.Formula = nil, "(wind | solar | grid | éolien | solaire | windkraft) & ^football"
		}, func(t *testing.T, db *store.DB, s Summary) {
			f, _ := relevance.ParseFormula("(wind | solar | grid | éolien | solaire | windkraft) & ^football")
			docs, err := crawlcorpus.Corpus(context.Background(), db, s.Name)
			if err != nil || len(docs) == 0 {
				t.Fatalf("%d documents kept, %v: %s", len(docs), err, s.Counters)
			}
			for _, d := range docs {
				if !f.Match(d.Title + "\n\n" + d.Text) {
					t.Errorf("kept %s, which does not satisfy the formula", d.URL)
				}
			}
		}},
		{"host-cap", func(c *Config) { c.HostPageCap, c.MaxPages = 25, 0 }, func(t *testing.T, db *store.DB, s Summary) {
			rows, err := db.SQL().Query(db.Rebind(`SELECT host, COUNT(*) FROM crawl_frontier WHERE crawl = ? AND outcome != 'alias' GROUP BY host`), s.Name)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			hosts := 0
			for rows.Next() {
				var h string
				var n int
				rows.Scan(&h, &n)
				hosts++
				if n > 25 {
					t.Errorf("%s: %d URLs, cap 25", h, n)
				}
			}
			if hosts < 4 || s.Stop != StopExhausted {
				t.Errorf("%d hosts, stop %s", hosts, s.Stop)
			}
		}},
		{"near-duplicates", func(c *Config) { c.Strategy, c.MaxPages = "shark", 80 }, func(t *testing.T, db *store.DB, s Summary) {
			if d := outcomeDetails(t, db, s.Name, OutcomeDuplicate); len(d) == 0 {
				t.Errorf("no near-duplicate found: %s", s.Counters)
			}
		}},
		{"near-duplicates-off", func(c *Config) { c.Strategy, c.MaxPages, c.NearDuplicateBits = "shark", 80, -1 }, func(t *testing.T, db *store.DB, s Summary) {
			for _, d := range outcomeDetails(t, db, s.Name, OutcomeDuplicate) {
				if strings.Contains(d, "near-duplicate") {
					t.Errorf("near-duplicate filter off, yet %s", d)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db, sum, _ := quick(t, "filter-"+tt.name, tt.edit)
			tt.check(t, db, sum)
		})
	}
}

func isSeed(w *fixtures.Server, u string) bool {
	for _, s := range w.Sites {
		if u == s.Base+"/" {
			return true
		}
	}
	return false
}

// TestCrawlPoliteness crawls a fixture web of its own (a clean request log) and
// checks, per site, that no two requests overlap and that each starts at
// least the delay (or the site's Crawl-delay) after the previous one ended.
// The hops of one redirect chain are one fetch.
func TestCrawlPoliteness(t *testing.T) {
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 3, Slow: -1, CrawlDelay: 150 * time.Millisecond})
	db := tempDB(t)
	cfg := fixtureConfig(srv, "polite")
	const delay = 40 * time.Millisecond
	cfg.Delay, cfg.Workers, cfg.LearnAt, cfg.MaxPages = delay, 4, -1, 50
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	hits := srv.Hits()
	bySite := map[string][]fixtures.Hit{}
	for _, h := range hits {
		bySite[h.Site] = append(bySite[h.Site], h)
	}
	withDelay := map[string]bool{}
	for _, s := range srv.Sites {
		body, _, _, _ := srv.Served(s.Name, "/robots.txt")
		withDelay[s.Name] = strings.Contains(string(body), "Crawl-delay")
	}
	checked := 0
	for site, hs := range bySite {
		sort.Slice(hs, func(i, j int) bool { return hs[i].Start.Before(hs[j].Start) })
		want := delay
		if withDelay[site] {
			want = 150 * time.Millisecond
		}
		for i := 1; i < len(hs); i++ {
			if politeGap(t, site, hs[i-1], hs[i], want, cfg.Timeout) {
				checked++
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d consecutive fetches checked", checked)
	}
}

// politeGap checks that cur, the next request to site after prev, did not
// start while prev was going on, nor (after a completed response that is
// not a redirect hop: checked) less than want after it ended. The server
// logs a response's end when its handler returns, which can be a little
// after the client has read the last byte and started its wait (149.2 ms
// of 150 seen on a loaded machine). A response the client dropped (its
// timeout, a never-ending stream) ended for the client before the server
// saw it go, later by the server's reaction time, tens of milliseconds on
// a loaded machine: there the delay cannot be told from that reaction, and
// what is checked is that cur was not sent during the exchange, which
// lasted up to the crawl's timeout, so started up to that long before its
// end: a quarter of it is the reaction allowed.
func politeGap(t *testing.T, site string, prev, cur fixtures.Hit, want, timeout time.Duration) (checked bool) {
	t.Helper()
	gap := cur.Start.Sub(prev.End)
	if prev.Dropped {
		if gap < -timeout/4 {
			t.Errorf("%s: %s started %v before %s (dropped by the client) ended", site, cur.Path, -gap, prev.Path)
		}
		return false
	}
	if gap < 0 {
		t.Errorf("%s: %s started %v before %s ended", site, cur.Path, -gap, prev.Path)
	}
	if prev.Status >= 300 && prev.Status < 400 {
		return false
	}
	if gap < want-5*time.Millisecond {
		t.Errorf("%s: %s only %v after %s (want >= %v)", site, cur.Path, gap, prev.Path, want)
	}
	return true
}

// TestCrawlRobots checks that no URL the fixtures' robots.txt disallows is ever
// requested, that such URLs are counted, and that meta robots noindex pages
// are not kept.
func TestCrawlRobots(t *testing.T) {
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 4, Slow: -1, CrawlDelay: -1})
	db := tempDB(t)
	cfg := fixtureConfig(srv, "robots")
	cfg.Delay, cfg.LearnAt, cfg.MaxPages, cfg.Strategy = time.Millisecond, -1, 150, "bfs"
	// The herald's noindex, nofollow page, which alone links to /about/staff.
	herald := siteBase(srv, "herald")
	cfg.Seeds = append(cfg.Seeds, herald+"/about/terms")
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]string{}
	for _, s := range srv.Sites {
		base[s.Name] = s.Base
	}
	for _, h := range srv.Hits() {
		if h.Path == "/robots.txt" {
			continue
		}
		info, err := srv.Classify(base[h.Site] + h.Path)
		if err == nil && info.Disallowed {
			t.Errorf("fetched disallowed %s%s", h.Site, h.Path)
		}
	}
	robots := outcomeDetails(t, db, cfg.Name, OutcomeRobots)
	if len(robots) == 0 {
		t.Errorf("no URL refused by robots.txt: %s", sum.Counters)
	}
	for _, r := range robots {
		u := strings.Fields(r)[0]
		if info, err := srv.Classify(u); err == nil && !info.Disallowed {
			t.Errorf("%s refused though allowed", r)
		}
	}
	// The noindex, nofollow page: not kept, and its links not followed.
	noindex := outcomeDetails(t, db, cfg.Name, OutcomeNoIndex)
	if len(noindex) == 0 {
		t.Errorf("no noindex page met: %s", sum.Counters)
	}
	for _, h := range srv.Hits() {
		if h.Site == "herald" && h.Path == "/about/staff" {
			t.Error("followed a link of the nofollow page")
		}
		if h.Site == "quotidien" && h.Path == "/partenaires/annonce.html" {
			t.Error(`followed a rel="nofollow" link`)
		}
	}
	for _, d := range noindex {
		var n int
		db.SQL().QueryRow(db.Rebind(`SELECT COUNT(*) FROM crawl_edges WHERE crawl = ? AND source = ? AND kind = 'link'`), cfg.Name, strings.Fields(d)[0]).Scan(&n)
		if n > 0 {
			t.Errorf("%d links followed from nofollow page %s", n, d)
		}
	}
	for _, d := range noindex {
		if docs, _ := crawlcorpus.Corpus(context.Background(), db, cfg.Name); len(docs) > 0 {
			for _, doc := range docs {
				if doc.URL == strings.Fields(d)[0] {
					t.Errorf("noindex page %s kept", doc.URL)
				}
			}
		}
	}
}

// TestTargetGuardCrawl checks the SSRF guard: without allowed hosts the fixture
// sites (loopback) are refused unrequested; a redirect from an allowed host
// to a loopback one not allowed is refused at dial time; non-http seeds are
// refused.
func TestTargetGuardCrawl(t *testing.T) {
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 5, Slow: -1, CrawlDelay: -1})
	db := tempDB(t)
	cfg := fixtureConfig(srv, "ssrf")
	cfg.AllowHosts = nil
	cfg.LearnAt = -1
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Hits()); n != 0 || sum.Counters.Outcomes[OutcomeForbidden] != 4 || sum.Counters.Tried != 0 {
		t.Errorf("%d requests reached loopback, counters %s", n, sum.Counters)
	}

	// An allowed server redirecting to a loopback port that is not.
	inner := 0
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { inner++ }))
	defer target.Close()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, target.URL+"/secret", http.StatusFound)
	}))
	defer front.Close()
	fu, _ := url.Parse(front.URL)
	c, err = New(db, Config{Name: "ssrf-redirect", Seeds: []string{front.URL + "/"}, Terms: []string{"x"}, AllowHosts: []string{fu.Host}, Delay: -1, LearnAt: -1})
	if err != nil {
		t.Fatal(err)
	}
	sum, err = c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if inner != 0 || sum.Counters.Outcomes[OutcomeForbidden] != 1 {
		t.Errorf("redirect to a forbidden target: %d requests reached it, %s", inner, sum.Counters)
	}
	if d := outcomeDetails(t, db, "ssrf-redirect", OutcomeForbidden); len(d) != 1 || !strings.Contains(d[0], fetchpolicy.ErrForbiddenTarget.Error()) {
		t.Errorf("detail %q does not name the guard", d)
	}

	// An unguarded fetcher of the caller's (a browser follows redirects
	// itself): the redirect is seen after the fact and nothing is kept.
	c, err = New(db, Config{Name: "ssrf-browser", Seeds: []string{front.URL + "/"}, Terms: []string{"x"}, AllowHosts: []string{fu.Host},
		Delay: -1, LearnAt: -1, Fetcher: &browser.HTTPFetcher{Unguarded: true}})
	if err != nil {
		t.Fatal(err)
	}
	sum, err = c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if pages, _ := db.Pages(context.Background(), store.PageQuery{Dataset: Dataset("ssrf-browser")}); sum.Counters.Outcomes[OutcomeForbidden] != 1 || len(pages) != 0 {
		t.Errorf("redirect to a forbidden target through a browser: %s, %d pages stored", sum.Counters, len(pages))
	}

	c, err = New(db, Config{Name: "ssrf-scheme", Seeds: []string{"file:///etc/passwd"}, Terms: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "not http") {
		t.Errorf("file: seed: err = %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	db := tempDB(t)
	for _, cfg := range []Config{
		{Name: "", Terms: []string{"a"}},
		{Name: "a b", Terms: []string{"a"}},
		{Name: "x"},
		{Name: "x", Terms: []string{"a"}, Strategy: "dfs"},
		{Name: "x", Terms: []string{"a"}, Formula: "(a &"},
		{Name: "x", Terms: []string{"a"}, Include: []string{"("}},
		{Name: "x", Terms: []string{"a"}, MaxPages: -1},
		{Name: "x", Terms: []string{"a"}, Languages: []string{"xx-not-a-language"}},
	} {
		if _, err := New(db, cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
	if _, err := LoadConfig("testdata/crawl.yaml"); err != nil {
		t.Errorf("example config: %v", err)
	}
	if _, err := LoadConfig("testdata/bad.yaml"); err == nil || !strings.Contains(err.Error(), "max_pagez") {
		t.Errorf("misspelt key: err = %v", err)
	}
}

// TestLoadConfigRecords: a configuration file records unless it says
// "record: false", as the command line does; media and secrets by option.
func TestLoadConfigRecords(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want browser.RecordOptions
	}{
		{"name: r\n", browser.RecordOptions{On: true}},
		{"name: r\nrecord: false\nrecord_media: true\n", browser.RecordOptions{}},
		{"name: r\nrecord_media: true\nrecord_secrets: true\n", browser.RecordOptions{On: true, Media: true, Secrets: true}},
	} {
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(path)
		if err != nil || cfg.RecordOptions() != tc.want {
			t.Errorf("%q: %+v (%v), want %+v", tc.yaml, cfg.RecordOptions(), err, tc.want)
		}
	}
}

func TestPauseResume(t *testing.T) {
	w := fixtureWeb(t)
	db := tempDB(t)
	ctx := context.Background()
	if err := Pause(ctx, db, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("pause of an unknown crawl: %v", err)
	}
	cfg := fixtureConfig(w, "pause")
	cfg.Delay, cfg.LearnAt, cfg.MaxPages, cfg.Workers = 50*time.Millisecond, -1, 40, 2
	paused := false
	cfg.Progress = func(p Progress) {
		if !paused && p.Counters.Tried >= 5 {
			paused = true
			if err := Pause(ctx, db, "pause"); err != nil {
				t.Error(err)
			}
		}
	}
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stop != StopPaused || sum.Counters.Tried >= 40 || sum.Counters.Leased != 0 {
		t.Fatalf("first run: stop %s, %s, %d leased", sum.Stop, sum.Counters, sum.Counters.Leased)
	}
	if err := Resume(ctx, db, "pause"); err != nil {
		t.Fatal(err)
	}
	cfg.Progress = nil
	c, _ = New(db, cfg)
	sum, err = c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stop != StopMaxPages || sum.Counters.Tried != 40 {
		t.Errorf("resumed run: stop %s, %s", sum.Stop, sum.Counters)
	}
}

// TestOPICWeightedSplit checks that a page's cash goes to its links in
// proportion to their weights, and is conserved.
func TestOPICWeightedSplit(t *testing.T) {
	links := []LinkSims{{Anchor: 0.9}, {Context: 0.4}, {}}
	parent := FetchedPage{Priority: Priority{Score: 1}, Sim: 1, Relevant: true, Links: len(links)}
	for _, l := range links {
		parent.LinkWeights += l.Weight()
	}
	var total float64
	var got []float64
	for _, l := range links {
		p := OPIC.Child(parent, l)
		got = append(got, p.Score)
		total += p.Score
	}
	if !(got[0] > got[1] && got[1] > got[2] && got[2] > 0) {
		t.Errorf("shares %v not ordered by link relevance", got)
	}
	// Cash 1 plus relevance 1, scaled by relevance 1: 2 in all.
	if total < 1.999 || total > 2.001 {
		t.Errorf("distributed %v, want 2", total)
	}
}

// TestRetries checks that a server error is retried Retries times: a page
// failing twice then served is kept; one always failing ends as an HTTP
// error after 1+Retries requests.
func TestRetries(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		n := hits[r.URL.Path]
		mu.Unlock()
		switch {
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.URL.Path == "/flaky" && n > 2:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><title>Wind power</title></head><body><article><h1>Wind power</h1><p>The wind farm on the coast delivered its first power to the grid this week, the operator said.</p><p><a href="/down">more</a></p></article></body></html>`))
		default:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	db := tempDB(t)
	c, err := New(db, Config{Name: "retries", Seeds: []string{srv.URL + "/flaky"}, Terms: []string{"wind"}, AllowHosts: []string{u.Host}, Delay: -1, LearnAt: -1})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits["/flaky"] != 3 || hits["/down"] != 3 {
		t.Errorf("requests %v, want 3 of /flaky and 3 of /down", hits)
	}
	if sum.Counters.Validated != 1 || sum.Counters.Outcomes[OutcomeHTTPError] != 1 || sum.Counters.Tried != 2 {
		t.Errorf("counters %s", sum.Counters)
	}
}
