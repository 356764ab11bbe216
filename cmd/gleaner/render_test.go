package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// renderTestServer serves a page whose article arrives by script, and a
// redirect to it.
func renderTestServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Script page</title></head><body>
<nav><a href="/other">Other page</a></nav><main id="m"></main>
<script>document.getElementById('m').innerHTML = '<p>Paragraph written by script.</p><a href="/made-by-script">made</a>';</script>
</body></html>`)
	})
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/a", http.StatusFound) })
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

func TestRenderCommandStoresRenderedPages(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Skip(err)
	}
	ts := renderTestServer(t)
	db := filepath.Join(t.TempDir(), "g.db")
	code, out, errs := runGleaner("render", "--db", db, "--tabs", "2", "--allow-host", hostOf(ts.URL), "--allow-host", "127.0.0.1:1",
		ts.URL+"/go", ts.URL+"/missing", "http://127.0.0.1:1/refused")
	if code != 1 || !strings.Contains(out, "rendered 2 of 3 pages (0 partial, 1 failed), 3 stored") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.PageByKey(context.Background(), "", ts.URL+"/go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(p.RenderedHTML), `<main id="m"><p>Paragraph written by script.</p>`) || p.Status != 200 || p.Capture == nil {
		t.Fatalf("stored page: status %d capture %+v html %q", p.Status, p.Capture, p.RenderedHTML)
	}
	c := p.Capture
	if c.FinalURL != ts.URL+"/a" || len(c.Redirects) != 1 || c.Redirects[0].Status != 302 || c.Title != "Script page" || !c.Rendered {
		t.Errorf("capture %+v", c)
	}
	found := false
	for _, l := range c.Links {
		found = found || strings.HasSuffix(l.URL, "/made-by-script")
	}
	if !found {
		t.Errorf("script-made link not stored: %+v", c.Links)
	}
	// The stored layout answers for the nodes of the stored HTML.
	lay, err := browser.ParseLayout(c.Layout)
	if err != nil || lay == nil {
		t.Fatalf("layout: %v", err)
	}
	tree, err := treediff.Parse(p.URL, p.RenderedHTML, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	visible := 0
	for _, n := range tree.Nodes {
		if n.Kind == treediff.Text && strings.Contains(n.Label, "Paragraph written by script.") && lay.Visible(n) {
			visible++
		}
	}
	if visible != 1 {
		t.Errorf("script paragraph visible %d times in the stored layout", visible)
	}
	if p, err := st.PageByKey(context.Background(), "", "http://127.0.0.1:1/refused"); err != nil || p.Error == "" {
		t.Errorf("failed page not stored with its error: %+v %v", p, err)
	}
	if p, err := st.PageByKey(context.Background(), "", ts.URL+"/missing"); err != nil || p.Status != 404 {
		t.Errorf("404 page: %+v %v", p, err)
	}
}

func TestRenderCommandPlainAndUsage(t *testing.T) {
	ts := renderTestServer(t)
	db := filepath.Join(t.TempDir(), "g.db")
	code, out, errs := runGleaner("render", "--plain", "--db", db, "--allow-host", hostOf(ts.URL), ts.URL+"/a")
	if code != 0 || !strings.Contains(out, "rendered 1 of 1 pages") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	p := storedPage(t, db, ts.URL+"/a")
	if !strings.Contains(string(p.HTML()), `<main id="m"></main>`) {
		t.Error("plain fetch: the script's target is not empty")
	}
	if p.Capture == nil || p.Capture.Rendered || len(p.RawHTML) == 0 {
		t.Errorf("plain page: %+v", p.Capture)
	}
	for _, args := range [][]string{{"render"}, {"render", "--tabs", "0", "http://x/"}, {"render", "--site-from", "planet", "http://x/"}, {"render", "--bogus"}, {"render", "--plain", "/tmp"}, {"render", "--plain", "ftp://x/y"}} {
		if code, _, _ := runGleaner(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// storedPage reads the page stored under url in the SQLite store db.
func storedPage(t *testing.T, db, url string) *store.Page {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.PageByKey(context.Background(), "", url)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hostOf is the host:port of a server URL.
func hostOf(serverURL string) string {
	u, err := url.Parse(serverURL)
	if err != nil {
		panic(err)
	}
	return u.Host
}

// TestRenderGuard: render has crawl's guard and --allow-host. A page on an
// allowed port whose stylesheet, iframe, fetch and XHR aim at a loopback
// port not allowed stores the page while that port receives nothing, in
// Chromium and plain mode; a page on a port not allowed is not fetched.
func TestRenderGuard(t *testing.T) {
	var hits atomic.Int64
	forbidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer forbidden.Close()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Guarded</title><link rel="stylesheet" href="%[1]s/s.css"></head>
<body><p>Page of an allowed host.</p><iframe src="%[1]s/frame"></iframe>
<script>fetch('%[1]s/fetch').catch(() => {}); const x = new XMLHttpRequest(); x.open('GET', '%[1]s/xhr'); x.send();</script></body></html>`, forbidden.URL)
	}))
	defer front.Close()
	modes := [][]string{{"--plain"}}
	if _, err := browser.FindChromium(); err == nil {
		modes = append(modes, []string{"--tabs", "1", "--scroll", "0", "--no-block"})
	}
	for _, mode := range modes {
		db := filepath.Join(t.TempDir(), "g.db")
		args := append([]string{"render", "--db", db, "--allow-host", hostOf(front.URL)}, mode...)
		code, out, errs := runGleaner(append(args, front.URL+"/", forbidden.URL+"/admin")...)
		if code != 1 || !strings.Contains(out, "rendered 1 of 2 pages") {
			t.Errorf("%v: exit %d, want 1 (the forbidden page failed)\nstdout %s\nstderr %s", mode, code, out, errs)
		}
		if n := hits.Load(); n != 0 {
			t.Errorf("%v: the port not allowed received %d requests", mode, n)
		}
	}
}

// TestRenderContentSelector: --content-selector reaches the renderer (the
// stored page says it was ready by its region; a value with a comma is one
// CSS selector list), an invalid selector is noted and harmless, and the
// flag without a browser is a usage error.
func TestRenderContentSelector(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Skip(err)
	}
	ts := renderTestServer(t)
	db := filepath.Join(t.TempDir(), "g.db")
	code, out, errs := runGleaner("render", "--db", db, "--allow-host", hostOf(ts.URL),
		"--content-selector", "div[", "--content-selector", "#nothing, #m", ts.URL+"/a")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	p := storedPage(t, db, ts.URL+"/a")
	notes := strings.Join(p.Capture.Notes, "\n")
	if !strings.Contains(notes, browser.NoteRegionReady+`"#nothing, #m" settled`) || !strings.Contains(notes, `invalid selector "div["`) {
		t.Errorf("notes %q", p.Capture.Notes)
	}
	if !strings.Contains(string(p.RenderedHTML), "Paragraph written by script.") {
		t.Errorf("body missing: %q", p.RenderedHTML)
	}
	if code, _, errs := runGleaner("render", "--db", db, "--plain", "--content-selector", "#m", ts.URL+"/a"); code != 2 || !strings.Contains(errs, "--content-selector needs the browser") {
		t.Errorf("--plain --content-selector: exit %d, %s", code, errs)
	}
}
