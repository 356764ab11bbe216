package heuristics

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func TestZZDebugShare(t *testing.T) {
	for _, id := range strings.Fields(os.Getenv("ZZIDS")) {
		src, _ := os.ReadFile("/work/shared/data/wide-dev/html/" + id + ".html")
		tr, _ := treediff.Parse(id, src, treediff.ParseOptions{})
		opt := SingleOptions{}.withDefaults()
		p := buildPage(tr, opt, nil)
		prefix := make([]float64, len(p.blocks)+1)
		for i, b := range p.blocks {
			w := 0.0
			if b.class == classGood {
				w = float64(b.words) * (1 - b.linkDensity())
			}
			prefix[i+1] = prefix[i] + w
		}
		total := prefix[len(p.blocks)]
		fmt.Printf("=== %s total prose %.0f\n", id, total)
		for _, n := range tr.Nodes {
			if n.Kind != treediff.Element || cueOf(n) == noCue {
				continue
			}
			s := prefix[p.end[n.Index]] - prefix[p.first[n.Index]]
			if s/total > 0.1 {
				fmt.Printf("  %.2f cue=%d %s\n", s/total, cueOf(n), CSSSelector(n))
			}
		}
	}
}
