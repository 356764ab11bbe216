package dashboard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

// The tests share one fixture web and one store made by a short
// plain-HTTP fixture crawl (templates learned, pages extracted).
var (
	fixOnce sync.Once
	fixWeb  *fixtures.Server
	fixDB   *store.DB
	fixErr  error
)

const fixtureCrawl = "fixtures"

// fixtureStore returns the shared fixture web and store.
func fixtureStore(t testing.TB) (*fixtures.Server, *store.DB) {
	t.Helper()
	fixOnce.Do(func() {
		ctx := context.Background()
		fixWeb, fixErr = fixtures.Start(ctx, fixtures.Options{Seed: 1, Slow: -1, CrawlDelay: -1})
		if fixErr != nil {
			return
		}
		dir, err := makeTempDir()
		if err != nil {
			fixErr = err
			return
		}
		if fixDB, fixErr = store.Open(ctx, filepath.Join(dir, "dash.db")); fixErr != nil {
			return
		}
		cfg := fixtureConfig(fixWeb, fixtureCrawl)
		cfg.MaxPages, cfg.LearnAt = 40, 6
		var c *crawler.Crawler
		if c, fixErr = crawler.New(fixDB, cfg); fixErr == nil {
			_, fixErr = c.Run(ctx)
		}
	})
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return fixWeb, fixDB
}

// ownFixtureWeb starts a small fixture web for one test, so that the
// shared one's sites and templates stay as the fixture crawl left them.
func ownFixtureWeb(t testing.TB, seed int64) *fixtures.Server {
	t.Helper()
	web, err := fixtures.Start(context.Background(), fixtures.Options{Seed: seed, Slow: -1, CrawlDelay: -1, Articles: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { web.Close() })
	return web
}

// fixtureConfig is a fast plain crawl of the fixture web on its on-topic
// theme: its front pages as seeds, its hosts allowed.
func fixtureConfig(w *fixtures.Server, name string) crawler.Config {
	cfg := crawler.Config{Name: name, Delay: 2 * time.Millisecond, Workers: 4, Timeout: 2 * time.Second}
	for _, l := range []fixtures.Lang{fixtures.English, fixtures.French, fixtures.German} {
		cfg.Terms = append(cfg.Terms, fixtures.TopicKeywords(fixtures.OnTopic, l)...)
	}
	for _, s := range w.Sites {
		cfg.Seeds = append(cfg.Seeds, s.Base+"/")
		u, _ := url.Parse(s.Base)
		cfg.AllowHosts = append(cfg.AllowHosts, u.Host)
	}
	return cfg
}

// startDashboard serves a dashboard of db on 127.0.0.1 for one test.
func startDashboard(t testing.TB, db *store.DB, opt Options) (*Server, *httptest.Server) {
	t.Helper()
	opt.Logf = t.Logf
	s, err := New(db, opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	return s, ts
}

// postForm posts form to the dashboard with the server's CSRF token
// unless the form sets one; it does not follow redirects.
func postForm(t testing.TB, s *Server, ts *httptest.Server, path string, form url.Values) *http.Response {
	t.Helper()
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", s.csrf)
	}
	req, err := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return do(t, req)
}

// do sends req without following redirects and reads nothing.
func do(t testing.TB, req *http.Request) *http.Response {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 60 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}
