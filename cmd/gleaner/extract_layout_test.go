package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/browser"
)

// TestExtractCommandReadsLayout renders a page whose article holds a
// paragraph the stylesheet hides, and extracts it from the store: the
// stored layout keeps the hidden paragraph out of the body.
func TestExtractCommandReadsLayout(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Skip(err)
	}
	const shown = "The harbour council approved the new ferry timetable after a long public meeting on Tuesday evening, where residents asked for more crossings in winter and a later last boat on Fridays."
	const hidden = "Summary for the app only: a different story about the football club selling its old stadium to a developer who plans flats, shops and a small park along the river bank."
	mux := http.NewServeMux()
	mux.HandleFunc("/story", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Ferry timetable</title><style>.m-summary{display:none}</style></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Ferry timetable</h1><div class="m-summary"><p>%s</p></div><p>%s</p><p>%s</p></article>
</body></html>`, hidden, shown, shown)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	db := filepath.Join(t.TempDir(), "g.db")
	if code, out, errs := runGleaner("render", "--db", db, "--tabs", "1", "--allow-host", hostOf(ts.URL), ts.URL+"/story"); code != 0 {
		t.Fatalf("render: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs := runGleaner("extract", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("extract: exit %d: %s", code, errs)
	}
	var got struct {
		Sites []extractSiteJSON `json:"sites"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Sites) != 1 || len(got.Sites[0].Pages) != 1 {
		t.Fatalf("extractions %+v", got.Sites)
	}
	body := got.Sites[0].Pages[0].Body
	if !strings.Contains(body, "ferry timetable") || strings.Contains(body, "football club") {
		t.Errorf("body read without the layout:\n%s", body)
	}
}
