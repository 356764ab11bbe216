package treediff

import (
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: no panic, and when a page
// parses, both views write bracket trees that read back node for node.
// Seeds: testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte("<html><body><p>Hello <b>world</b></p></body></html>"))
	f.Add([]byte("<table><td>a<tr><td>b</table><a>x<a>y"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := Parse("fuzz", src, ParseOptions{MaxNodes: 20_000})
		if err != nil {
			return
		}
		for _, v := range []View{TagView, TokenView} {
			view := tr.View(v)
			for i, n := range view.Nodes {
				if n.Index != i || (n.Parent == nil) != (i == 0) {
					t.Fatalf("%s view: node %d badly linked", v, i)
				}
			}
			back, err := ParseBracket("back", view.Bracket())
			if err != nil {
				t.Fatalf("%s view does not read back: %v", v, err)
			}
			if back.Len() != view.Len() {
				t.Fatalf("%s view: %d nodes, read back %d", v, view.Len(), back.Len())
			}
			for i, n := range back.Nodes {
				if n.Label != view.Nodes[i].Label {
					t.Fatalf("%s view: label %q read back as %q", v, view.Nodes[i].Label, n.Label)
				}
			}
		}
	})
}

// FuzzTED reads two bracket trees and checks Distance and Mapping against
// each other, symmetry, bounds, and the brute force on tiny trees. Seeds:
// testdata/fuzz/FuzzTED.
func FuzzTED(f *testing.F) {
	f.Add("{a{b}{c}}", "{a{c}{b}}", false)
	f.Add("{a{#b}{c}}", "{a{b}{#c}}", true)
	f.Fuzz(func(t *testing.T, sa, sb string, kinds bool) {
		a, errA := ParseBracket("a", sa)
		b, errB := ParseBracket("b", sb)
		if errA != nil || errB != nil || a.Len() > 300 || b.Len() > 300 {
			return
		}
		a, b = asKinds(a), asKinds(b)
		opt := Options{CompareKinds: kinds}
		d, err := Distance(a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if d2, err := Distance(b, a, opt); err != nil || d2 != d {
			t.Fatalf("not symmetric: %d, %d (%v)", d, d2, err)
		}
		if d < abs(a.Len()-b.Len()) || d > a.Len()+b.Len() {
			t.Fatalf("distance %d out of bounds for sizes %d, %d", d, a.Len(), b.Len())
		}
		dm, m, err := Mapping(a, b, opt)
		if err != nil || dm != d {
			t.Fatalf("Mapping distance %d, Distance %d (%v)", dm, d, err)
		}
		checkMapping(t, a, b, d, m, opt)
		if a.Len() <= 8 && b.Len() <= 8 {
			if want := bruteDistance(bruteOf(a), bruteOf(b), kinds, map[string]int{}); d != want {
				t.Fatalf("distance %d, brute force %d", d, want)
			}
		}
	})
}
