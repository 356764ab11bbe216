package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gleaner/gleaner/browser"
)

// extractOne runs `gleaner extract` on one page with --json and decodes it.
func extractOne(t *testing.T, args ...string) extractPageJSON {
	t.Helper()
	code, out, errs := runGleaner(append([]string{"extract", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var got extractPageJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return got
}

func TestExtractOneStdin(t *testing.T) {
	src, err := os.ReadFile(storyFile("2"))
	if err != nil {
		t.Fatal(err)
	}
	old := stdin
	t.Cleanup(func() { stdin = old })
	stdin = strings.NewReader(string(src))
	got := extractOne(t, "-", "--url", "http://news.example/council")
	if got.Page != "-" || got.Method != "single-page" || got.Title != "Council delays the river vote" ||
		got.Date != "2024-03-02T10:00:00Z" || got.Author != "Ann Writer" || len(strings.Fields(got.Body)) < 100 {
		t.Errorf("extraction %+v", got)
	}
	// The page's metadata, with its sources, beside the extraction.
	if m := got.Meta; m == nil || m.Published != got.Date || m.Sources.Published != "meta" || len(m.Authors) != 1 ||
		m.Authors[0] != "Ann Writer" || m.Lang != "en" || m.Sources.Lang != "text" {
		t.Errorf("meta %+v", got.Meta)
	}
}

// TestExtractOneCharset checks that an undeclared Shift_JIS page is read as
// Japanese, that --charset forces a decoding, and that binary input is an
// error naming the file.
func TestExtractOneCharset(t *testing.T) {
	page := filepath.Join("..", "..", "treediff", "testdata", "charset", "shiftjis.html")
	if got := extractOne(t, page); !strings.Contains(got.Body+got.Title, "電車") {
		t.Errorf("undeclared Shift_JIS: %+v", got)
	}
	if got := extractOne(t, page, "--charset", "windows-1252"); strings.Contains(got.Body+got.Title, "電車") {
		t.Errorf("--charset windows-1252 ignored: %+v", got)
	}
	bin := filepath.Join("..", "..", "treediff", "testdata", "charset", "binary.bin")
	if code, _, errs := runGleaner("extract", bin); code != 1 || !strings.Contains(errs, "binary.bin") || !strings.Contains(errs, "not text") {
		t.Errorf("binary: exit %d, %s", code, errs)
	}
	if code, _, errs := runGleaner("extract", page, "--charset", "klingon"); code != 1 || !strings.Contains(errs, "klingon") {
		t.Errorf("unknown charset: exit %d, %s", code, errs)
	}
}

// TestExtractOneWithTemplates checks that a page of a site whose templates
// are learned in --db is compared with its nearest template's medoid, and
// that the output says so.
func TestExtractOneWithTemplates(t *testing.T) {
	db := learnDB(t)
	if code, _, errs := runGleaner("learn", "--db", db, "--seed", "3"); code != 0 {
		t.Fatalf("learn: exit %d: %s", code, errs)
	}
	page := filepath.Join("..", "..", "cluster", "testdata", "sites", "a-2.html")
	for _, args := range [][]string{
		{page, "--db", db, "--url", "http://ab.test/news/new", "--min-confidence", "0.2"},
		{page, "--db", db, "--site", "ab.test", "--min-confidence", "0.2"},
	} {
		got := extractOne(t, args...)
		if got.Method == "single-page" || !strings.Contains(got.Templates, "template") || got.Body == "" {
			t.Errorf("%v: %+v", args, got)
		}
	}
	// A site without templates there: the single-page method, said.
	got := extractOne(t, page, "--db", db, "--url", "http://elsewhere.test/x")
	if got.Method != "single-page" || !strings.Contains(got.Templates, "no learned templates") {
		t.Errorf("unknown site: %+v", got)
	}
}

// storyServer serves the pair-diff test story on 127.0.0.1, with one
// paragraph written by a script.
func storyServer(t *testing.T) *httptest.Server {
	src, err := os.ReadFile(storyFile("2"))
	if err != nil {
		t.Fatal(err)
	}
	script := `<script>var p = document.createElement('p'); p.textContent = 'Paragraph written by script for the council story, long enough to count as text of the story body.'; document.querySelector('.story-body').appendChild(p);</script></body>`
	page := strings.Replace(string(src), "</body>", script, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(ts.Close)
	return ts
}

func TestExtractOneURLPlain(t *testing.T) {
	ts := storyServer(t)
	got := extractOne(t, ts.URL+"/council", "--plain", "--allow-host", ts.Listener.Addr().String())
	if got.Title != "Council delays the river vote" || len(strings.Fields(got.Body)) < 100 || strings.Contains(got.Body, "written by script") {
		t.Errorf("plain fetch: %+v", got)
	}
}

func TestExtractOneURLRendered(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Skip(err)
	}
	ts := storyServer(t)
	got := extractOne(t, ts.URL+"/council", "--allow-host", ts.Listener.Addr().String())
	if got.Title != "Council delays the river vote" || !strings.Contains(got.Body, "written by script") {
		t.Errorf("rendered: %+v", got)
	}
	// The same page gives the same metadata plain or rendered.
	plain := extractOne(t, ts.URL+"/council", "--plain", "--allow-host", ts.Listener.Addr().String())
	if got.Meta == nil || plain.Meta == nil || got.Meta.Title != plain.Meta.Title || got.Meta.Published != plain.Meta.Published ||
		strings.Join(got.Meta.Authors, ",") != strings.Join(plain.Meta.Authors, ",") || got.Meta.Published == "" {
		t.Errorf("rendered meta %+v, plain %+v", got.Meta, plain.Meta)
	}
}

// TestExtractOneURLGuarded: `gleaner extract URL`, rendered and plain,
// fetches what a crawl may: a page on loopback not allowed is refused (the
// command fails naming it, its server sees nothing), and so is a redirect
// from an allowed page to another loopback port.
func TestExtractOneURLGuarded(t *testing.T) {
	var hits atomic.Int64
	forbidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><p>secret</p></body></html>")
	}))
	t.Cleanup(forbidden.Close)
	front := httptest.NewServer(http.RedirectHandler(forbidden.URL+"/secret", http.StatusFound))
	t.Cleanup(front.Close)
	modes := [][]string{{"--plain"}}
	if _, err := browser.FindChromium(); err == nil {
		modes = append(modes, nil)
	}
	for _, mode := range modes {
		for _, args := range [][]string{
			{forbidden.URL + "/admin"},
			{front.URL + "/away", "--allow-host", front.Listener.Addr().String()},
		} {
			args = append(append([]string{"extract"}, args...), mode...)
			code, _, errs := runGleaner(args...)
			if code == 0 || !strings.Contains(errs, "refused") {
				t.Errorf("%q: exit %d, %s; want a refusal", args, code, errs)
			}
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the port not allowed", n)
	}
}

// TestExtractOneURLErrorStatus: an HTTP error status fails the command
// with an error naming the URL and the status, unless --keep-errors.
func TestExtractOneURLErrorStatus(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<html><head><title>Not found</title></head><body><p>No page here, sorry; try the home page of the site.</p></body></html>")
	}))
	t.Cleanup(ts.Close)
	allow := []string{"--allow-host", ts.Listener.Addr().String()}
	modes := [][]string{{"--plain"}}
	if _, err := browser.FindChromium(); err == nil {
		modes = append(modes, nil)
	}
	for _, mode := range modes {
		args := append(append([]string{"extract", ts.URL + "/gone"}, allow...), mode...)
		code, _, errs := runGleaner(args...)
		if code == 0 || !strings.Contains(errs, ts.URL+"/gone") || !strings.Contains(errs, "404") {
			t.Errorf("%q: exit %d, stderr %q; want a failure naming the URL and 404", args, code, errs)
		}
		code, out, errs := runGleaner(append(args, "--keep-errors")...)
		if code != 0 || !strings.Contains(out, "Not found") {
			t.Errorf("%q --keep-errors: exit %d, %s %s", args, code, out, errs)
		}
	}
}
