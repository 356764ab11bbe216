package singlepage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// FuzzExtractSingle checks that any page parses and extracts without a
// panic, with a body drawn from the page's own text and a confidence in
// [0, 1]. Seeds: the testdata pages and a few broken ones.
func FuzzExtractSingle(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "single", "*.html"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "<", "<html><body><p>", "<a><a><a>x</a>", "<table><td><br><br><br>text<br>",
		`<div class="comments"><p>` + strings.Repeat("word ", 40) + `</p></div>`,
		`<script type="application/ld+json">{"author":[[[{"name":1}]]]}</script><p>x</p>`,
		"<h1>T</h1><h1>T</h1><p>T T T T T T T T T T T T T</p>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := treediff.Parse("fuzz", src, treediff.ParseOptions{MaxNodes: 20000})
		if err != nil {
			return
		}
		r, err := Extract(tr, Options{Source: src})
		if err != nil {
			return
		}
		if r.Confidence < 0 || r.Confidence > 1 {
			t.Errorf("confidence %v", r.Confidence)
		}
		if r.Node != nil && r.Selector == "" {
			t.Error("node without selector")
		}
		text := strings.Join(strings.Fields(tr.Root.Text()), " ")
		for _, para := range strings.Split(r.Body, "\n\n") {
			for _, w := range treediff.Words(para) {
				if !strings.Contains(text, w.Text) {
					t.Fatalf("body word %q not in the page", w.Text)
				}
			}
		}
	})
}
