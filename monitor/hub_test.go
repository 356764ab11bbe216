package monitor

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// hubSite is a news site without feed or sitemap: a home page listing its
// articles, newest first, and a section page; round n shows 2n+1 articles.
type hubSite struct {
	round atomic.Int64
	hits  atomic.Int64
}

func (h *hubSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.hits.Add(1)
	n := int(2*h.round.Load() + 1)
	switch p := r.URL.Path; {
	case p == "/":
		fmt.Fprint(w, `<html><head><title>Hub News</title></head><body><nav><a href="/section/world/">World</a> <a href="/about/">About</a></nav><ul>`)
		for i := n - 1; i >= 0; i-- {
			fmt.Fprintf(w, `<li><a href="/news/story-number-%d.html?utm_source=home">Story %d</a></li>`, i, i)
		}
		fmt.Fprint(w, `</ul></body></html>`)
	case strings.HasPrefix(p, "/news/story-number-"):
		var i int
		if _, err := fmt.Sscanf(p, "/news/story-number-%d.html", &i); err != nil || i >= n {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `<html><head><title>Story %d</title></head><body><article><h1>Story %d</h1><p class="byline">By Ann Smith, 3 hours ago</p>`, i, i)
		for k := 0; k < 6; k++ {
			fmt.Fprintf(w, "<p>Paragraph %d of story %d tells how the harbour authority of district %d %s.</p>", k, i, i*7+k,
				strings.Repeat(fmt.Sprintf("reviewed plan %d and its budget lines with the residents ", i*13+k), 4))
		}
		fmt.Fprint(w, `</article></body></html>`)
	case p == "/section/world/" || p == "/about/":
		fmt.Fprint(w, `<html><body><h1>Listing</h1><a href="/">Home</a></body></html>`)
	default:
		http.NotFound(w, r)
	}
}

// TestHubOnlySite watches a site whose only listing is its home page: the
// first round takes the home page's articles, later ones the links that
// appeared, each fetched once.
func TestHubOnlySite(t *testing.T) {
	site := &hubSite{}
	ts := httptest.NewServer(site)
	t.Cleanup(ts.Close)
	ctx := context.Background()
	m := openLoopback(t, Config{Name: "hub", Sites: []string{ts.URL + "/"}}, ts.URL)
	tests := []struct {
		round, new, requests int
	}{
		// robots.txt twice (the rules, then as a source), home, the
		// article; the section and about links are hubs by their URL.
		{1, 1, 4},
		{2, 2, 3}, // home, two articles
		{3, 2, 3},
	}
	for _, tc := range tests {
		site.round.Store(int64(tc.round - 1))
		site.hits.Store(0)
		rep, err := m.Round(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if rep.New != tc.new || int(site.hits.Load()) != tc.requests || rep.Requests != tc.requests {
			t.Errorf("round %d: %d new, %d requests (%d counted), want %d and %d", tc.round, rep.New, site.hits.Load(), rep.Requests, tc.new, tc.requests)
		}
		for _, d := range rep.Documents {
			if !strings.Contains(d.URL, "/news/story-number-") || strings.Contains(d.URL, "utm_") || d.Published == "" || d.Lang != "en" {
				t.Errorf("round %d: document %+v", tc.round, d)
			}
		}
	}
}

// TestSourceBound: a sitemap index naming thousands of sitemaps adds at
// most maxSourcesPerSite sources.
func TestSourceBound(t *testing.T) {
	var hits atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nSitemap: /index.xml\n")
		case "/index.xml":
			fmt.Fprint(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := 0; i < 5000; i++ {
				fmt.Fprintf(w, "<sitemap><loc>/s%d.xml</loc></sitemap>", i)
			}
			fmt.Fprint(w, `</sitemapindex>`)
		default:
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`)
		}
	}))
	t.Cleanup(ts.Close)
	m := openLoopback(t, Config{Name: "bound", Sites: []string{ts.URL + "/"}}, ts.URL)
	rep, err := m.Round(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sources != maxSourcesPerSite || hits.Load() > maxSourcesPerSite+2 {
		t.Errorf("%d sources checked, %d requests; want %d sources", rep.Sources, hits.Load(), maxSourcesPerSite)
	}
}
