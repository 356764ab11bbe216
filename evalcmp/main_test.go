package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/internal/shareddata"
)

var mini = filepath.Join("..", "eval", "testdata", "mini", "manifest.tsv")

func TestCompareMini(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"--manifest", mini}, &out, &errb); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	for _, want := range []string{"F1 single", "F1 trafilatura", "exact single", "gazette", "times", "overall", "trafilatura: ",
		"source", "P trafilatura", "R single", "2005", "2024"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"--manifest", mini, "--json", "--methods", "trafilatura,single,block"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	var c comparison
	if err := json.Unmarshal(out.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Reports) != 3 || c.Reports[0].Method != "trafilatura" || c.Reports[1].Method != "single" || c.Reports[2].Method != "block" {
		t.Fatalf("reports = %+v", c.Reports)
	}
	// Both really extracted the readable pages: the unreadable one is the
	// only error, and go-trafilatura found the bridge story.
	for _, r := range c.Reports {
		if r.Overall.Errors != 1 || r.Overall.Exact < 1 || len(r.Sources) != 2 {
			t.Errorf("%s: overall %+v", r.Method, r.Overall)
		}
	}
}

func TestTrafilaturaDoc(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "eval", "testdata", "mini", "html", "bridge.html"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := trafilaturaDoc(eval.Doc{Page: eval.Page{ID: "bridge"}, Src: src})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Body, "The city council voted on Tuesday") || strings.Contains(r.Body, "Most read") {
		t.Errorf("trafilatura body %q", r.Body)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--manifest", mini, "--methods", "magic"}, {"--manifest", mini, "x"}} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, &out, &errb); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// big9 returns the big9-dev documents, found by walking up to the folder
// holding shared/; it skips only when the folder is absent.
func big9(b *testing.B) []eval.Doc {
	ds, err := eval.LoadDataset(filepath.Join(shareddata.Dir(b, "big9-dev"), "manifest.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]eval.Doc, len(ds.Pages))
	for i, pg := range ds.Pages {
		docs[i] = eval.Doc{Page: pg, Src: ds.Src[i]}
	}
	return docs
}

// BenchmarkSingle and BenchmarkTrafilatura measure pages/s of each
// extractor on the big9-dev pages, parsing included, one page per op.
func BenchmarkSingle(b *testing.B) {
	docs := big9(b)
	n := 0
	for b.Loop() {
		if _, err := eval.SingleDoc(docs[n%len(docs)]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
}

func BenchmarkTrafilatura(b *testing.B) {
	docs := big9(b)
	n := 0
	for b.Loop() {
		if _, err := trafilaturaDoc(docs[n%len(docs)]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
}

func TestSnippetRates(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	metas := map[string]string{
		"a": `{"with": ["the story", "the end"], "without": ["Login"]}`,
		"b": `{"with": ["second page"], "without": []}`,
	}
	for id, js := range metas {
		if err := os.WriteFile(filepath.Join(dir, "meta", id+".json"), []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snip, err := loadSnippets(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	pages := []eval.PageResult{
		{PageScore: eval.PageScore{ID: "a"}, Source: "article", Text: "Login. The story goes on."},
		{PageScore: eval.PageScore{ID: "b"}, Source: "forum", Text: "The second page."},
		{PageScore: eval.PageScore{ID: "c"}, Source: "forum", Text: "no snippets"},
	}
	got := snippetRates(pages, snip)
	tests := []struct {
		key  string
		want snippetSummary
	}{
		{"", snippetSummary{With: 0.75, WithPages: 2, Without: 0, WithoutPage: 1}},
		{"article", snippetSummary{With: 0.5, WithPages: 1, Without: 0, WithoutPage: 1}},
		{"forum", snippetSummary{With: 1, WithPages: 1}},
	}
	for _, tt := range tests {
		if got[tt.key] != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.key, got[tt.key], tt.want)
		}
	}
	if s, err := loadSnippets(filepath.Join(t.TempDir(), "manifest.tsv")); s != nil || err != nil {
		t.Errorf("no meta folder: %v %v", s, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meta", "bad.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadSnippets(filepath.Join(dir, "manifest.tsv")); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("bad meta file: error %v", err)
	}
}
