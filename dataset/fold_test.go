package dataset

import (
	"fmt"
	"testing"
)

func TestSiteFold(t *testing.T) {
	seen := map[int]int{}
	for i := range 100 {
		site := fmt.Sprintf("site%d.example", i)
		f := SiteFold(site, 5)
		if f < 0 || f >= 5 || SiteFold(site, 5) != f {
			t.Fatalf("SiteFold(%q, 5) = %d, not one stable fold in [0, 5)", site, f)
		}
		seen[f]++
	}
	if len(seen) != 5 {
		t.Errorf("100 sites fall in %d of 5 folds", len(seen))
	}
	if SiteFold("a.example", 0) != 0 {
		t.Error("no folds: want fold 0")
	}
}
