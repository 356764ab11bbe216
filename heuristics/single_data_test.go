package heuristics

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// big9Dir finds ../shared/data/big9-dev by walking up from the package
// directory; the test is skipped only when the folder is absent.
func big9Dir(tb testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "data", "big9-dev")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("shared/data/big9-dev not found above the package directory")
		}
		dir = parent
	}
}

type big9Page struct {
	name string
	src  []byte
	tree *treediff.Tree
}

func loadBig9(tb testing.TB) []big9Page {
	dir := filepath.Join(big9Dir(tb), "html")
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

// BenchmarkExtractSingle measures pages/s of ExtractSingle on parsed
// big9-dev pages (parsing excluded).
func BenchmarkExtractSingle(b *testing.B) {
	pages := loadBig9(b)
	b.ResetTimer()
	n := 0
	for b.Loop() {
		p := pages[n%len(pages)]
		n++
		if _, err := ExtractSingle(p.tree, SingleOptions{Source: p.src}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
}
