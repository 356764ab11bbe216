package treediff

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// randomBracket returns a random tree of n nodes in bracket notation: each
// node hangs under a random earlier node, labels come from alphabet; a label
// starting with '#' marks a token (see asKinds).
func randomBracket(r *rand.Rand, n int, alphabet []string) string {
	if n == 0 {
		return ""
	}
	kids := make([][]int, n)
	for i := 1; i < n; i++ {
		p := r.IntN(i)
		kids[p] = append(kids[p], i)
	}
	labels := make([]string, n)
	for i := range labels {
		labels[i] = alphabet[r.IntN(len(alphabet))]
	}
	var b strings.Builder
	type frame struct{ n, k int }
	stack := []frame{{0, 0}}
	b.WriteString("{" + labels[0])
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.k < len(kids[top.n]) {
			c := kids[top.n][top.k]
			top.k++
			b.WriteString("{" + labels[c])
			stack = append(stack, frame{c, 0})
			continue
		}
		b.WriteByte('}')
		stack = stack[:len(stack)-1]
	}
	return b.String()
}

func mustBracket(t testing.TB, name, s string) *Tree {
	t.Helper()
	if s == "" {
		return &Tree{Name: name}
	}
	tr, err := ParseBracket(name, s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return asKinds(tr)
}

// bruteTree is a plain recursive tree for the reference distance.
type bruteTree struct {
	label string
	kind  Kind
	kids  []*bruteTree
}

func toBrute(n *Node) *bruteTree {
	b := &bruteTree{label: n.Label, kind: n.Kind}
	for _, c := range n.Children {
		b.kids = append(b.kids, toBrute(c))
	}
	return b
}

func forestKey(f []*bruteTree) string {
	var b strings.Builder
	var w func(t *bruteTree)
	w = func(t *bruteTree) {
		b.WriteString("{" + strconv.Itoa(int(t.kind)) + t.label)
		for _, c := range t.kids {
			w(c)
		}
		b.WriteByte('}')
	}
	for _, t := range f {
		w(t)
	}
	return b.String()
}

func forestSize(f []*bruteTree) int {
	n := 0
	for _, t := range f {
		n += 1 + forestSize(t.kids)
	}
	return n
}

// bruteDistance is the textbook forest recursion on the rightmost roots,
// memoized: an independent reference for tiny trees.
func bruteDistance(f, g []*bruteTree, kinds bool, memo map[string]int) int {
	if len(f) == 0 || len(g) == 0 {
		return forestSize(f) + forestSize(g)
	}
	key := forestKey(f) + "|" + forestKey(g)
	if d, ok := memo[key]; ok {
		return d
	}
	v, w := f[len(f)-1], g[len(g)-1]
	fv := append(append([]*bruteTree{}, f[:len(f)-1]...), v.kids...)
	gw := append(append([]*bruteTree{}, g[:len(g)-1]...), w.kids...)
	ren := 0
	if v.label != w.label || (kinds && v.kind != w.kind) {
		ren = 1
	}
	d := min(
		bruteDistance(fv, g, kinds, memo)+1,
		bruteDistance(f, gw, kinds, memo)+1,
		bruteDistance(f[:len(f)-1], g[:len(g)-1], kinds, memo)+bruteDistance(v.kids, w.kids, kinds, memo)+ren,
	)
	memo[key] = d
	return d
}

func bruteOf(t *Tree) []*bruteTree {
	if t.Root == nil {
		return nil
	}
	return []*bruteTree{toBrute(t.Root)}
}

func TestBruteForceAgreement(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabets := [][]string{{"a", "b"}, {"a", "b", "c", "d"}, {"a", "#a", "b", "#b"}}
	for i := range 3000 {
		al := alphabets[i%len(alphabets)]
		kinds := i%2 == 1
		sa := randomBracket(r, r.IntN(9), al)
		sb := randomBracket(r, r.IntN(9), al)
		a, b := mustBracket(t, "a", sa), mustBracket(t, "b", sb)
		opt := Options{CompareKinds: kinds}
		want := bruteDistance(bruteOf(a), bruteOf(b), kinds, map[string]int{})
		d, m, err := Mapping(a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if d != want {
			t.Fatalf("%s vs %s (kinds %v): distance %d, brute force %d", sa, sb, kinds, d, want)
		}
		checkMapping(t, a, b, d, m, opt)
	}
}

func TestMetricProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	al := []string{"div", "p", "a", "span", "#x", "#y"}
	for i := range 300 {
		n := 1 + r.IntN(60)
		a := mustBracket(t, "a", randomBracket(r, n, al))
		b := mustBracket(t, "b", randomBracket(r, 1+r.IntN(60), al))
		c := mustBracket(t, "c", randomBracket(r, 1+r.IntN(60), al))
		opt := Options{CompareKinds: i%2 == 0}
		dist := func(x, y *Tree) int {
			d, err := Distance(x, y, opt)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		if d := dist(a, a); d != 0 {
			t.Fatalf("d(a,a) = %d", d)
		}
		ab, ba, bc, ac := dist(a, b), dist(b, a), dist(b, c), dist(a, c)
		if ab != ba {
			t.Fatalf("d(a,b)=%d, d(b,a)=%d", ab, ba)
		}
		if ac > ab+bc {
			t.Fatalf("triangle: d(a,c)=%d > d(a,b)+d(b,c)=%d+%d", ac, ab, bc)
		}
		if lo, hi := abs(a.Len()-b.Len()), a.Len()+b.Len(); ab < lo || ab > hi {
			t.Fatalf("d(a,b)=%d outside [%d,%d]", ab, lo, hi)
		}
		d, m, err := Mapping(a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if d != ab {
			t.Fatalf("Mapping says %d, Distance %d", d, ab)
		}
		checkMapping(t, a, b, d, m, opt)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestDecompositionsAgree runs both Zhang–Shasha decompositions (left, and
// right through mirrored trees), with and without the reuse of repeated
// subtrees, and both cell widths on the same pairs: Distance picks one, so
// each must be exact on its own. Two or three labels make repeated subtrees
// common.
func TestDecompositionsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabets := [][]string{{"a", "b", "c"}, {"a", "b"}}
	for i := range 400 {
		al := alphabets[i%2]
		a := mustBracket(t, "a", randomBracket(r, 1+r.IntN(80), al))
		b := mustBracket(t, "b", randomBracket(r, 1+r.IntN(80), al))
		var got []int
		for _, v := range []struct{ mirror, reuse bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
			in := &interner{ids: map[labelKey]int32{}}
			pa, _ := flatten(a, v.mirror, in)
			pb, _ := flatten(b, v.mirror, in)
			if v.reuse {
				pa.findRepeats()
				pb.findRepeats()
			}
			n1, n2 := pa.len(), pb.len()
			plan := planRows(pa)
			got = append(got,
				int(zsDistance(pa, pb, make([]uint16, n1*n2), make([]uint16, plan.nslots*(n2+1)), plan)),
				int(zsDistance(pa, pb, make([]int32, n1*n2), make([]int32, plan.nslots*(n2+1)), plan)),
				// Every row in its own slot, as Mapping's backtracking has them.
				int(zsDistance(pa, pb, make([]uint16, n1*n2), make([]uint16, (n1+1)*(n2+1)), identityPlan(pa))))
		}
		for _, g := range got[1:] {
			if g != got[0] {
				t.Fatalf("%s vs %s: left/right, 16/32-bit distances %v", a.Bracket(), b.Bracket(), got)
			}
		}
	}
}

// TestShapes covers the shapes where one decomposition is much costlier
// than the other (paths, combs, zigzags) against the brute force.
func TestShapes(t *testing.T) {
	comb := func(n int, right bool, l string) string {
		s := "{" + l
		for i := 0; i < n; i++ {
			if right {
				s += "{x}{" + l
			} else {
				s += "{" + l
			}
		}
		for i := 0; i < n; i++ {
			if right {
				s += "}"
			} else {
				s += "}{x}"
			}
		}
		return s + "}"
	}
	cases := []struct{ a, b string }{
		{"{a{a{a{a{a}}}}}", "{a{a{a}}}"},
		{"{a{b}{c}{d}{e}}", "{a{e}{d}{c}{b}}"},
		{comb(4, true, "a"), comb(4, false, "a")},
		{comb(3, true, "a"), comb(4, true, "b")},
		{"{r{a{b{c}}}{d}}", "{r{d}{a{b{c}}}}"},
	}
	for _, c := range cases {
		a, b := mustBracket(t, "a", c.a), mustBracket(t, "b", c.b)
		want := bruteDistance(bruteOf(a), bruteOf(b), false, map[string]int{})
		d, m, err := Mapping(a, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d != want {
			t.Errorf("%s vs %s: %d, want %d", c.a, c.b, d, want)
		}
		checkMapping(t, a, b, d, m, Options{})
	}
}

func TestEmptyTrees(t *testing.T) {
	a := mustBracket(t, "a", "{a{b}{c}}")
	for _, e := range []*Tree{nil, {Name: "empty"}} {
		if d, err := Distance(a, e, Options{}); err != nil || d != 3 {
			t.Errorf("Distance(a, empty) = %d, %v; want 3", d, err)
		}
		d, m, err := Mapping(e, a, Options{})
		if err != nil || d != 3 || len(m) != 3 {
			t.Fatalf("Mapping(empty, a) = %d, %d pairs, %v", d, len(m), err)
		}
		for _, p := range m {
			if p.A != nil || p.Op(Options{}) != "insert" {
				t.Errorf("pair %+v is not an insertion", p)
			}
		}
	}
	if d, err := Distance(nil, nil, Options{}); err != nil || d != 0 {
		t.Errorf("Distance(nil, nil) = %d, %v", d, err)
	}
}

// TestConcurrent computes the ted-bench tag distances from many goroutines
// at once (the cluster package fills matrices in parallel); run with -race.
func TestConcurrent(t *testing.T) {
	dir, rows := readBench(t)
	type job struct {
		a, b *Tree
		want int
	}
	var jobs []job
	for _, r := range rows {
		if r.variant == "tag" && r.n1*r.n2 < 400_000 {
			jobs = append(jobs, job{readBracket(t, dir+"/"+r.file1), readBracket(t, dir+"/"+r.file2), r.want})
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				j := jobs[(i+g)%len(jobs)]
				d, err := Distance(j.a, j.b, Options{})
				if err != nil || d != j.want {
					errs <- j.a.Name + ": " + strconv.Itoa(d)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error("wrong distance under concurrency:", e)
	}
}

func identityPlan(p *postTree) rowPlan {
	plan := rowPlan{start: make([]int32, len(p.keyroots)), nslots: p.len() + 1}
	for ki, k := range p.keyroots {
		plan.start[ki] = int32(len(plan.slots))
		for x := 0; x <= int(k-p.lld[k])+1; x++ {
			plan.slots = append(plan.slots, int32(x))
		}
	}
	return plan
}
