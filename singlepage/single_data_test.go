package singlepage

import (
	"testing"

	"github.com/gleaner/gleaner/internal/sharedpages"
)

// BenchmarkExtractSingle measures pages/s of Extract on parsed
// big9-dev pages (parsing excluded).
func BenchmarkExtractSingle(b *testing.B) {
	pages := sharedpages.Pages(b, "big9-dev")
	b.ResetTimer()
	n := 0
	for b.Loop() {
		p := pages[n%len(pages)]
		n++
		if _, err := Extract(p.Tree, Options{Source: p.Src}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
}
