package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/store"
)

// exportCmd runs gleaner with args.
func exportCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExportCommand(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "g.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	p := &store.Page{URL: "https://example.org/a", RawHTML: []byte(`<html><body><main><h1>Le port</h1><p>Le port a rouvert lundi. Les navires sont partis.</p></main></body></html>`),
		Capture: &store.Capture{Links: []store.Link{{URL: "https://example.org/b"}}}}
	if err := st.PutPages(ctx, []*store.Page{p}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutExtractions(ctx, []store.Extraction{{PageID: p.ID, Title: "Le port", Body: "Le port a rouvert lundi. Les navires sont partis.", Selector: "html > body > main"}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out := filepath.Join(t.TempDir(), "corpus")
	code, stdout, stderr := exportCmd("export", "--db", db, "--format", "conllu,warc,graph", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "exported 1 documents") || !strings.Contains(stdout, "languages: fr: 1") ||
		!strings.Contains(stdout, "wrote "+filepath.Join(out, "corpus.conllu")+"\n") {
		t.Errorf("stdout %q", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "corpus.conllu"))
	if err != nil || !strings.Contains(string(b), "# text = Le port a rouvert lundi.") {
		t.Errorf("conllu %q %v", b, err)
	}
	f, err := os.Open(filepath.Join(out, "corpus.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if recs, err := export.ReadWARC(f, 0); err != nil || len(recs) != 3 {
		t.Errorf("warc: %d records, %v", len(recs), err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export", "--db", db, "--out", out}, 2, "give --format and --out"},
		{[]string{"export", "--db", db, "--format", "pdf", "--out", out}, 2, `unknown format "pdf"`},
		{[]string{"export", "--db", db, "--format", "conllu", "--out", out, "--langs", "xx"}, 2, `unknown language code "xx"`},
		{[]string{"export", "--db", db, "--format", "conllu", "--out", out, "--treetagger", "fr"}, 2, "want lang=BIN:PARFILE"},
		{[]string{"export", "--db", filepath.Join(t.TempDir(), "empty.db"), "--format", "conllu", "--out", out}, 1, "no extracted pages"},
	} {
		code, _, stderr := exportCmd(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

func TestChainCommand(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "a.txt")
	os.WriteFile(txt, []byte("Die Kinder spielten im Garten. Danach gingen sie nach Hause."), 0o644)
	code, stdout, stderr := exportCmd("chain", "--format", "vertical", txt)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `lang="de"`) || !strings.Contains(stdout, "no POS tagger for de") || !strings.Contains(stdout, "Kinder\t_\tkind\n") {
		t.Errorf("vertical:\n%s", stdout)
	}
	html := filepath.Join(dir, "a.html")
	os.WriteFile(html, []byte(`<body><ul><li><a href="/1">Home</a></li><li><a href="/2">News</a></li></ul><p>The ship left the harbour at dawn.</p></body>`), 0o644)
	code, stdout, stderr = exportCmd("chain", "--format", "conllu", "--lang", "en", html)
	if code != 0 || strings.Count(stdout, "# sent_id") != 3 {
		t.Errorf("html: exit %d (%s), output:\n%s", code, stderr, stdout)
	}
	if code, _, stderr := exportCmd("chain", "--format", "pdf", txt); code != 2 || !strings.Contains(stderr, "unknown format") {
		t.Errorf("bad format: exit %d %q", code, stderr)
	}
	if code, _, stderr := exportCmd("chain", filepath.Join(dir, "missing.txt")); code != 1 || !strings.Contains(stderr, "missing.txt") {
		t.Errorf("missing file: exit %d %q", code, stderr)
	}
}

// TestExportMonitor exports one round of a monitor's documents: exactly
// the documents "gleaner monitor docs" selects for that round.
func TestExportMonitor(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	// The --fixtures monitor keeps its state under the default name.
	if code, _, stderr := exportCmd("monitor", "--fixtures", "--rounds", "2", "--articles", "8", "--db", db); code != 0 {
		t.Fatalf("monitor: exit %d: %s", code, stderr)
	}
	code, docs, stderr := exportCmd("monitor", "docs", "--db", db, "--round", "2")
	if code != 0 {
		t.Fatalf("monitor docs: exit %d: %s", code, stderr)
	}
	want := jsonlField(t, docs, "url", "title")
	if len(want) == 0 {
		t.Fatal("monitor docs --round 2: no document")
	}
	out := filepath.Join(dir, "corpus")
	code, stdout, stderr := exportCmd("export", "--db", db, "--monitor", "default", "--round", "2", "--format", "jsonl", "--out", out)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonlField(t, string(b), "url", "title"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("exported (url, title):\n%s\nwant round 2's documents:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), stdout)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--round", "2"}, 2},
		{[]string{"--monitor", "default", "--crawl", "x"}, 2},
		{[]string{"--monitor", "default", "--since", "yesterday"}, 2},
		{[]string{"--monitor", "nosuch"}, 1},
		{[]string{"--monitor", "default", "--round", "9"}, 1},
		{[]string{"--crawl", "nosuch"}, 1},
	} {
		args := append([]string{"export", "--db", db, "--format", "jsonl", "--out", filepath.Join(dir, "x")}, tc.args...)
		if code, _, stderr := exportCmd(args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, stderr)
		}
	}
}

// jsonlField returns, per line of a JSONL text, the given fields joined
// by a tab, sorted.
func jsonlField(t *testing.T, s string, fields ...string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%.200s: %v", l, err)
		}
		var vals []string
		for _, f := range fields {
			vals = append(vals, fmt.Sprint(m[f]))
		}
		out = append(out, strings.Join(vals, "\t"))
	}
	sort.Strings(out)
	return out
}

// crawlSite serves, on loopback, two articles about wind power and a
// page about cooking, each linking to the next.
func crawlSite(t *testing.T) *httptest.Server {
	t.Helper()
	texts := map[string]string{
		"/wind1": "The wind farm near the harbour produced more wind power this winter than ever; wind turbines turned through the storms.",
		"/wind2": "Offshore wind turbines feed the grid: wind power now covers a third of the region's demand, the wind operators said.",
		"/cake":  "Beat the butter with the sugar, add the eggs one by one, fold in the flour and bake the cake for forty minutes.",
	}
	next := map[string]string{"/wind1": "/wind2", "/wind2": "/cake", "/cake": "/wind1"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		text, ok := texts[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "<html><head><title>%s</title></head><body><main><h1>%s</h1><p>%s</p><p>%s</p><a href=%q>next</a></main></body></html>",
			r.URL.Path, r.URL.Path, text, text, next[r.URL.Path])
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestExportCrawl crawls a loopback site and exports the crawl's
// documents: its articles by default, every kind with --kind all, those
// of a relevance with --min-relevance; each JSONL line says its kind,
// relevance, method, confidence and template.
func TestExportCrawl(t *testing.T) {
	srv := crawlSite(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	if code, _, stderr := exportCmd("crawl", "--db", db, "--plain", "--terms", "wind,turbines", "--threshold", "1", "--allow-host", strings.TrimPrefix(srv.URL, "http://"),
		"--name", "c", "--delay", "1ms", "--learn-at", "-1", "--max-pages", "3", "--quiet", srv.URL+"/wind1"); code != 0 {
		t.Fatalf("crawl: exit %d: %s", code, stderr)
	}
	for i, tc := range []struct {
		args []string
		want []string // url path, kind
	}{
		{nil, []string{"/wind1 article", "/wind2 article"}},
		{[]string{"--kind", "all"}, []string{"/cake off-topic", "/wind1 article", "/wind2 article"}},
		{[]string{"--kind", "off-topic"}, []string{"/cake off-topic"}},
		{[]string{"--kind", "all", "--min-relevance", "1"}, []string{"/wind1 article", "/wind2 article"}},
	} {
		out := filepath.Join(dir, fmt.Sprint("corpus", i))
		args := append([]string{"export", "--db", db, "--crawl", "c", "--format", "jsonl", "--out", out}, tc.args...)
		if code, stdout, stderr := exportCmd(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s %s", tc.args, code, stdout, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "corpus.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range jsonlField(t, string(b), "url", "kind", "relevance", "method", "confidence", "template") {
			f := strings.Split(strings.TrimPrefix(l, srv.URL), "\t")
			got = append(got, f[0]+" "+f[1])
			if rel, err := strconv.ParseFloat(f[2], 64); err != nil || (f[1] == "article") != (rel >= 1) {
				t.Errorf("%v: %s: relevance %q", tc.args, f[0], f[2])
			}
			if f[3] == "<nil>" || f[3] == "" || f[4] == "<nil>" || f[5] != "-1" {
				t.Errorf("%v: %s: method %q confidence %q template %q (no learning: -1)", tc.args, f[0], f[3], f[4], f[5])
			}
		}
		if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
			t.Errorf("%v: exported %q, want %q", tc.args, got, tc.want)
		}
	}
	for _, args := range [][]string{{"--kind", "nosuch"}, {"--kind", "hub"}, {"--crawl", "c", "--kind", "nosuch"}, {"--crawl", "c", "--gold"}} {
		args = append([]string{"export", "--db", db, "--format", "jsonl", "--out", filepath.Join(dir, "x")}, args...)
		if code, _, stderr := exportCmd(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr)
		}
	}
}

// TestExportWACZOfRecordedCrawl crawls a loopback site with --record and
// exports the crawl as WARC and WACZ: the responses hold the bytes the
// server sent (a windows-1252 page stays windows-1252), each with its
// request, and the package lists the pages with their text.
func TestExportWACZOfRecordedCrawl(t *testing.T) {
	article := func(n int) []byte {
		return []byte(fmt.Sprintf("<html><head><meta charset=\"windows-1252\"><title>Wind %d</title></head><body><main><h1>Windkraft in M\xfcnchen %d</h1>"+
			"<p>The wind farm near the harbour produced more power this winter than in any year before, the operators said.</p>"+
			"<p>Wind turbines on the hills turned through the storms; the grid took every megawatt of wind power.</p>"+
			"<a href=\"/a%d\">next</a></main></body></html>", n, n, n+1))
	}
	sent := map[string][]byte{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/a%d", &n); err != nil || n > 2 {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=windows-1252")
		b := article(n)
		w.Write(b)
	}))
	defer srv.Close()
	for n := 1; n <= 2; n++ {
		sent[fmt.Sprintf("%s/a%d", srv.URL, n)] = article(n)
	}
	db := filepath.Join(t.TempDir(), "g.db")
	host := strings.TrimPrefix(srv.URL, "http://")
	if code, _, stderr := exportCmd("crawl", "--db", db, "--plain", "--record", "--terms", "wind", "--allow-host", host, "--name", "rec",
		"--delay", "1ms", "--learn-at", "-1", "--max-pages", "2", "--quiet", srv.URL+"/a1"); code != 0 {
		t.Fatalf("crawl: exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "corpus")
	// --kind all: the archive holds every page fetched (a2 is a near
	// duplicate of a1, no article of its own).
	code, stdout, stderr := exportCmd("export", "--db", db, "--crawl", "rec", "--kind", "all", "--format", "warc,wacz", "--wacz-text", "--out", out)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, filepath.Join(out, "corpus.wacz")) {
		t.Errorf("stdout %q", stdout)
	}
	f, err := os.Open(filepath.Join(out, "corpus.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := export.ReadWARC(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	same, requests := 0, 0
	for _, r := range recs {
		switch r.Type() {
		case "response":
			if want, ok := sent[r.TargetURI()]; ok && bytes.Equal(r.Payload(), want) {
				same++
			}
		case "request":
			requests++
		}
	}
	if same != len(sent) || requests < len(sent) || !strings.Contains(recs[0].Header.Get("Content-Type"), "warc-fields") ||
		!bytes.Contains(recs[0].Block, []byte("isPartOf: crawl:rec")) {
		t.Errorf("%d of %d responses as served, %d requests, warcinfo %q", same, len(sent), requests, recs[0].Block)
	}
	zr, err := zip.OpenReader(filepath.Join(out, "corpus.wacz"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, zf := range zr.File {
		names = append(names, zf.Name)
		if zf.Name == "pages/pages.jsonl" {
			rc, _ := zf.Open()
			var b bytes.Buffer
			b.ReadFrom(rc)
			rc.Close()
			if !strings.Contains(b.String(), "wind farm") {
				t.Errorf("pages.jsonl without text: %s", b.String())
			}
		}
	}
	if strings.Join(names, " ") != "archive/data-00000.warc.gz indexes/index.cdxj pages/pages.jsonl datapackage.json datapackage-digest.json" {
		t.Errorf("package files %v", names)
	}
	if code, _, stderr := exportCmd("export", "--db", db, "--format", "warc", "--warc-digest", "md5", "--out", out); code != 2 || !strings.Contains(stderr, "--warc-digest") {
		t.Errorf("md5: exit %d: %s", code, stderr)
	}
}

// recordSite serves a page reached by a redirect, which sets a cookie,
// shows an image and calls an API with an Authorization header, for the
// render command's recording flags.
func recordSite(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/a", http.StatusFound) })
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret"})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Harbour</title></head><body><main id="m"></main><img src="/pic.png" width="1" height="1">`+
			`<script>document.getElementById('m').innerHTML = '<p>Paragraph written by script.</p>';`+
			`fetch('/api', {headers: {'Authorization': 'Bearer t0ken'}});</script></body></html>`)
	})
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	mux.HandleFunc("/pic.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(onePixelPNG)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// onePixelPNG is a 1×1 PNG image.
var onePixelPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")

// TestRenderRecord renders a script-made page behind the guard, recording
// by default: its redirect and document are stored as exchanges, in
// order, each as the server sent it, the cookie's and the API call's
// Authorization values withheld and the image neither downloaded nor
// kept; with --record-media and --record-secrets the image is kept as
// served and the secret values too.
func TestRenderRecord(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Skip(err)
	}
	ts := recordSite(t)
	for _, tc := range []struct {
		flags         []string
		media, secret bool
	}{
		{nil, false, false},
		{[]string{"--record-media", "--record-secrets"}, true, true},
	} {
		db := filepath.Join(t.TempDir(), "g.db")
		args := append(append([]string{"render", "--db", db}, tc.flags...), "--allow-host", hostOf(ts.URL), ts.URL+"/go")
		if code, out, errs := runGleaner(args...); code != 0 {
			t.Fatalf("%v: exit %d\nstdout %s\nstderr %s", tc.flags, code, out, errs)
		}
		checkRecordedRender(t, tc.flags, storedExchanges(t, db, ts.URL+"/go"), ts.URL, tc.media, tc.secret)
	}
}

// checkRecordedRender checks the exchanges of recordSite's page rendered
// with flags: redirect then document as served, the cookie's and the
// Authorization values kept only if secret, the image only if media.
func checkRecordedRender(t *testing.T, flags []string, xs []store.Exchange, base string, media, secret bool) {
	t.Helper()
	if len(xs) < 2 || xs[0].URL != base+"/go" || !bytes.HasPrefix(xs[0].Response, []byte("HTTP/1.1 302 Found\r\n")) || xs[1].URL != base+"/a" || xs[1].IP != "127.0.0.1" {
		t.Fatalf("%v: exchanges %+v", flags, xs)
	}
	checkSecretsKept(t, flags, xs, base, secret)
	checkMediaKept(t, flags, xs, base, media)
	resp, err := http.Get(base + "/a")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var served bytes.Buffer
	served.ReadFrom(resp.Body)
	if !bytes.Equal(xs[1].Payload, served.Bytes()) {
		t.Errorf("stored document %q, served %q", xs[1].Payload, served.Bytes())
	}
}

// checkSecretsKept checks that the cookie's value and the API call's
// Authorization are kept in xs only if secret, written "(withheld)"
// otherwise.
func checkSecretsKept(t *testing.T, flags []string, xs []store.Exchange, base string, secret bool) {
	t.Helper()
	if kept := bytes.Contains(xs[1].Response, []byte("Set-Cookie: session=s3cret")); kept != secret ||
		!secret && !bytes.Contains(xs[1].Response, []byte("Set-Cookie: (withheld)")) {
		t.Errorf("%v: the cookie's value kept %v, want %v: %q", flags, kept, secret, xs[1].Response)
	}
	api := slices.IndexFunc(xs, func(x store.Exchange) bool { return x.URL == base+"/api" })
	if api < 0 || bytes.Contains(xs[api].Request, []byte("Authorization: Bearer t0ken\r\n")) != secret ||
		!secret && !bytes.Contains(xs[api].Request, []byte("Authorization: (withheld)\r\n")) {
		t.Errorf("%v: the API call's Authorization (kept: want %v): %+v", flags, secret, xs)
	}
}

// checkMediaKept checks that the image is kept in xs, as served, only if
// media.
func checkMediaKept(t *testing.T, flags []string, xs []store.Exchange, base string, media bool) {
	t.Helper()
	pic := slices.IndexFunc(xs, func(x store.Exchange) bool { return x.URL == base+"/pic.png" })
	if (pic >= 0) != media || pic >= 0 && !bytes.Equal(xs[pic].Payload, onePixelPNG) {
		t.Errorf("%v: image kept %v, want %v", flags, pic >= 0, media)
	}
}

// storedExchanges are the exchanges stored with the page of url in db.
func storedExchanges(t *testing.T, db, url string) []store.Exchange {
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
	xs, err := st.Exchanges(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

// TestRecordByDefault crawls a loopback site as a new user would, without
// a recording flag: the pages are recorded, and export --format warc
// writes each as served (response and request records). Crawled with
// --record=false, the export says plainly that the archive holds the
// rendered DOM of pages not recorded, not the pages as served.
func TestRecordByDefault(t *testing.T) {
	srv := crawlSite(t)
	for _, tc := range []struct {
		flags    []string
		captured bool
	}{
		{nil, true},
		{[]string{"--record=false"}, false},
	} {
		dir := t.TempDir()
		db := filepath.Join(dir, "g.db")
		args := append([]string{"crawl", "--db", db, "--plain", "--terms", "wind", "--threshold", "1", "--allow-host", hostOf(srv.URL),
			"--name", "c", "--delay", "1ms", "--learn-at", "-1", "--max-pages", "2", "--quiet", srv.URL + "/wind1"}, tc.flags...)
		if code, _, stderr := exportCmd(args...); code != 0 {
			t.Fatalf("%v: crawl: exit %d: %s", tc.flags, code, stderr)
		}
		out := filepath.Join(dir, "out")
		code, stdout, stderr := exportCmd("export", "--db", db, "--crawl", "c", "--format", "warc", "--out", out)
		if code != 0 {
			t.Fatalf("%v: export: exit %d: %s", tc.flags, code, stderr)
		}
		types := map[string]int{}
		f, err := os.Open(filepath.Join(out, "corpus.warc.gz"))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := export.ReadWARC(f, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			types[r.Type()]++
		}
		noted := strings.Contains(stdout, "note: 2 of 2 pages were not recorded")
		if tc.captured != (types["response"] == 2 && types["request"] == 2 && types["resource"] == 0) || noted == tc.captured {
			t.Errorf("%v: records %v; stdout %s", tc.flags, types, stdout)
		}
	}
}
