package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/pagemeta"
)

var metaManifest = filepath.Join("testdata", "meta", "manifest.tsv")

// TestMetaCompare scores two articles: Gleaner reads both titles and both
// author lists; it reads a1's date and gets a2's wrong (the gold's date is
// not the byline's), which the date sources show.
func TestMetaCompare(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"--manifest", metaManifest, "--meta", "article", "--json"}, &out, &errb); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	var r metaReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Pages != 2 {
		t.Errorf("pages = %d, want 2 (the product page is not an article)", r.Pages)
	}
	want := map[string]tally{"date": {2, 1, 0, 1}, "author": {2, 2, 0, 0}, "title": {2, 2, 0, 0}}
	for f, w := range want {
		if got := *r.Fields[f]["gleaner"]; got != w {
			t.Errorf("%s: gleaner %+v, want %+v", f, got, w)
		}
		if got := r.Fields[f]["trafilatura"].Gold; got != w.Gold {
			t.Errorf("%s: trafilatura scored on %d pages, want %d", f, got, w.Gold)
		}
	}
	if r.DateSources["json-ld"] != 1 || r.DateSources["byline"] != 1 {
		t.Errorf("date sources %v", r.DateSources)
	}
	out.Reset()
	if err := run(context.Background(), []string{"--manifest", metaManifest, "--meta", "all"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"title", "trafilatura", "date sources", "declared>identified", "3 pages"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, out.String())
		}
	}
}

func TestSameAuthors(t *testing.T) {
	cases := []struct {
		gold, got string
		want      bool
	}{
		{"Dylan Bailey, MS, RD, FAND", "Dylan Bailey", true},
		{"Moses Kim and Kate Shokurova", "Moses Kim, Kate Shokurova", true},
		{"Jane Doe", "Jane Doe, Times Staff Writer", false},
		{"Jane Doe", "", false},
		{"Ann Lee, Bo Chen", "Bo Chen", false},
	}
	for _, c := range cases {
		if got := sameAuthors(c.gold, c.got); got != c.want {
			t.Errorf("sameAuthors(%q, %q) = %v", c.gold, c.got, got)
		}
	}
	if !sameDay("2025-09", "2025-09-14") || sameDay("2025-09-04", "2025-09-05T01:00Z") || !pagemeta.SameTitle("It’s — fine", "it's - Fine") {
		t.Error("sameDay or sameTitle")
	}
}
