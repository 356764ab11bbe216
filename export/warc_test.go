package export

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/internal/warciotest"
	"github.com/gleaner/gleaner/store"
)

// exchange builds a recorded exchange of url answering status with head
// lines and payload.
func exchange(url, path, status string, head []string, payload string, at time.Time) store.Exchange {
	h := "HTTP/1.1 " + status + "\r\n"
	for _, l := range head {
		h += l + "\r\n"
	}
	return store.Exchange{URL: url, Method: "GET", IP: "127.0.0.1", At: at,
		Request:  []byte("GET " + path + " HTTP/1.1\r\nHost: example.org\r\n\r\n"),
		Response: []byte(h + "\r\n"), Payload: []byte(payload)}
}

// recordedPages are two pages of a site with recorded exchanges: the first
// reached by a redirect, both loading the same script.
func recordedPages() []*Page {
	at := time.Date(2026, 11, 26, 18, 0, 0, 0, time.UTC)
	js := "document.body.append('made by script')"
	p1 := &Page{ID: "p1", URL: "http://example.org/old", Title: "M\u00fcnchen", Text: "made by script",
		HTML: []byte("<html><body><h1>M\u00fcnchen</h1>made by script</body></html>"), FetchedAt: at,
		Exchanges: []store.Exchange{
			exchange("http://example.org/old", "/old", "301 Moved Permanently", []string{"Location: /page", "Content-Length: 0"}, "", at),
			exchange("http://example.org/page", "/page", "200 OK", []string{"Content-Type: text/html; charset=windows-1252"},
				"<html><body><h1>M\xfcnchen</h1><script src=/app.js></script></body></html>", at.Add(time.Millisecond)),
			exchange("http://example.org/app.js", "/app.js", "200 OK", []string{"Content-Type: application/javascript"}, js, at.Add(2*time.Millisecond)),
		}}
	p2 := &Page{ID: "p2", URL: "http://example.org/second", Title: "Second", Text: "made by script", FetchedAt: at.Add(time.Minute),
		HTML: []byte("<html><body>made by script</body></html>"),
		Exchanges: []store.Exchange{
			exchange("http://example.org/second", "/second", "200 OK", []string{"Content-Type: text/html"}, "<script src=/app.js></script>", at.Add(time.Minute)),
			exchange("http://example.org/app.js", "/app.js", "200 OK", []string{"Content-Type: application/javascript"}, js, at.Add(time.Minute+time.Millisecond)),
		}}
	return []*Page{p1, p2}
}

