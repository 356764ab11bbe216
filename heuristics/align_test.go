package heuristics

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// tokenTree parses a token_kind bracket tree: leaves labelled "#word" are
// Token nodes with label "word", the rest are elements.
func tokenTree(tb testing.TB, name, s string) *treediff.Tree {
	tb.Helper()
	t, err := treediff.ParseBracket(name, s)
	if err != nil {
		tb.Fatal(err)
	}
	for _, n := range t.Nodes {
		if strings.HasPrefix(n.Label, "#") && len(n.Children) == 0 {
			n.Kind, n.Label = treediff.Token, n.Label[1:]
		}
	}
	return t
}

// changedWords lists the words of a that Align marks as changed.
func changedWords(al *Alignment) []string {
	var out []string
	for i, n := range al.A.Nodes {
		if al.Changed(i) {
			out = append(out, n.Label)
		}
	}
	return out
}

// mappingCost is the unit cost of an alignment seen as an edit mapping:
// unmapped nodes on either side plus mapped nodes whose labels or kinds
// differ.
func mappingCost(al *Alignment) int {
	c := 0
	for i, j := range al.AtoB {
		if j < 0 {
			c++
			continue
		}
		a, b := al.A.Nodes[i], al.B.Nodes[j]
		if a.Label != b.Label || a.Kind != b.Kind {
			c++
		}
	}
	for _, i := range al.BtoA {
		if i < 0 {
			c++
		}
	}
	return c
}

// checkMapping verifies that al is a valid edit mapping: one to one, and
// preserving ancestry and left-to-right order (the conditions of a tree
// edit mapping), on every pair of mapped nodes of small trees.
func checkMapping(t *testing.T, al *Alignment) {
	t.Helper()
	var pairs [][2]*treediff.Node
	for i, j := range al.AtoB {
		if j >= 0 {
			if al.BtoA[j] != int32(i) {
				t.Fatalf("AtoB[%d]=%d but BtoA[%d]=%d", i, j, j, al.BtoA[j])
			}
			pairs = append(pairs, [2]*treediff.Node{al.A.Nodes[i], al.B.Nodes[j]})
		}
	}
	for j, i := range al.BtoA {
		if i >= 0 && al.AtoB[i] != int32(j) {
			t.Fatalf("BtoA[%d]=%d but AtoB[%d]=%d", j, i, i, al.AtoB[i])
		}
	}
	if len(pairs) > 400 {
		return
	}
	for _, p := range pairs {
		for _, q := range pairs {
			if p[0].Contains(q[0]) != p[1].Contains(q[1]) {
				t.Fatalf("ancestry not kept: %s/%s vs %s/%s", p[0].Path(), p[1].Path(), q[0].Path(), q[1].Path())
			}
			if (p[0].Index < q[0].Index) != (p[1].Index < q[1].Index) {
				t.Fatalf("order not kept: %s/%s vs %s/%s", p[0].Path(), p[1].Path(), q[0].Path(), q[1].Path())
			}
		}
	}
}

func TestAlign(t *testing.T) {
	cases := []struct {
		name    string
		a, b    string
		changed string // changed words of a, in preorder
	}{
		{"identical", "{html{body{p{#a}{#b}}}}", "{html{body{p{#a}{#b}}}}", ""},
		{"one word renamed", "{html{body{p{#the}{#cat}{#sat}}}}", "{html{body{p{#the}{#dog}{#sat}}}}", "cat"},
		{"paragraph added", "{html{body{div{p{#one}}{p{#new}{#text}}{p{#two}}}}}", "{html{body{div{p{#one}}{p{#two}}}}}", "new text"},
		{"paragraph removed", "{html{body{div{p{#one}}}}}", "{html{body{div{p{#one}}{p{#gone}}}}}", ""},
		{"moved template block", "{html{body{ul{li{#home}}}{div{p{#story}{#words}}}}}", "{html{body{ul{li{#home}}}{div{p{#other}{#words}}}}}", "story"},
		{"token is not an element", "{html{body{p{#p}}}}", "{html{body{p{p}}}}", "p"},
		{"different roots", "{html{p{#x}}}", "{body{p{#x}}}", ""},
	}
	for _, c := range cases {
		for _, exact := range []bool{false, true} {
			name := c.name + "/fast"
			if exact {
				name = c.name + "/exact"
			}
			t.Run(name, func(t *testing.T) {
				a, b := tokenTree(t, "a", c.a), tokenTree(t, "b", c.b)
				al, err := Align(a, b, AlignOptions{Exact: exact})
				if err != nil {
					t.Fatal(err)
				}
				checkMapping(t, al)
				if got := strings.Join(changedWords(al), " "); got != c.changed {
					t.Errorf("changed words %q, want %q", got, c.changed)
				}
			})
		}
	}
}

func TestAlignErrors(t *testing.T) {
	a := tokenTree(t, "a", "{html{body}}")
	if _, err := Align(nil, a, AlignOptions{}); err == nil {
		t.Error("nil tree: no error")
	}
	if _, err := Align(a, &treediff.Tree{Name: "empty"}, AlignOptions{}); err == nil {
		t.Error("empty tree: no error")
	}
}

