package heuristics

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func TestZZDebugCues(t *testing.T) {
	ids := strings.Fields(os.Getenv("ZZIDS"))
	for _, id := range ids {
		src, err := os.ReadFile("/work/shared/data/wide-dev/html/" + id + ".html")
		if err != nil {
			t.Fatal(err)
		}
		gold, _ := os.ReadFile("/work/shared/data/wide-dev/gold/" + id + ".txt")
		// longest gold paragraph
		var longest string
		for _, p := range strings.Split(string(gold), "\n") {
			if len(p) > len(longest) {
				longest = p
			}
		}
		probe := longest
		if len(probe) > 40 {
			probe = probe[:40]
		}
		tr, err := treediff.Parse(id, src, treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("== %s probe %q\n", id, probe)
		var hit *treediff.Node
		ws := strings.Fields(probe)
		if len(ws) > 4 {
			ws = ws[:4]
		}
		key := strings.Join(ws, " ")
		for _, n := range tr.Nodes {
			if n.Kind == treediff.Text && strings.Contains(strings.Join(strings.Fields(n.Label), " "), key) {
				hit = n
				break
			}
		}
		if hit == nil {
			fmt.Println("  not found")
			continue
		}
		for a := hit.Parent; a != nil; a = a.Parent {
			c, _ := a.Attr("class")
			i, _ := a.Attr("id")
			r, _ := a.Attr("role")
			cue := cueOf(a)
			mark := ""
			if cue != noCue || hidden(a) {
				mark = fmt.Sprintf("  <== cue %d hidden %v", cue, hidden(a))
			}
			fmt.Printf("  %s class=%q id=%q role=%q%s\n", a.Label, c, i, r, mark)
		}
	}
}
