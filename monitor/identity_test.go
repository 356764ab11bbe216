package monitor

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// identitySite serves a site without feed or sitemap whose home page
// links stories naming their canonical URL: on another host, the home
// page, or another URL of the same story.
func identitySite(t *testing.T) *httptest.Server {
	t.Helper()
	pages := map[string]string{ // path → canonical link
		"/news/story-one-here.html":       "http://cdn.other.example/story-one",
		"/print/news/story-one-here.html": "http://cdn.other.example/story-one",
		"/news/story-two-here.html":       "/",
		"/news/story-three-here.html":     "/",
		"/news/story-four-here.html":      "",
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			var b strings.Builder
			for p := range pages {
				fmt.Fprintf(&b, "<a href=%q>story</a>\n", p)
			}
			fmt.Fprintf(&b, "<a href=%q>story</a>\n", "/news/story-one-here.html?utm_source=home")
			fmt.Fprintf(w, "<html><head><title>Home</title></head><body>%s</body></html>", b.String())
			return
		}
		canon, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		story := strings.Split(strings.TrimPrefix(r.URL.Path, "/print"), "-")[1]
		var words []string
		for i := range 200 {
			words = append(words, fmt.Sprintf("%s%d", story, i%37))
		}
		link := ""
		if canon != "" {
			link = fmt.Sprintf("<link rel=canonical href=%q>", canon)
		}
		fmt.Fprintf(w, `<html><head><title>Story %s</title>%s<meta property="og:type" content="article"></head>
<body><article><h1>Story %s</h1><p>%s</p></article></body></html>`, story, link, story, strings.Join(words, " "))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestIdentity: a document's url is the URL fetched (tracking parameters
// dropped), canonical the page's canonical link and site the site
// monitored; only a second URL of a stored story is a duplicate: not a
// page whose canonical link is on another host, nor two stories naming
// the home page as canonical.
func TestIdentity(t *testing.T) {
	srv := identitySite(t)
	ctx := context.Background()
	m := openLoopback(t, Config{Name: "identity", Sites: []string{srv.URL + "/"}}, srv.URL)
	rep, err := m.Round(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.New != 4 || rep.Duplicates != 1 || rep.Errors != 0 {
		t.Errorf("new %d, duplicates %d, errors %d; want 4, 1 and 0", rep.New, rep.Duplicates, rep.Errors)
	}
	want := map[string]string{ // URL → canonical
		srv.URL + "/news/story-one-here.html":   "http://cdn.other.example/story-one",
		srv.URL + "/news/story-two-here.html":   srv.URL + "/",
		srv.URL + "/news/story-three-here.html": srv.URL + "/",
		srv.URL + "/news/story-four-here.html":  "",
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, d := range rep.Documents {
		c, ok := want[d.URL]
		if !ok || d.Canonical != c || d.Site != host {
			t.Errorf("document %s: canonical %q, site %q; want one of %v, site %s", d.URL, d.Canonical, d.Site, want, host)
			continue
		}
		delete(want, d.URL)
		dups := []string(nil)
		if strings.Contains(d.URL, "story-one") {
			dups = []string{srv.URL + "/print/news/story-one-here.html"}
		}
		if !slices.Equal(d.Duplicates, dups) {
			t.Errorf("document %s: duplicates %v, want %v", d.URL, d.Duplicates, dups)
		}
	}
	if len(want) > 0 {
		t.Errorf("not stored: %v", want)
	}
}
