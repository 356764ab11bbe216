package browser_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/netguard"
	"github.com/gleaner/gleaner/treediff"
)

// page is a document whose article only exists once its script has run.
const page = `<!DOCTYPE html><html><head><title>Demo</title></head><body>
<main id="m"></main><p style="display:none">Hidden note</p>
<script>document.getElementById('m').innerHTML = '<h1>Rendered headline</h1><a href="/next">Next story</a>';</script>
</body></html>`

func demoServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
}

// A plain HTTP fetch sees the page as served: the script has not run. The
// demo server is on loopback, which the guard allows only when named.
func ExampleHTTPFetcher() {
	ts := demoServer()
	defer ts.Close()
	guard := netguard.Policy{Allowed: []string{ts.Listener.Addr().String()}}
	p, err := (&browser.HTTPFetcher{Guard: guard, Timeout: 5 * time.Second}).Fetch(context.Background(), ts.URL)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Status, p.Title, strings.Contains(p.HTML, `<main id="m"></main>`), len(p.Links))
	// Output: 200 Demo true 0
}

// A Renderer runs the page in headless Chromium. The layout tells which
// text a reader sees and where.
func ExampleRenderer() {
	ts := demoServer()
	defer ts.Close()
	guard := netguard.Policy{Allowed: []string{ts.Listener.Addr().String()}}
	r, err := browser.New(browser.Options{Tabs: 1, PageTimeout: 10 * time.Second, Guard: guard})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	p, err := r.Fetch(context.Background(), ts.URL)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Status, p.Title, p.Partial)
	for _, l := range p.Links {
		fmt.Println(strings.TrimPrefix(l.URL, ts.URL), l.Text, l.Source)
	}
	tree, err := treediff.Parse(p.FinalURL, []byte(p.HTML), treediff.ParseOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range tree.Nodes {
		if n.Kind == treediff.Text && strings.TrimSpace(n.Label) != "" && n.Parent.Label != "title" {
			fmt.Printf("%s visible=%v\n", strings.TrimSpace(n.Label), p.Layout.Visible(n))
		}
	}
	// Output:
	// 200 Demo false
	// /next Next story a
	// Rendered headline visible=true
	// Next story visible=true
	// Hidden note visible=false
}
