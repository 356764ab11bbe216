package treediff

import (
	"math"
	"testing"
)

func TestPQGramProfile(t *testing.T) {
	tests := []struct {
		tree string
		size int // |profile|: one gram per leaf, f+q−1 per node of f children
	}{
		{"{a}", 1},
		{"{a{b}}", 1 + 3},
		{"{a{b}{c}}", 2 + 4},
		{"{a{b{d}{e}}{c}}", 3 + 4 + 4},
	}
	for _, tc := range tests {
		tr, err := ParseBracket(tc.tree, tc.tree)
		if err != nil {
			t.Fatal(err)
		}
		p := Profile(tr)
		if len(p) != tc.size {
			t.Errorf("%s: %d pq-grams, want %d", tc.tree, len(p), tc.size)
		}
		for i := 1; i < len(p); i++ {
			if p[i-1] > p[i] {
				t.Fatalf("%s: profile not sorted", tc.tree)
			}
		}
	}
	if p := Profile(&Tree{}); p != nil {
		t.Errorf("empty tree: profile %v", p)
	}
}

func TestPQGramDistance(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       float64 // -1: only checked against the others below
	}{
		{"identical", "{a{b}{c{d}}}", "{a{b}{c{d}}}", 0},
		{"disjoint labels", "{a{b}}", "{x{y}}", 1},
		// {a{b}{c}}: 6 grams; {a{c}{b}}: the same leaves, other windows.
		{"siblings swapped", "{a{b}{c}}", "{a{c}{b}}", 1 - 2*2.0/12},
		{"one leaf added", "{a{b}{c}}", "{a{b}{c}{d}}", -1},
		{"three leaves added", "{a{b}{c}}", "{a{b}{c}{d}{e}{f}}", -1},
	}
	got := map[string]float64{}
	for _, tc := range tests {
		a, _ := ParseBracket("a", tc.a)
		b, _ := ParseBracket("b", tc.b)
		pa, pb := Profile(a), Profile(b)
		d := pa.Distance(pb)
		if d != pb.Distance(pa) {
			t.Errorf("%s: not symmetric", tc.name)
		}
		if d < 0 || d > 1 {
			t.Errorf("%s: distance %v outside [0, 1]", tc.name, d)
		}
		if tc.want >= 0 && math.Abs(d-tc.want) > 1e-12 {
			t.Errorf("%s: distance %v, want %v", tc.name, d, tc.want)
		}
		got[tc.name] = d
	}
	// More edits, farther.
	if !(0 < got["one leaf added"] && got["one leaf added"] < got["three leaves added"]) {
		t.Errorf("one leaf added %v, three %v: want 0 < one < three", got["one leaf added"], got["three leaves added"])
	}
	if d := PQGrams(nil).Distance(nil); d != 0 {
		t.Errorf("empty profiles: %v", d)
	}
}

// TestPQGramTracksTED checks that on pairs of growing edit distance the
// pq-gram distance grows too.
func TestPQGramTracksTED(t *testing.T) {
	type pair struct{ ted, pq float64 }
	var ps []pair
	for _, tc := range []struct{ a, b string }{
		{"{a{b}{c}{d}}", "{a{b}{c}{d}}"},
		{"{a{b}{c}{d}}", "{a{b}{c}{x}}"},
		{"{a{b}{c}{d}}", "{a{b}{x}{y}}"},
		{"{a{b}{c}{d}}", "{a{x}{y}{z}}"},
	} {
		a, _ := ParseBracket("a", tc.a)
		b, _ := ParseBracket("b", tc.b)
		d, err := Distance(a, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, pair{float64(d), Profile(a).Distance(Profile(b))})
	}
	for i := 1; i < len(ps); i++ {
		if !(ps[i].ted > ps[i-1].ted && ps[i].pq > ps[i-1].pq) {
			t.Errorf("pair %d: TED %v pq %v after TED %v pq %v: want both larger", i, ps[i].ted, ps[i].pq, ps[i-1].ted, ps[i-1].pq)
		}
	}
}

func BenchmarkProfile(b *testing.B) {
	tr := sectionTree(20000)
	for b.Loop() {
		Profile(Reduce(tr, ReduceOptions{}))
	}
}

// sectionTree is a page-like tree of about n nodes: sections of varied lists.
func sectionTree(n int) *Tree {
	tr := &Tree{Name: "wide"}
	root := &Node{Kind: Element, Label: "body"}
	tr.add(root)
	for s := 0; tr.Len() < n; s++ {
		sec := &Node{Kind: Element, Label: "section", Parent: root}
		tr.add(sec)
		for i := 0; i < 10+s%7; i++ {
			li := &Node{Kind: Element, Label: []string{"li", "div", "p"}[(i+s)%3], Parent: sec}
			tr.add(li)
			tr.add(&Node{Kind: Element, Label: "a", Parent: li})
		}
	}
	return tr
}
