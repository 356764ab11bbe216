package monitor

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/store/monitoring"
)

// seedSite serves articles, listings of every kind, and error pages that
// look like articles.
func seedSite(t *testing.T) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	article := func(w http.ResponseWriter, status int, name string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, `<html><head><title>%s</title><meta property="og:type" content="article"></head><body><article><h1>%s</h1><p>%s</p></article></body></html>`,
			name, name, strings.Repeat(name+" story words here and there. ", 60))
	}
	urlset := func(paths ...string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range paths {
			fmt.Fprintf(&b, "<url><loc>%s%s</loc></url>", srv.URL, p)
		}
		return b.String() + "</urlset>"
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/news/", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.Contains(r.URL.Path, "gone"):
			article(w, http.StatusNotFound, "gone")
		case strings.Contains(r.URL.Path, "broken"):
			article(w, http.StatusInternalServerError, "broken")
		default:
			article(w, http.StatusOK, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/news/"), ".html"))
		}
	})
	xml := func(body func() string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprint(w, body())
		}
	}
	mux.HandleFunc("/sitemap.xml", xml(func() string {
		return urlset("/news/first-story-today.html", "/news/second-story-today.html", "/news/gone-story-today.html", "/news/broken-story-today.html")
	}))
	mux.HandleFunc("/index.xml", xml(func() string {
		return `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>` + srv.URL + `/sitemap.xml</loc></sitemap></sitemapindex>`
	}))
	mux.HandleFunc("/feed.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html") // misconfigured: the body says what it is
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><title>First</title><link>%s/news/first-story-today.html</link></item></channel></rss>`, srv.URL)
	})
	mux.HandleFunc("/empty.xml", xml(func() string { return urlset() }))
	mux.HandleFunc("/notes.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "hello, world")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/bare" {
			fmt.Fprint(w, `<html><body><p>No link here.</p></body></html>`)
			return
		}
		http.NotFound(w, r)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestSeeds: a site given as a sitemap, a sitemap index or a feed (served
// with a wrong content type) is watched as that; a seed that yields
// nothing says why; an article URL answering an HTTP error is an error,
// never a document.
func TestSeeds(t *testing.T) {
	srv := seedSite(t)
	for _, tc := range []struct {
		seed     string
		kind     monitoring.SourceKind // the seed's source kind after its check
		new      int
		errors   int
		wantNote string
	}{
		{"/sitemap.xml", monitoring.SourceSitemap, 2, 2, ""},
		{"/index.xml", monitoring.SourceSitemapIndex, 2, 2, ""},
		{"/feed.xml", monitoring.SourceFeed, 1, 0, ""},
		{"/empty.xml", monitoring.SourceSitemap, 0, 0, "the sitemap lists no URL"},
		{"/missing.xml", monitoring.SourceHub, 0, 1, "HTTP 404"},
		{"/notes.txt", monitoring.SourceHub, 0, 1, "is no HTML page, feed or sitemap"},
		{"/bare", monitoring.SourceHub, 0, 0, "an HTML page with no link"},
	} {
		t.Run(strings.TrimPrefix(tc.seed, "/"), func(t *testing.T) {
			ctx := context.Background()
			m := openLoopback(t, Config{Name: "seed", Sites: []string{srv.URL + tc.seed}}, srv.URL)
			rep, err := m.Round(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rep.New != tc.new || rep.Errors != tc.errors {
				t.Errorf("new %d, errors %d; want %d and %d", rep.New, rep.Errors, tc.new, tc.errors)
			}
			for _, d := range rep.Documents {
				if strings.Contains(d.URL, "gone") || strings.Contains(d.URL, "broken") {
					t.Errorf("error page stored as document %s", d.URL)
				}
			}
			note := strings.Join(rep.Notes, "\n")
			if (tc.wantNote == "") != (note == "") || !strings.Contains(note, tc.wantNote) || (note != "" && !strings.Contains(note, tc.seed)) {
				t.Errorf("notes %q, want one naming %s: %q", note, tc.seed, tc.wantNote)
			}
			src, found, err := m.repo.Source(ctx, srv.URL+tc.seed)
			if err != nil || !found || src.Kind != tc.kind {
				t.Errorf("seed's kind %q (found %v, %v), want %q", src.Kind, found, err, tc.kind)
			}
		})
	}
}
