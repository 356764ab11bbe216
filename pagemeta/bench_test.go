package pagemeta_test

import (
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// benchPages are the first 100 wcxb-dev pages, parsed.
func benchPages(b *testing.B) ([]*treediff.Tree, [][]byte, []string) {
	m, err := dataset.ReadManifest(filepath.Join(shareddata.Dir(b, "wcxb-dev"), "manifest.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	var trees []*treediff.Tree
	var srcs [][]byte
	var urls []string
	for _, e := range m.Entries[:min(100, len(m.Entries))] {
		src, err := dataset.ReadPage(m.HTMLFile(e), 0)
		if err != nil {
			b.Fatal(err)
		}
		t, err := treediff.Parse(e.ID, src, treediff.ParseOptions{})
		if err != nil {
			b.Fatal(err)
		}
		trees, srcs, urls = append(trees, t), append(srcs, src), append(urls, e.URL)
	}
	return trees, srcs, urls
}

// BenchmarkExtract measures pagemeta.Extract per page beside the
// single-page extraction it adds to (one page per op, parsing excluded).
func BenchmarkExtract(b *testing.B) {
	trees, srcs, urls := benchPages(b)
	b.Run("pagemeta", func(b *testing.B) {
		n := 0
		for b.Loop() {
			i := n % len(trees)
			pagemeta.Extract(trees[i], srcs[i], pagemeta.Options{URL: urls[i]})
			n++
		}
	})
	b.Run("single", func(b *testing.B) {
		n := 0
		for b.Loop() {
			i := n % len(trees)
			_, _ = singlepage.Extract(trees[i], singlepage.Options{Source: srcs[i], SecondOpinionBelow: -1})
			n++
		}
	})
}
