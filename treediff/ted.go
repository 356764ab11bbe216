package treediff

import (
	"errors"
	"fmt"
)

// Options tunes a tree edit distance computation. The zero value is the plain
// unit cost model with the default size budget.
type Options struct {
	// CompareKinds makes nodes of different Kind never match by label: a Token
	// "p" renamed into an Element p costs 1 (the token_kind cost model).
	CompareKinds bool
	// MaxCells is the size budget: the largest product of the two trees' node
	// counts accepted (default DefaultMaxCells). The memory of a comparison
	// grows with this product; see the package documentation.
	MaxCells int64
	// MaxWork is the time budget: the largest number of subproblems (forest
	// distance cells) the comparison may compute (default DefaultMaxWork).
	// Page trees need 15 to 80 times MaxCells-like products; shapes where
	// both decompositions degrade need far more, and are refused.
	MaxWork int64
}

// DefaultMaxCells is the default size budget of Options.MaxCells: two trees of
// 10,000 nodes each, about 200 MB of matrices for Distance, 400 MB for
// Mapping, at the most.
const DefaultMaxCells = 100_000_000

// DefaultMaxWork is the default time budget of Options.MaxWork: 2·10^10
// subproblems, about half a minute on one core.
const DefaultMaxWork = 20_000_000_000

// ErrBudget is wrapped by the error of a comparison over its size or time
// budget (Options.MaxCells, Options.MaxWork).
var ErrBudget = errors.New("over budget")

// Pair is one entry of an edit mapping: A and B matched (an unchanged node
// when the labels are equal, a rename otherwise), or A deleted (B nil), or B
// inserted (A nil).
type Pair struct {
	A, B *Node
}

// Op names what a Pair does: "match", "rename", "delete" or "insert".
func (p Pair) Op(opt Options) string {
	switch {
	case p.A == nil:
		return "insert"
	case p.B == nil:
		return "delete"
	case sameLabel(p.A, p.B, opt):
		return "match"
	}
	return "rename"
}

func sameLabel(a, b *Node, opt Options) bool {
	return a.Label == b.Label && (!opt.CompareKinds || a.Kind == b.Kind)
}

// Cost is the unit cost of the pair: 0 for an unchanged node, 1 otherwise.
func (p Pair) Cost(opt Options) int {
	if p.Op(opt) == "match" {
		return 0
	}
	return 1
}

// Distance returns the unit-cost tree edit distance between a and b: the
// least number of node deletions, insertions and renamings turning a into b.
// A nil tree or a tree without root counts as the empty tree. It is safe to
// call from many goroutines at once.
func Distance(a, b *Tree, opt Options) (int, error) {
	c, err := newComparison(a, b, opt)
	if err != nil {
		return 0, err
	}
	defer c.release()
	return c.distance(), nil
}

// Mapping returns the distance (as Distance) and an optimal edit mapping:
// every node of a and every node of b appears in exactly one Pair. Pairs come
// in document order: walking them, the A sides list a in preorder and the B
// sides list b in preorder.
func Mapping(a, b *Tree, opt Options) (int, []Pair, error) {
	c, err := newComparison(a, b, opt)
	if err != nil {
		return 0, nil, err
	}
	defer c.release()
	d := c.distance()
	return d, c.mapping(), nil
}

func treeName(t *Tree) string {
	if t == nil || t.Name == "" {
		return "(unnamed)"
	}
	return t.Name
}

func treeLen(t *Tree) int {
	if t == nil || t.Root == nil {
		return 0
	}
	return len(t.Nodes)
}

func budgetError(a, b *Tree, what string, need, limit int64) error {
	return fmt.Errorf("tree edit distance between %s (%d nodes) and %s (%d nodes): needs %d %s, limit %d: %w",
		treeName(a), treeLen(a), treeName(b), treeLen(b), need, what, limit, ErrBudget)
}
