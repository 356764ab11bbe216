package treediff

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseBadInput(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(r.UintN(256))
	}
	cases := []struct {
		name    string
		src     string
		wantErr error // nil: must parse
	}{
		{"empty", "", ErrEmpty},
		{"blank", " \n\t ", ErrEmpty},
		{"malformed", "<div><p>unclosed <b><i></div></b></i><table><td>x</tr></p></p><</>", nil},
		{"stray end tags", "</html></body></div>text</p>", nil},
		{"binary", string(binary), ErrBinary},
		{"nul bytes", "<p>a\x00b</p>\x00\x00", ErrBinary},
		{"stray nul", "<p>" + strings.Repeat("text ", 30) + "a\x00b</p>", nil},
		{"invalid utf-8", "<p>caf\xe9 cr\xe8me \xff\xfe</p>", nil},
		{"unclosed script", "<p>a</p><script>var x = '<p>never</p>';", nil},
		{"unclosed comment", "<p>a</p><!-- <p>b</p>", nil},
		{"attributes only", "<div a=1 b='2' c=\"3\" d>", nil},
		{"100000 nodes", "<div>" + strings.Repeat("<p>x</p>", 50_000) + "</div>", nil},
		{"10000 levels", strings.Repeat("<div>", 10_000) + "deep" + strings.Repeat("</div>", 10_000), nil},
		{"10000 unclosed", strings.Repeat("<span><b>", 5_000) + "deep", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Parse(c.name, []byte(c.src), ParseOptions{})
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) || !strings.Contains(err.Error(), c.name) {
					t.Fatalf("error %v, want %v naming the page", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range tr.Nodes {
				if n.Depth > DefaultMaxDepth+1 {
					t.Fatalf("node at depth %d, limit %d", n.Depth, DefaultMaxDepth)
				}
			}
			for _, v := range []View{TagView, TokenView} {
				view := tr.View(v)
				round, err := ParseBracket("round", view.Bracket())
				if err != nil {
					t.Fatalf("%s view does not read back: %v", v, err)
				}
				if round.Len() != view.Len() {
					t.Fatalf("%s view: %d nodes, read back %d", v, view.Len(), round.Len())
				}
			}
			small, _ := ParseBracket("small", "{html{head}{body{div{p}}}}")
			tag := tr.View(TagView)
			d, err := Distance(tag, small, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if lo := tag.Len() - small.Len(); d < lo {
				t.Fatalf("distance %d below the size difference %d", d, lo)
			}
			if d, err := Distance(tag, tag, Options{}); err != nil || d != 0 {
				t.Fatalf("distance to itself %d, %v", d, err)
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	src := []byte("<div>" + strings.Repeat("<p>x</p>", 1000))
	if _, err := Parse("big.html", src, ParseOptions{MaxNodes: 500}); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "big.html") {
		t.Errorf("MaxNodes: error %v", err)
	}
	if _, err := Parse("big.html", src, ParseOptions{MaxBytes: 100}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MaxBytes: error %v", err)
	}
}

// TestBudget checks that comparing two 100,000-node pages is refused with an
// error naming both pages and their sizes, before any large allocation.
func TestBudget(t *testing.T) {
	a, err := Parse("a.html", []byte("<div>"+strings.Repeat("<p>x</p>", 50_000)), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("b.html", []byte("<div>"+strings.Repeat("<p>y</p><i>", 40_000)), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Distance(a.View(TagView), b.View(TagView), Options{})
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("error %v, want ErrBudget", err)
	}
	for _, want := range []string{"a.html", "b.html", fmt.Sprintf("(%d nodes)", a.View(TagView).Len()), fmt.Sprintf("(%d nodes)", b.View(TagView).Len())} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, _, err := Mapping(a, b, Options{MaxCells: 1000}); !errors.Is(err, ErrBudget) {
		t.Errorf("Mapping with MaxCells 1000: error %v", err)
	}
	// Identical large trees need no matrix.
	if d, err := Distance(a, a, Options{}); err != nil || d != 0 {
		t.Errorf("identical 100,000-node trees: %d, %v", d, err)
	}
}

// TestDeepTrees compares a 10,000-level path with a 1,000-level one: every
// step must be iterative.
func TestDeepTrees(t *testing.T) {
	deep := func(n int, leaf string) *Tree {
		tr, err := ParseBracket("deep", strings.Repeat("{div", n)+"{"+leaf+"}"+strings.Repeat("}", n))
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	a, b := deep(10_000, "x"), deep(1_000, "y")
	d, m, err := Mapping(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d != 9_001 {
		t.Errorf("distance %d, want 9001", d)
	}
	checkMapping(t, a, b, d, m, Options{})
}

// TestWorkBudget builds zigzag trees, where both Zhang–Shasha decompositions
// degrade (every node has a leaf on each side), and checks the time budget
// refuses them with a clear error while a generous budget computes them.
func TestWorkBudget(t *testing.T) {
	zigzag := func(n int) *Tree {
		s := strings.Repeat("{a{x}", n) + strings.Repeat("{y}}", n)
		tr, err := ParseBracket(fmt.Sprintf("zigzag-%d", n), s)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	a, b := zigzag(300), zigzag(250)
	_, err := Distance(a, b, Options{MaxWork: 1_000_000})
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "subproblems") || !strings.Contains(err.Error(), "zigzag-300 (900 nodes)") {
		t.Fatalf("error %v", err)
	}
	d, err := Distance(zigzag(60), zigzag(50), Options{})
	if err != nil || d != 30 {
		t.Fatalf("distance %d, %v; want 30", d, err)
	}
}

// TestInconsistentTree checks hand-assembled trees whose Nodes list does not
// match what hangs from the root are refused, not miscounted.
func TestInconsistentTree(t *testing.T) {
	ok := mustBracket(t, "ok", "{a{b}}")
	missing := mustBracket(t, "missing", "{a{b}{c}}")
	missing.Nodes = missing.Nodes[:2]
	cyclic := mustBracket(t, "cyclic", "{a{b}}")
	cyclic.Nodes[1].Children = []*Node{cyclic.Root}
	for _, bad := range []*Tree{missing, cyclic} {
		if _, err := Distance(ok, bad, Options{}); err == nil || !strings.Contains(err.Error(), bad.Name) {
			t.Errorf("%s: error %v", bad.Name, err)
		}
	}
}
