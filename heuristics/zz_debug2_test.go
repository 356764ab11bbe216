package heuristics

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func TestZZDebugBlocks(t *testing.T) {
	for _, id := range strings.Fields(os.Getenv("ZZIDS")) {
		src, _ := os.ReadFile("/work/shared/data/wide-dev/html/" + id + ".html")
		gold, _ := os.ReadFile("/work/shared/data/wide-dev/gold/" + id + ".txt")
		tr, _ := treediff.Parse(id, src, treediff.ParseOptions{})
		p := newPage(tr, SingleOptions{}.withDefaults())
		r, err := ExtractSingle(tr, SingleOptions{Source: src})
		fmt.Printf("=== %s err=%v sel=%s\n  TITLE %q\n  BODY %.300q\n  GOLD %.300q\n", id, err, r.Selector, r.Title, r.Body, string(gold))
		gw := wordSet(string(gold))
		for i, b := range p.blocks {
			hit := 0
			for w := range wordSet(b.text) {
				if gw[w] {
					hit++
				}
			}
			if b.words >= 8 && float64(hit) >= 0.8*float64(len(wordSet(b.text))) {
				fmt.Printf("  [%d] cls=%d w=%d lw=%d cue=%v weak=%v code=%v %s: %.80q\n", i, b.class, b.words, b.linkWords, b.cue, b.weak, b.code, CSSSelector(b.container), b.text)
			}
		}
	}
}
