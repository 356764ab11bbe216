package treediff

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
)

// benchRow is one row of ted-bench/pairs.tsv.
type benchRow struct {
	id, file1, file2, variant string
	n1, n2, want              int
	page1, page2              string
	aptedMS                   float64
	aptedRSS                  float64 // MB, 0 when not measured
}

func readBench(t testing.TB) (string, []benchRow) {
	t.Helper()
	dir := shareddata.Dir(t, "ted-bench")
	f, err := os.Open(filepath.Join(dir, "pairs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []benchRow
	sc := bufio.NewScanner(f)
	var head map[string]int
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if head == nil {
			head = map[string]int{}
			for i, c := range cols {
				head[c] = i
			}
			continue
		}
		get := func(k string) string {
			i, ok := head[k]
			if !ok || i >= len(cols) {
				return ""
			}
			return cols[i]
		}
		atoi := func(k string) int {
			v, err := strconv.Atoi(get(k))
			if err != nil {
				t.Fatalf("pairs.tsv row %s: column %s: %v", get("id"), k, err)
			}
			return v
		}
		r := benchRow{id: get("id"), file1: get("file1"), file2: get("file2"), variant: get("variant"),
			n1: atoi("n1"), n2: atoi("n2"), want: atoi("expected_distance"), page1: get("page1"), page2: get("page2")}
		r.aptedMS, _ = strconv.ParseFloat(get("apted_ms"), 64)
		r.aptedRSS, _ = strconv.ParseFloat(get("apted_rss_mb"), 64)
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("pairs.tsv has no rows")
	}
	return dir, rows
}

func readBracket(t testing.TB, path string) *Tree {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ParseBracket(filepath.Base(path), string(b))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// asKinds turns a token_kind tree (tokens labelled "#word") into a tree whose
// tokens are Token nodes labelled "word", to exercise Options.CompareKinds.
func asKinds(t *Tree) *Tree {
	for _, n := range t.Nodes {
		if strings.HasPrefix(n.Label, "#") {
			n.Kind = Token
			n.Label = n.Label[1:]
		}
	}
	return t
}

func TestBenchDistances(t *testing.T) {
	dir, rows := readBench(t)
	for _, r := range rows {
		t.Run(r.id, func(t *testing.T) {
			if testing.Short() && r.variant != "tag" {
				t.Skip("token rows skipped in -short mode")
			}
			t.Parallel()
			a := readBracket(t, filepath.Join(dir, r.file1))
			b := readBracket(t, filepath.Join(dir, r.file2))
			if a.Len() != r.n1 || b.Len() != r.n2 {
				t.Fatalf("sizes %d, %d; pairs.tsv says %d, %d", a.Len(), b.Len(), r.n1, r.n2)
			}
			var opt Options
			if r.variant == "token_kind" {
				a, b = asKinds(a), asKinds(b)
				opt.CompareKinds = true
			}
			// Mapping gives the distance too, at little extra cost; Distance
			// is checked separately on the tag rows.
			d, m, err := Mapping(a, b, opt)
			if err != nil {
				t.Fatal(err)
			}
			if d != r.want {
				t.Errorf("Mapping distance %d, want %d", d, r.want)
			}
			checkMapping(t, a, b, d, m, opt)
			if r.variant == "tag" {
				if d, err := Distance(a, b, opt); err != nil || d != r.want {
					t.Errorf("Distance %d (%v), want %d", d, err, r.want)
				}
			}
		})
	}
}

// checkMapping verifies that m is a valid edit mapping of cost d: every node
// of a and b exactly once, one-to-one, preserving preorder and postorder
// (hence ancestry and sibling order).
func checkMapping(t testing.TB, a, b *Tree, d int, m []Pair, opt Options) {
	t.Helper()
	preA, postA := orders(a)
	preB, postB := orders(b)
	seenA, seenB := map[*Node]bool{}, map[*Node]bool{}
	cost := 0
	type mp struct{ preA, preB, postA, postB int }
	var mapped []mp
	for _, p := range m {
		if p.A == nil && p.B == nil {
			t.Fatal("pair with two nil sides")
		}
		if p.A != nil {
			if _, ok := preA[p.A]; !ok {
				t.Fatalf("node %s not in tree a", p.A.Label)
			}
			if seenA[p.A] {
				t.Fatalf("node %s of a twice in the mapping", p.A.Path())
			}
			seenA[p.A] = true
		}
		if p.B != nil {
			if _, ok := preB[p.B]; !ok {
				t.Fatalf("node %s not in tree b", p.B.Label)
			}
			if seenB[p.B] {
				t.Fatalf("node %s of b twice in the mapping", p.B.Path())
			}
			seenB[p.B] = true
		}
		cost += p.Cost(opt)
		if p.A != nil && p.B != nil {
			mapped = append(mapped, mp{preA[p.A], preB[p.B], postA[p.A], postB[p.B]})
		}
	}
	if len(seenA) != len(preA) || len(seenB) != len(preB) {
		t.Fatalf("mapping covers %d/%d nodes of a, %d/%d of b", len(seenA), len(preA), len(seenB), len(preB))
	}
	if cost != d {
		t.Fatalf("mapping costs %d, distance is %d", cost, d)
	}
	sort.Slice(mapped, func(i, j int) bool { return mapped[i].preA < mapped[j].preA })
	for i := 1; i < len(mapped); i++ {
		if mapped[i].preB <= mapped[i-1].preB {
			t.Fatalf("mapping breaks preorder")
		}
	}
	sort.Slice(mapped, func(i, j int) bool { return mapped[i].postA < mapped[j].postA })
	for i := 1; i < len(mapped); i++ {
		if mapped[i].postB <= mapped[i-1].postB {
			t.Fatalf("mapping breaks postorder")
		}
	}
}

// orders numbers the nodes of t in preorder and postorder, iteratively.
func orders(t *Tree) (pre, post map[*Node]int) {
	pre, post = map[*Node]int{}, map[*Node]int{}
	if t == nil || t.Root == nil {
		return
	}
	type frame struct {
		n *Node
		k int
	}
	stack := []frame{{t.Root, 0}}
	pre[t.Root] = 0
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.k < len(top.n.Children) {
			c := top.n.Children[top.k]
			top.k++
			pre[c] = len(pre)
			stack = append(stack, frame{c, 0})
			continue
		}
		post[top.n] = len(post)
		stack = stack[:len(stack)-1]
	}
	return
}