// TestAlignSequenceFallback forces every region over budget (sequence
// alignment only) and under a tiny table (anchors only): the mapping stays
// valid and finds the shared words.
func TestAlignSequenceFallback(t *testing.T) {
	a := tokenTree(t, "a", "{html{body{div{p{#a}{#b}{#c}{#d}{#e}}{p{#x}}}{div{#tail}}}}")
	b := tokenTree(t, "b", "{html{body{div{p{#a}{#c}{#d}{#f}{#e}}{p{#y}}}{div{#tail}}}}")
	for _, o := range []AlignOptions{{RegionBudget: 1}, {RegionBudget: 1, SeqCells: 2}} {
		al, err := Align(a, b, o)
		if err != nil {
			t.Fatal(err)
		}
		checkMapping(t, al)
		got := strings.Join(changedWords(al), " ")
		if o.SeqCells == 0 && got != "b x" {
			t.Errorf("%+v: changed %q, want \"b x\"", o, got)
		}
		if al.Stats.SeqNodes == 0 {
			t.Errorf("%+v: no sequence alignment used: %+v", o, al.Stats)
		}
	}
}

func TestLongestIncreasing(t *testing.T) {
	cases := []struct {
		in   [][2]int
		want int
	}{
		{nil, 0},
		{[][2]int{{0, 3}}, 1},
		{[][2]int{{0, 0}, {1, 1}, {2, 2}}, 3},
		{[][2]int{{0, 5}, {1, 1}, {2, 2}, {3, 0}, {4, 3}}, 3},
	}
	for _, c := range cases {
		got := longestIncreasing(c.in)
		if len(got) != c.want {
			t.Errorf("%v: got %v, want length %d", c.in, got, c.want)
		}
		for k := 1; k < len(got); k++ {
			if got[k][0] <= got[k-1][0] || got[k][1] <= got[k-1][1] {
				t.Errorf("%v: %v not increasing", c.in, got)
			}
		}
	}
}

type benchPair struct {
	id     string
	a, b   *treediff.Tree
	expect int
}

// tedBenchPairs loads the token_kind pairs of ../shared/data/ted-bench.
func tedBenchPairs(tb testing.TB) []benchPair {
	dir := shareddata.Dir(tb, "ted-bench")
	f, err := os.Open(filepath.Join(dir, "pairs.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []benchPair
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 7 || c[3] != "token_kind" {
			continue
		}
		read := func(p string) *treediff.Tree {
			s, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				tb.Fatal(err)
			}
			return tokenTree(tb, p, string(s))
		}
		d, _ := strconv.Atoi(c[6])
		out = append(out, benchPair{c[0], read(c[1]), read(c[2]), d})
	}
	return out
}

// TestAlignTedBench compares the fast alignment with the exact mapping on
// the ted-bench token pairs: the fast mapping's cost can only be at least
// the exact distance, and the content element located from each must agree
// on most pairs. The agreement is logged (go test -v -run TedBench).
func TestAlignTedBench(t *testing.T) {
	if testing.Short() {
		t.Skip("exact mappings of the ted-bench pairs take seconds")
	}
	pairs := tedBenchPairs(t)
	same, costSum, exactSum := 0, 0, 0
	opt := PairOptions{}.withDefaults()
	for _, p := range pairs {
		fast, err := Align(p.a, p.b, AlignOptions{})
		if err != nil {
			t.Fatal(err)
		}
		exact, err := Align(p.a, p.b, AlignOptions{Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		fc, ec := mappingCost(fast), mappingCost(exact)
		if ec != p.expect {
			t.Errorf("%s: exact mapping costs %d, ted-bench distance %d", p.id, ec, p.expect)
		}
		if fc < ec {
			t.Errorf("%s: fast mapping costs %d, below the exact distance %d", p.id, fc, ec)
		}
		costSum += fc
		exactSum += ec
		lf, le := locate(fast, opt, singlepage.ProseMap{}), locate(exact, opt, singlepage.ProseMap{})
		agree := lf.body == le.body || (lf.body != nil && le.body != nil && lf.body.Index == le.body.Index)
		if agree {
			same++
		}
		t.Logf("%s: %d×%d nodes, cost fast %d exact %d, element fast %s exact %s, stats %+v",
			p.id, p.a.Len(), p.b.Len(), fc, ec, pathOf(lf.body), pathOf(le.body), fast.Stats)
	}
	t.Logf("same element on %d of %d ted-bench token pairs; fast mapping cost %.3f× the exact distance", same, len(pairs), float64(costSum)/float64(exactSum))
	if same*10 < len(pairs)*8 {
		t.Errorf("fast and exact chose the same element on only %d of %d pairs", same, len(pairs))
	}
}

func pathOf(n *treediff.Node) string {
	if n == nil {
		return "(none)"
	}
	return n.Path()
}

// BenchmarkAlign measures the fast alignment on the ted-bench token pairs
// (compare with the exact mapping: -bench 'Align/exact').
func BenchmarkAlign(b *testing.B) {
	pairs := tedBenchPairs(b)
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].a.Len()+pairs[i].b.Len() > pairs[j].a.Len()+pairs[j].b.Len() })
	big := pairs[0]
	for _, exact := range []bool{false, true} {
		name := "fast"
		if exact {
			name = "exact"
		}
		b.Run(name+"/"+big.id, func(b *testing.B) {
			for b.Loop() {
				if _, err := Align(big.a, big.b, AlignOptions{Exact: exact}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
