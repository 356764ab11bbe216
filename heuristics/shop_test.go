package heuristics

import (
	"strings"
	"testing"
)

// TestPairDiffShopZones: two product pages of one template differ in
// their description and also in their reviews and rails of other
// products; the pair diff keeps all that differs, and the body is read as
// the single-page method reads a product page: without its shop zones.
func TestPairDiffShopZones(t *testing.T) {
	tests := []struct {
		page, medoid string
		notWant      []string
	}{
		{"product-2", "product-1", []string{"canyon trails", "Valley pack model", "roomy pack", "Based on"}},
	}
	for _, tt := range tests {
		page, src, body := testdataPage(t, "pair", tt.page)
		medoid, _, _ := testdataPage(t, "pair", tt.medoid)
		// The pair diff decides, whatever its confidence.
		r, err := Extract(Input{Page: page, Src: src, Medoid: medoid}, ExtractOptions{MinConfidence: 0.01})
		if err != nil {
			t.Fatalf("%s: %v", tt.page, err)
		}
		for _, w := range strings.Split(strings.TrimSpace(body), "\n\n") {
			if !strings.Contains(r.Body, w) {
				t.Errorf("%s (%s): body lacks %q:\n%s", tt.page, r.Method, w, r.Body)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(r.Body, w) {
				t.Errorf("%s (%s): body holds %q:\n%s", tt.page, r.Method, w, r.Body)
			}
		}
	}
}
