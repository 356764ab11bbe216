package pageextract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const story = `<html lang="en"><head><title>Council delays the river vote - News</title></head><body>
<nav><a href="/">Home</a> <a href="/local">Local</a></nav>
<article><h1>Council delays the river vote</h1>
<p>The city council delayed its vote on the river crossing until next month, after residents asked for more time to study the plans.</p>
<p>The bridge would link the two halves of the old town, the mayor said on Tuesday, and work could begin next spring if the council agrees.</p>
<p>Opponents fear the traffic it would bring to the narrow streets near the market, where shops already struggle with deliveries.</p>
</article><footer>© News</footer></body></html>`

// TestExtract extracts a page read from a reader and from a file by the
// single-page method, against a medoid, and says why when a store is
// given without a site; a page URL that names no site is ErrPageURL.
func TestExtract(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "story.html")
	if err := os.WriteFile(file, []byte(story), 0o644); err != nil {
		t.Fatal(err)
	}
	fromReader, err := Read("-", "", strings.NewReader(story))
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := ReadFile(file, "https://news.example/council")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		page      *Page
		opt       Options
		method    string
		templates string
	}{
		{"reader, single page", fromReader, Options{}, "single-page", ""},
		{"file, medoid", fromFile, Options{Medoid: file}, "", ""},
		{"store without a site", fromReader, Options{DB: filepath.Join(dir, "g.db")}, "single-page", "no site named"},
	} {
		res, err := Extract(ctx, tc.page, tc.opt)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(res.Body, "river crossing") || res.Title != "Council delays the river vote" || res.Meta == nil ||
			tc.method != "" && res.Method != tc.method || !strings.Contains(res.Templates, tc.templates) || res.Page != tc.page.Name {
			t.Errorf("%s: %+v", tc.name, res)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "g.db")); err == nil {
		t.Error("a store was made for a page of no site")
	}
	bad := &Page{Name: "-", URL: "not a url", Src: []byte(story)}
	if _, err := Extract(ctx, bad, Options{DB: filepath.Join(dir, "g.db")}); !errors.Is(err, ErrPageURL) {
		t.Errorf("bad URL: %v, want ErrPageURL", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none.html"), ""); err == nil {
		t.Error("missing file read")
	}
}
