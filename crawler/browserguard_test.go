package crawler

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
)

// TestBrowserRequestsGuarded crawls an allowed loopback page with Chromium
// guarded by the crawl's guard (fetchpolicy.TargetGuard): the page's image, its fetch() and a
// seed that redirects to a loopback port not allowed must not reach that
// port; the redirected seed ends forbidden.
func TestBrowserRequestsGuarded(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages in Chromium")
	}
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("Chromium is needed (scripts/setup.sh installs it): %v", err)
	}
	var inner atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { inner.Add(1) }))
	defer target.Close()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Front</title></head><body><p>wind turbines</p>
<img src="%[1]s/pixel.png"><script>fetch('%[1]s/latest/meta-data/').catch(() => {});</script></body></html>`, target.URL)
		case "/away":
			http.Redirect(w, r, target.URL+"/secret", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer front.Close()
	fu, _ := url.Parse(front.URL)
	cfg := Config{Name: "ssrf-chromium", Seeds: []string{front.URL + "/", front.URL + "/away"}, Terms: []string{"wind"},
		AllowHosts: []string{fu.Host}, Delay: -1, LearnAt: -1}
	r, err := browser.NewFetcher(cfg.Guard(), true, browser.Options{Tabs: 1, PageTimeout: 20 * time.Second, NoBlock: true,
		Wait: browser.WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg.Fetcher = r
	c, err := New(tempDB(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := inner.Load(); n != 0 || sum.Counters.Outcomes[OutcomeForbidden] != 1 || sum.Counters.Tried != 1 {
		t.Errorf("%d requests reached the forbidden port; counters %s", n, sum.Counters)
	}
}
