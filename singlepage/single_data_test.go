package singlepage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/treediff"
)

type big9Page struct {
	name string
	src  []byte
	tree *treediff.Tree
}

func loadBig9(tb testing.TB) []big9Page {
	dir := filepath.Join(shareddata.Dir(tb, "big9-dev"), "html")
	ents, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var pages []big9Page
	for _, e := range ents {
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		t, err := treediff.Parse(e.Name(), src, treediff.ParseOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, big9Page{e.Name(), src, t})
	}
	return pages
}

// BenchmarkExtractSingle measures pages/s of Extract on parsed
// big9-dev pages (parsing excluded).
func BenchmarkExtractSingle(b *testing.B) {
	pages := loadBig9(b)
	b.ResetTimer()
	n := 0
	for b.Loop() {
		p := pages[n%len(pages)]
		n++
		if _, err := Extract(p.tree, Options{Source: p.src}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
}
