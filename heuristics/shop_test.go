package heuristics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// TestPairDiffShopZones: two product pages of one template differ in
// their description and also in their reviews and rails of other
// products; the pair diff keeps all that differs, and the body is read as
// the single-page method reads a product page: without its shop zones.
func TestPairDiffShopZones(t *testing.T) {
	tests := []struct {
		page, medoid  string
		want, notWant []string
	}{
		{"product-2.html", "product-1.html",
			[]string{"The Canyon Pack carries", "Stretch front pocket"},
			[]string{"canyon trails", "Valley pack model", "roomy pack", "Based on"}},
	}
	for _, tt := range tests {
		page, src := productPage(t, tt.page)
		medoid, _ := productPage(t, tt.medoid)
		// The pair diff decides, whatever its confidence.
		r, err := Extract(Input{Page: page, Src: src, Medoid: medoid}, ExtractOptions{MinConfidence: 0.01})
		if err != nil {
			t.Fatalf("%s: %v", tt.page, err)
		}
		for _, w := range tt.want {
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

func productPage(t *testing.T, name string) (*treediff.Tree, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "pair", name))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := treediff.Parse(name, src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr, src
}
