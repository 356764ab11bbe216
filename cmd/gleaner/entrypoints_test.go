package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/dashboard"
	"github.com/gleaner/gleaner/store"
)

// forbiddenLog is a server on a loopback port that no entry point is
// allowed to reach; it logs every request it gets.
type forbiddenLog struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []string
}

func newForbiddenLog(t *testing.T) *forbiddenLog {
	f := &forbiddenLog{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.reqs = append(f.reqs, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><p>secret</p></body></html>")
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// take returns the requests logged since the last call and forgets them.
func (f *forbiddenLog) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.reqs
	f.reqs = nil
	return r
}

// siteLog counts what the hostile site served: its pages, and the
// scripts of its workers (a sign the page ran in a browser).
type siteLog struct{ pages, scripts atomic.Int64 }

func (l *siteLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, "/news/"):
			l.pages.Add(1)
		case r.URL.Path == "/worker.js":
			l.scripts.Add(1)
		}
		h.ServeHTTP(w, r)
	})
}

// hostileSite serves the browser package's hostile page
// (browser/testdata/hostile.html) as a site: its home, an article its home
// and its feed link to, the scripts of its workers, and redirects to the
// forbidden port. Every subrequest of the page aims at forbidden.
func hostileSite(t *testing.T, forbidden *forbiddenLog, served *siteLog) *httptest.Server {
	b, err := os.ReadFile("../../browser/testdata/hostile.html")
	if err != nil {
		t.Fatal(err)
	}
	target := forbidden.srv.URL
	page := fmt.Sprintf(string(b), target, "ws://"+strings.TrimPrefix(target, "http://"))
	script := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprintf(w, body, target)
		}
	}
	mux := http.NewServeMux()
	html := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}
	mux.HandleFunc("/{$}", html)
	mux.HandleFunc("/news/", html)
	mux.HandleFunc("/worker.js", script(`fetch('%s/worker').catch(() => {});`))
	mux.HandleFunc("/sw.js", script(`self.addEventListener('install', e => e.waitUntil(fetch('%s/service-worker').catch(() => {})));`))
	mux.Handle("/hop", http.RedirectHandler(target+"/framed", http.StatusFound))
	mux.Handle("/away", http.RedirectHandler(target+"/redirected", http.StatusFound))
	var site *httptest.Server
	mux.HandleFunc("/feed.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Hostile</title><link>%[1]s/</link>
<item><title>The wind farm vote</title><link>%[1]s/news/2026/11/26/wind-farm-vote.html</link><pubDate>Thu, 26 Nov 2026 08:00:00 GMT</pubDate></item>
<item><title>Away</title><link>%[1]s/away</link></item></channel></rss>`, site.URL)
	})
	mux.HandleFunc("/robots.txt", http.NotFound)
	site = httptest.NewServer(served.wrap(mux))
	t.Cleanup(site.Close)
	return site
}

// entryPoint is one way into Gleaner that fetches pages: it fetches from
// site, whose own host:port (allow) is the only address allowed on
// loopback.
type entryPoint struct {
	name string
	run  func(t *testing.T, site, allow, dir string)
	// rendered: the page must have run in a browser (its worker script
	// requested); else it must have been served (none: it is refused).
	rendered, served bool
}

// cli runs one gleaner command line, the site's URL and host:port replacing
// SITE and ALLOW; the command may fail (a refused page), never hang.
func cli(args ...string) func(t *testing.T, site, allow, dir string) {
	return func(t *testing.T, site, allow, dir string) {
		a := make([]string, len(args))
		for i, s := range args {
			s = strings.ReplaceAll(s, "SITE", site)
			s = strings.ReplaceAll(s, "ALLOW", allow)
			a[i] = strings.ReplaceAll(s, "DB", filepath.Join(dir, "g.db"))
		}
		code, out, errs := runGleaner(a...)
		t.Logf("gleaner %s: exit %d\n%s%s", strings.Join(a, " "), code, tail(out), tail(errs))
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// workerEntry runs `gleaner worker` on a crawl of the site created
// beforehand.
func workerEntry(t *testing.T, site, allow, dir string) {
	ctx := context.Background()
	db := filepath.Join(dir, "g.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	cfg := crawler.Config{Name: "w", Seeds: []string{site + "/", site + "/away"}, Terms: []string{"wind"}, MaxPages: 4,
		Delay: time.Millisecond, Timeout: 15 * time.Second, LearnAt: -1, AllowHosts: []string{allow}}
	err = crawler.Create(ctx, st, cfg)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	cli("worker", "--db", "DB", "--crawl", "w", "--tabs", "1")(t, site, allow, dir)
}

// dashboardEntry launches a render-mode crawl of the site from the
// dashboard's form and waits for it to end.
func dashboardEntry(t *testing.T, site, allow, dir string) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := dashboard.New(st, dashboard.Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Close()
	resp, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	var page strings.Builder
	_, err = io.Copy(&page, resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page.String())
	if m == nil {
		t.Fatal("no CSRF token in the crawls page")
	}
	form := url.Values{"csrf": {m[1]}, "name": {"dash"}, "seeds": {site + "/\n" + site + "/away"}, "terms": {"wind"}, "mode": {"render"},
		"tabs": {"1"}, "max_pages": {"4"}, "timeout": {"15s"}, "delay": {"1ms"}, "allow_hosts": {allow}}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = c.PostForm(ts.URL+"/crawls", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("launch: status %d", resp.StatusCode)
	}
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if n, err := crawler.Crawls(ctx, st); err == nil && len(n) > 0 {
			if row, err := crawler.CrawlCounters(ctx, st, "dash"); err == nil && row.Tried > 0 && row.Leased == 0 && row.Queued == 0 {
				break
			}
		}
	}
}

// TestEntryPointsGuarded lists every entry point that fetches pages (each
// command, rendered and plain, and the dashboard's launch of a rendered
// crawl) and runs each against a hostile page on loopback whose
// subrequests (WebSocket, workers, service worker, prefetch, speculation
// rules, window.open, a framed redirect, fetch, redirects of the page
// itself) all aim at a forbidden port: no request may reach it. The
// page's own host:port is allowed explicitly, and nothing else.
func TestEntryPointsGuarded(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages in Chromium")
	}
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("Chromium is needed (scripts/setup.sh installs it): %v", err)
	}
	forbidden := newForbiddenLog(t)
	var served siteLog
	site := hostileSite(t, forbidden, &served)
	allow := site.Listener.Addr().String()
	crawl := []string{"crawl", "--db", "DB", "--name", "c", "--terms", "wind", "--max-pages", "4", "--learn-at", "-1", "--quiet",
		"--delay", "1ms", "--allow-host", "ALLOW", "--tabs", "1", "SITE/", "SITE/away"}
	entries := []entryPoint{
		{"crawl", cli(crawl...), true, true},
		{"crawl --plain", cli(append(crawl, "--plain")...), false, true},
		{"worker", workerEntry, true, true},
		{"monitor", cli("monitor", "--db", "DB", "--rounds", "1", "--delay", "1ms", "--allow-hosts", "ALLOW", "SITE/", "SITE/away"), false, true},
		{"monitor --render", cli("monitor", "--db", "DB", "--rounds", "1", "--render", "--delay", "1ms", "--allow-hosts", "ALLOW", "SITE/"), true, true},
		{"render", cli("render", "--db", "DB", "--tabs", "1", "--allow-host", "ALLOW", "SITE/", "SITE/away"), true, true},
		{"render --plain", cli("render", "--plain", "--db", "DB", "--allow-host", "ALLOW", "SITE/", "SITE/away"), false, true},
		{"extract URL", cli("extract", "--allow-host", "ALLOW", "SITE/"), true, true},
		{"extract URL (redirect)", cli("extract", "--allow-host", "ALLOW", "SITE/away"), false, false},
		{"extract URL --plain", cli("extract", "--plain", "--allow-host", "ALLOW", "SITE/"), false, true},
		{"extract URL --plain (redirect)", cli("extract", "--plain", "--allow-host", "ALLOW", "SITE/away"), false, false},
		{"extract URL --plain (forbidden URL)", cli("extract", "--plain", forbidden.srv.URL+"/admin"), false, false},
		{"dashboard launch (render)", dashboardEntry, true, true},
	}
	for _, e := range entries {
		t.Run(e.name, func(t *testing.T) {
			pages, scripts := served.pages.Load(), served.scripts.Load()
			e.run(t, site.URL, allow, t.TempDir())
			if e.served && served.pages.Load() == pages {
				t.Errorf("the hostile page was never served: the entry point did not fetch it")
			}
			if e.rendered && served.scripts.Load() == scripts {
				t.Errorf("the hostile page's scripts did not run: the entry point did not render it")
			}
			// Late requests (a worker, a prefetch) still count.
			time.Sleep(500 * time.Millisecond)
			reqs := forbidden.take()
			t.Logf("entry point %-36s %d requests to the forbidden port", e.name, len(reqs))
			if len(reqs) > 0 {
				t.Errorf("%d requests reached the forbidden port: %q", len(reqs), reqs)
			}
		})
	}
}
