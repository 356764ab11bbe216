package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gleaner/gleaner/store"
)

// beacon counts the requests hostile scripts would send.
type beacon struct {
	mu   sync.Mutex
	hits []string
}

func (b *beacon) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	b.hits = append(b.hits, r.URL.Path)
	b.mu.Unlock()
}

func (b *beacon) got() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.hits...)
}

// putHostilePage stores testdata/xss.html with scripts in its URL, its
// title and its body, and an extraction carrying the same, every script
// reporting to beaconURL.
func putHostilePage(t *testing.T, db *store.DB, beaconURL string) int64 {
	t.Helper()
	raw, err := os.ReadFile("testdata/xss.html")
	if err != nil {
		t.Fatal(err)
	}
	inject := func(where string) string {
		return fmt.Sprintf(`<script>window.__xss = %q; new Image().src = "%s/%s"</script>`, where, beaconURL, where)
	}
	p := &store.Page{Site: "xss.test", Dataset: "xss", URL: "http://xss.test/a?q=" + inject("url") + `"><img src=x onerror="window.__xss='url-img'">`,
		FetchedAt: time.Now(), Status: 200, ContentType: "text/html", RawHTML: []byte(strings.ReplaceAll(string(raw), "BEACON", beaconURL))}
	if err := db.PutPages(context.Background(), []*store.Page{p}); err != nil {
		t.Fatal(err)
	}
	x := store.Extraction{PageID: p.ID, Title: inject("title") + "Hostile headline", Method: "single-page", Selector: "div#story",
		Body: "Body text " + inject("body") + `<img src=x onerror="window.__xss='body-img'">`, Author: inject("author"), Date: "2024-01-02" + inject("date")}
	if err := db.PutExtractions(context.Background(), []store.Extraction{x}); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

// TestBrowserHostilePage opens a page whose URL, title and body carry
// scripts in every view that shows it: the dashboard shows them as text,
// and nothing runs or loads, neither in the dashboard's origin nor in the
// page's static copy.
func TestBrowserHostilePage(t *testing.T) {
	_, db := fixtureStore(t)
	var b beacon
	bs := httptest.NewServer(&b)
	defer bs.Close()
	id := putHostilePage(t, db, bs.URL)
	_, ts := startDashboard(t, db, Options{})
	ctx := tab(t)
	views := []struct{ path, textSel string }{
		{fmt.Sprintf("/pages/%d", id), "h1.pagetitle"},
		{"/corpus?q=" + url.QueryEscape("hostile"), "a.doctitle"},
		{"/corpus?site=xss.test", "table.docs"},
	}
	for _, v := range views {
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+v.path), chromedp.WaitVisible(chromedp.CSS(v.textSel))); err != nil {
			t.Fatalf("%s: %v", v.path, err)
		}
		time.Sleep(300 * time.Millisecond) // time for anything that would run
		if got := eval[string](t, ctx, `String(window.__xss)`); got != "undefined" {
			t.Errorf("%s: hostile script ran in the dashboard (%s)", v.path, got)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll("script:not([src='/static/dashboard.js']), img[onerror], [onload]").length`); n != 0 {
			t.Errorf("%s: %d hostile elements in the dashboard's DOM", v.path, n)
		}
		if txt := eval[string](t, ctx, `document.querySelector(`+fmt.Sprintf("%q", v.textSel)+`).textContent`); !strings.Contains(txt, "<script>window.__xss") {
			t.Errorf("%s: the script is not shown as text: %q", v.path, txt)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/pages/%d", ts.URL, id))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the frames load the page's copy
	shoot(t, ctx, "7-hostile-page")
	if hits := b.got(); len(hits) != 0 {
		t.Fatalf("hostile code reached the beacon: %v", hits)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/pages/%d/render", ts.URL, id)), chromedp.WaitVisible(chromedp.CSS("[data-gleaner-extracted]"))); err != nil {
		t.Fatal(err)
	}
	scripts, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll("script, iframe, [onerror], [onload]"), chromedp.AtLeast(0)))
	if err != nil || len(scripts) != 0 {
		t.Errorf("static copy keeps %d hostile elements (%v)", len(scripts), err)
	}
	time.Sleep(300 * time.Millisecond)
	if hits := b.got(); len(hits) != 0 {
		t.Errorf("hostile code reached the beacon from the static copy: %v", hits)
	}
}