// TestWARCExchanges writes recorded pages: a request and a response per
// exchange (payload as served, windows-1252 bytes untouched), requests
// concurrent to their responses, the DOM and the text as conversions of
// the document's response (after the redirect), and a revisit for the
// script served again.
func TestWARCExchanges(t *testing.T) {
	var b bytes.Buffer
	w, err := NewWARCWith(&b, WARCOptions{Crawl: "crawl:test"})
	if err != nil {
		t.Fatal(err)
	}
	pages := recordedPages()
	for _, p := range pages {
		if err := w.WritePage(p); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := ReadWARC(bytes.NewReader(b.Bytes()), 0)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	byID := map[string]*Record{}
	for i := range recs {
		types = append(types, recs[i].Type())
		byID[recs[i].Header.Get("WARC-Record-ID")] = &recs[i]
	}
	want := "warcinfo response request response request response request conversion conversion " +
		"response request revisit request conversion conversion"
	if strings.Join(types, " ") != want {
		t.Fatalf("records %v\nwant %s", types, want)
	}
	if !bytes.Contains(recs[0].Block, []byte("isPartOf: crawl:test")) {
		t.Errorf("warcinfo %q", recs[0].Block)
	}
	for _, r := range recs {
		switch r.Type() {
		case "request":
			if resp := byID[r.Header.Get("WARC-Concurrent-To")]; resp == nil || resp.TargetURI() != r.TargetURI() {
				t.Errorf("request %s not concurrent to its response", r.TargetURI())
			}
		case "response":
			if !strings.HasPrefix(r.Header.Get("WARC-Payload-Digest"), "sha256:") || r.Header.Get("WARC-IP-Address") != "127.0.0.1" {
				t.Errorf("response %s: %v", r.TargetURI(), r.Header)
			}
		case "conversion":
			if ref := byID[r.Header.Get("WARC-Refers-To")]; ref == nil || ref.TargetURI() != "http://example.org/page" && ref.TargetURI() != "http://example.org/second" {
				t.Errorf("conversion %s refers to %v", r.TargetURI(), ref)
			}
		}
	}
	if got := recs[3].Payload(); !bytes.Equal(got, pages[0].Exchanges[1].Payload) {
		t.Errorf("windows-1252 payload %q", got)
	}
	rv := recs[11]
	if rv.Header.Get("WARC-Refers-To") != recs[5].Header.Get("WARC-Record-ID") || rv.Header.Get("WARC-Refers-To-Target-URI") != "http://example.org/app.js" ||
		!strings.Contains(rv.Header.Get("WARC-Profile"), "identical-payload-digest") || rv.Header.Get("WARC-Payload-Digest") != recs[5].Header.Get("WARC-Payload-Digest") {
		t.Errorf("revisit %v", rv.Header)
	}
	if bad := strings.Replace(string(uncompressed(t, b.Bytes())), "M\xfcnchen</h1><script", "Munchen</h1><script", 1); true {
		if _, err := ReadWARC(strings.NewReader(bad), 0); err == nil {
			t.Error("a changed payload was not detected")
		}
	}
}

// TestWARCOptions refuses an unknown digest and writes sha1 when asked.
func TestWARCOptions(t *testing.T) {
	if _, err := NewWARCWith(io.Discard, WARCOptions{Digest: "md5"}); err == nil {
		t.Error("md5 accepted")
	}
	var b bytes.Buffer
	w, _ := NewWARCWith(&b, WARCOptions{Digest: "sha1"})
	w.WritePage(recordedPages()[1])
	recs, err := ReadWARC(&b, 0)
	if err != nil || !strings.HasPrefix(recs[1].Header.Get("WARC-Block-Digest"), "sha1:") {
		t.Errorf("sha1: %v %v", err, recs)
	}
}

// TestSURT keys URLs as CDX indexes do.
func TestSURT(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://www.Example.org/A/b?z=1&a=2", "org,example)/a/b?a=2&z=1"},
		{"https://example.org", "org,example)/"},
		{"http://127.0.0.1:8080/x", "1,0,0,127:8080)/x"},
	} {
		if got := SURT(tc.in); got != tc.want {
			t.Errorf("SURT(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestWACZ packages recorded pages: the files a WACZ 1.1.1 holds, each
// hash in datapackage.json true, the index sorted and pointing at the
// records, the pages listed with their text when asked, the WARC rolled at
// its size.
func TestWACZ(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.wacz")
	z, err := NewWACZ(path, WACZOptions{Text: true, MaxWARCBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range recordedPages() {
		if err := z.AddPage(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	files := readZip(t, path)
	for _, name := range []string{"archive/data-00000.warc.gz", "archive/data-00001.warc.gz", "indexes/index.cdxj", "pages/pages.jsonl", "datapackage.json", "datapackage-digest.json"} {
		if _, ok := files[name]; !ok {
			t.Errorf("no %s in the package", name)
		}
	}
	var dp struct {
		Resources []resource `json:"resources"`
	}
	if err := json.Unmarshal(files["datapackage.json"], &dp); err != nil || len(dp.Resources) != 4 {
		t.Fatalf("datapackage: %v %+v", err, dp)
	}
	for _, r := range dp.Resources {
		sum := sha256.Sum256(files[r.Path])
		if r.Hash != "sha256:"+hex.EncodeToString(sum[:]) || r.Bytes != int64(len(files[r.Path])) {
			t.Errorf("%s: hash %s, bytes %d", r.Path, r.Hash, r.Bytes)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(files["indexes/index.cdxj"])), "\n")
	if len(lines) != 5 {
		t.Errorf("index: %d lines", len(lines))
	}
	for i, l := range lines {
		if i > 0 && l < lines[i-1] {
			t.Errorf("index not sorted at %d", i)
		}
		checkIndexLine(t, files, l)
	}
	pages := strings.Split(strings.TrimSpace(string(files["pages/pages.jsonl"])), "\n")
	if len(pages) != 3 || !strings.Contains(pages[0], "json-pages-1.0") || !strings.Contains(pages[1], `"text":"made by script"`) {
		t.Errorf("pages %q", pages)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".wacz-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	theirs := map[string]cdxjLine{}
	for _, name := range []string{"archive/data-00000.warc.gz", "archive/data-00001.warc.gz"} {
		p := filepath.Join(t.TempDir(), filepath.Base(name))
		os.WriteFile(p, files[name], 0o644)
		if s := warcio(t, p); s.Types["warcinfo"] != 1 || s.Types["response"] == 0 {
			t.Errorf("%s: warcio read %v", name, s.Types)
		}
		for _, l := range warcioIndex(t, p) {
			theirs[filepath.Base(name)+" "+l.Offset] = l
		}
	}
	// Our index says what warcio's indexer says of the same records.
	for _, line := range lines {
		ours := parseCDXJ(t, line)
		w, ok := theirs[ours.Filename+" "+ours.Offset]
		if !ok || w.URLKey != ours.URLKey || w.Timestamp != ours.Timestamp || w.URL != ours.URL || w.Length != ours.Length || w.Status != ours.Status {
			t.Errorf("index line %+v, warcio's %+v", ours, w)
		}
	}
}

// cdxjLine is a CDXJ index line.
type cdxjLine struct {
	URLKey, Timestamp                             string
	URL, Status, Length, Offset, Filename, Digest string
}

func parseCDXJ(t *testing.T, line string) cdxjLine {
	t.Helper()
	parts := strings.SplitN(line, " ", 3)
	var l cdxjLine
	if len(parts) != 3 || json.Unmarshal([]byte(parts[2]), &l) != nil {
		t.Fatalf("CDXJ line %q", line)
	}
	l.URLKey, l.Timestamp = parts[0], parts[1]
	return l
}

// warcioIndex is warcio's CDXJ index of a WARC file (its cdx-index CLI).
func warcioIndex(t *testing.T, path string) []cdxjLine {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip(err)
	}
	out, err := exec.Command(node, "testdata/npm/node_modules/warcio/dist/cli.js", "cdx-index", path).Output()
	if err != nil {
		t.Fatalf("warcio cdx-index: %v", err)
	}
	var ls []cdxjLine
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		ls = append(ls, parseCDXJ(t, line))
	}
	return ls
}

// checkIndexLine reads the record a CDXJ line points at.
func checkIndexLine(t *testing.T, files map[string][]byte, line string) {
	t.Helper()
	parts := strings.SplitN(line, " ", 3)
	var f struct {
		URL, Filename, Offset, Length string
	}
	if len(parts) != 3 || json.Unmarshal([]byte(parts[2]), &f) != nil {
		t.Fatalf("index line %q", line)
	}
	var off, n int
	json.Unmarshal([]byte(f.Offset), &off)
	json.Unmarshal([]byte(f.Length), &n)
	warc := files["archive/"+f.Filename]
	if off+n > len(warc) {
		t.Fatalf("%s: offset %d+%d past %d", f.URL, off, n, len(warc))
	}
	recs, err := ReadWARC(bytes.NewReader(warc[off:off+n]), 0)
	if err != nil || len(recs) != 1 || recs[0].TargetURI() != f.URL || parts[0] != SURT(f.URL) {
		t.Errorf("index line %q: %v %d", line, err, len(recs))
	}
}

// readZip returns the files of a zip by name.
func readZip(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "archive/") && f.Method != zip.Store {
			t.Errorf("%s is compressed in the zip: replay tools read it at offsets", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

// warcio has Webrecorder's warcio read a WARC file and check its
// digests (warciotest.Read); without node or the package the test is
// skipped, except in CI.
func warcio(t *testing.T, path string) warciotest.Summary {
	t.Helper()
	s, ok := warciotest.Read(t, path)
	if !ok && len(s.Errors) == 0 && s.Records == 0 {
		t.Skip("node or warcio missing: run scripts/setup.sh")
	}
	return s
}

// TestWarcioReadsWARC has warcio read a written WARC and check all its
// digests.
func TestWarcioReadsWARC(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.warc.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := NewWARCWith(f, WARCOptions{})
	pages := recordedPages()
	for _, p := range pages {
		if err := w.WritePage(p); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	s := warcio(t, path)
	if s.Records != 15 || s.BlockDigests != 15 || s.PayloadDigests != 4 || s.Types["revisit"] != 1 {
		t.Errorf("warcio read %+v", s)
	}
	sum := sha256.Sum256(pages[0].Exchanges[1].Payload)
	if r := s.Responses[1]; r.URL != "http://example.org/page" || r.Status != 200 || r.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("warcio read the page as %+v", r)
	}
}

// TestWACZPageTitles lists the pages of a package by their own titles, as
// the browser showed them (replay tools name a page by it): a page's
// <title>, not the extraction's headline (on a hub page, its first
// story's), the extraction's only for a page stored without one; and
// finished WARC files packaged as they are (AddWARC) list their pages by
// the title of their rendered DOM.
func TestWACZPageTitles(t *testing.T) {
	pages := recordedPages()
	pages[0].PageTitle = "M\u00fcnchen \u2013 The Herald"
	pages[0].HTML = []byte("<html><head><title>M\u00fcnchen \u2013 The Herald</title></head><body><h1>M\u00fcnchen</h1>made by script</body></html>")
	dir := t.TempDir()
	warcPath := filepath.Join(dir, "round.warc.gz")
	f, err := os.Create(warcPath)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWARCWith(f, WARCOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, add := range []func(z *WACZ) error{
		func(z *WACZ) error { return errors.Join(z.AddPage(pages[0]), z.AddPage(pages[1])) },
		func(z *WACZ) error { return z.AddWARC(warcPath) },
	} {
		if i == 1 {
			if err := errors.Join(w.WritePage(pages[0]), w.WritePage(pages[1]), f.Close()); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("c%d.wacz", i))
		z, err := NewWACZ(path, WACZOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := errors.Join(add(z), z.Close()); err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, l := range strings.Split(strings.TrimSpace(string(readZip(t, path)["pages/pages.jsonl"])), "\n")[1:] {
			var p waczPage
			if err := json.Unmarshal([]byte(l), &p); err != nil {
				t.Fatal(err)
			}
			titles = append(titles, p.Title)
		}
		want := []string{"M\u00fcnchen \u2013 The Herald", "Second"}
		if i == 1 {
			want[1] = "" // its DOM has no <title>
		}
		if !slices.Equal(titles, want) {
			t.Errorf("package %d: titles %q, want %q", i, titles, want)
		}
	}
}
