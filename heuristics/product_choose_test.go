package heuristics

import (
	"testing"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/singlepage"
)

// TestExtractProductAlone extracts product pages of one template against
// each other: their reviews differ from page to page as much as their
// descriptions, so the pair diff keeps them, confidently; the page's type
// sends it to the single-page method, whose body (the description) is
// what the page gets.
func TestExtractProductAlone(t *testing.T) {
	for _, c := range bothWays {
		t.Run(c.page, func(t *testing.T) {
			page, src, want, medoid := testdataPair(t, "product", c.page, c.medoid)
			if typ, _ := pagetype.Classify(page, src); typ != pagetype.Product {
				t.Fatalf("page type %q, want %q", typ, pagetype.Product)
			}
			pr, err := PairDiff(page, medoid, PairOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if pr.Confidence < DefaultMinConfidence || singlepage.NormWords(pr.Body) == singlepage.NormWords(want) {
				t.Fatalf("pair diff %.3f %q: want it confident and wider than %q", pr.Confidence, pr.Body, want)
			}
			r, err := Extract(Input{Page: page, Src: src, Medoid: medoid}, ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Method != singlepage.MethodSingle || singlepage.NormWords(r.Body) != singlepage.NormWords(want) {
				t.Errorf("method %q body %q, want the single-page method's %q", r.Method, r.Body, want)
			}
		})
	}
}
