package heuristics

import (
	"errors"
	"fmt"
	"hash/maphash"
	"sort"

	"github.com/gleaner/gleaner/treediff"
)

// AlignOptions tunes Align. Zero fields take the defaults.
type AlignOptions struct {
	// Exact computes the whole edit mapping with the exact tree edit distance
	// (treediff.Mapping): the reference the fast path is measured against.
	// Its cost grows with the product of the tree sizes: minutes and
	// gigabytes on big token trees.
	Exact bool
	// RegionBudget is the largest number of nodes (both sides together) of a
	// differing region that the fast path hands to the exact mapping
	// (default 400). Larger regions are aligned as sequences.
	RegionBudget int
	// SeqCells bounds the dynamic-programming table of one sequence alignment
	// (default 4,000,000 cells); longer sequences are first cut at unique
	// common anchors.
	SeqCells int
}

// Default values of AlignOptions.
const (
	DefaultRegionBudget = 400
	DefaultSeqCells     = 4_000_000
)

func (o AlignOptions) withDefaults() AlignOptions {
	if o.RegionBudget <= 0 {
		o.RegionBudget = DefaultRegionBudget
	}
	if o.SeqCells <= 0 {
		o.SeqCells = DefaultSeqCells
	}
	return o
}

// Alignment is an edit mapping between two trees, stored as node indexes:
// AtoB[i] is the preorder index in B of the node mapped to A.Nodes[i], or -1
// when that node is deleted (BtoA likewise; -1 = inserted).
type Alignment struct {
	A, B *treediff.Tree
	AtoB []int32
	BtoA []int32
	// Stats describes how the alignment was computed.
	Stats AlignStats
}

// AlignStats counts the work done by Align.
type AlignStats struct {
	// IdenticalNodes were matched as parts of identical subtrees.
	IdenticalNodes int
	// ExactRegions is the number of regions aligned by the exact mapping,
	// ExactNodes the nodes they held (both sides).
	ExactRegions, ExactNodes int
	// SeqNodes were aligned by sequence alignment (regions over budget).
	SeqNodes int
}

// Changed reports whether node i of A is a token that has no identical
// counterpart in B: deleted, renamed, or mapped to a non-token.
func (al *Alignment) Changed(i int) bool {
	a := al.A.Nodes[i]
	if a.Kind != treediff.Token {
		return false
	}
	j := al.AtoB[i]
	if j < 0 {
		return true
	}
	b := al.B.Nodes[j]
	return b.Kind != treediff.Token || b.Label != a.Label
}

// Align computes an edit mapping between two trees, typically the token
// views of a page (a) and of its template medoid (b).
//
// The fast path (the default) first matches identical subtrees, found by
// bottom-up subtree hashes: top-down from the roots, the children of two
// mapped elements are aligned as sequences of subtree hashes, so unchanged
// template parts are mapped at once whatever their size. Only the regions
// that differ are left; each region small enough (RegionBudget) is mapped by
// the exact tree edit distance, a bigger one by aligning its children as
// sequences (same-tag elements paired and recursed into, tokens matched by
// equal words). The cost is about linear in the unchanged part and bounded
// per region for the rest.
func Align(a, b *treediff.Tree, opt AlignOptions) (*Alignment, error) {
	if a == nil || a.Root == nil || b == nil || b.Root == nil {
		return nil, fmt.Errorf("align: empty tree")
	}
	opt = opt.withDefaults()
	al := &Alignment{A: a, B: b, AtoB: make([]int32, len(a.Nodes)), BtoA: make([]int32, len(b.Nodes))}
	for i := range al.AtoB {
		al.AtoB[i] = -1
	}
	for i := range al.BtoA {
		al.BtoA[i] = -1
	}
	if opt.Exact {
		pairs, err := exactMapping(a, b)
		if err != nil {
			return nil, fmt.Errorf("align %s with %s: %w", a.Name, b.Name, err)
		}
		for _, p := range pairs {
			al.match(p[0], p[1])
		}
		al.Stats.ExactRegions, al.Stats.ExactNodes = 1, len(a.Nodes)+len(b.Nodes)
		return al, nil
	}
	w := &aligner{al: al, opt: opt}
	seed := maphash.MakeSeed()
	w.ha, w.sa = subtreeHashes(a, seed)
	w.hb, w.sb = subtreeHashes(b, seed)
	w.votes = anchorVotes(a, b, w.ha, w.hb, w.sa)
	if err := w.pair(a.Root, b.Root); err != nil {
		return nil, fmt.Errorf("align %s with %s: %w", a.Name, b.Name, err)
	}
	return al, nil
}

func (al *Alignment) match(a, b *treediff.Node) {
	al.AtoB[a.Index] = int32(b.Index)
	al.BtoA[b.Index] = int32(a.Index)
}

// subtreeHashes returns, per preorder index, a hash of the subtree's labels,
// kinds and shape, and the subtree's size in nodes. Children come after
// their parent in preorder, so a reverse scan is bottom-up.
func subtreeHashes(t *treediff.Tree, seed maphash.Seed) ([]uint64, []int32) {
	h := make([]uint64, len(t.Nodes))
	size := make([]int32, len(t.Nodes))
	var mh maphash.Hash
	mh.SetSeed(seed)
	var buf [8]byte
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := t.Nodes[i]
		mh.Reset()
		mh.WriteByte(byte(n.Kind))
		mh.WriteString(n.Label)
		mh.WriteByte(0)
		s := int32(1)
		for _, c := range n.Children {
			v := h[c.Index]
			for k := range buf {
				buf[k] = byte(v >> (8 * k))
			}
			mh.Write(buf[:])
			s += size[c.Index]
		}
		mh.WriteByte(1) // end of children: shapes differ even when labels concatenate alike
		h[i] = mh.Sum64()
		size[i] = s
	}
	return h, size
}

type aligner struct {
	al     *Alignment
	opt    AlignOptions
	ha, hb []uint64
	sa, sb []int32
	// votes[pairKey(a, b)] is the size of the identical subtrees, unique in
	// both trees, found under both a and b: how much two elements of
	// differing regions have in common.
	votes map[uint64]int32
}

func pairKey(a, b *treediff.Node) uint64 { return uint64(a.Index)<<32 | uint64(uint32(b.Index)) }

// voteWindow is how far, in levels, the ancestors of an anchor may sit from
// each other and still receive its vote (a wrapper element added or
// removed above shifts the levels).
const voteWindow = 1

// maxVoteLevels bounds how many ancestors an anchor votes for, so that a
// deep page costs linear time and memory.
const maxVoteLevels = 24

// anchorVotes finds the maximal subtrees whose hash occurs exactly once in
// each tree (anchors: the same subtree in both pages, nowhere else) and
// lets each vote, with its size, for the pairs of their ancestors at about
// the same height above them.
func anchorVotes(a, b *treediff.Tree, ha, hb []uint64, sa []int32) map[uint64]int32 {
	occs := countHashes(ha, hb)
	votes := map[uint64]int32{}
	for i, x := range a.Nodes {
		j, ok := occs.unique(ha, i)
		if !ok || x.Parent == nil {
			continue
		}
		y := b.Nodes[j]
		if pj, pok := occs.unique(ha, x.Parent.Index); pok && b.Nodes[pj] == y.Parent {
			continue // not maximal: the parent is an anchor too
		}
		voteAncestors(votes, ancestors(x), ancestors(y), sa[i])
	}
	return votes
}

// hashOcc counts a subtree hash's occurrences in each tree (na, nb) and
// where it last occurs (ia, ib).
type hashOcc struct{ na, nb, ia, ib int32 }

// hashOccs are the occurrences of the first tree's subtree hashes.
type hashOccs map[uint64]*hashOcc

// countHashes counts the occurrences of the subtree hashes ha of the first
// tree, in it and among the second tree's hb.
func countHashes(ha, hb []uint64) hashOccs {
	seen := make(hashOccs, len(ha))
	for i, h := range ha {
		o := seen[h]
		if o == nil {
			o = &hashOcc{}
			seen[h] = o
		}
		o.na++
		o.ia = int32(i)
	}
	for j, h := range hb {
		if o := seen[h]; o != nil {
			o.nb++
			o.ib = int32(j)
		}
	}
	return seen
}

// unique returns the node of the second tree whose subtree is node i's of
// the first (hashes ha), when that subtree occurs once in each tree.
func (s hashOccs) unique(ha []uint64, i int) (int32, bool) {
	o := s[ha[i]]
	if o == nil || o.na != 1 || o.nb != 1 {
		return 0, false
	}
	return o.ib, true
}

// ancestors lists x's ancestors, nearest first, up to maxVoteLevels.
func ancestors(x *treediff.Node) []*treediff.Node {
	var up []*treediff.Node
	for c := x.Parent; c != nil && len(up) < maxVoteLevels; c = c.Parent {
		up = append(up, c)
	}
	return up
}

// voteAncestors gives weight w to each pair of ancestors upA[k], upB[m]
// with the same tag and about the same height (|k-m| <= voteWindow).
func voteAncestors(votes map[uint64]int32, upA, upB []*treediff.Node, w int32) {
	for k, ax := range upA {
		for d := -voteWindow; d <= voteWindow; d++ {
			if m := k + d; m >= 0 && m < len(upB) && upB[m].Label == ax.Label {
				votes[pairKey(ax, upB[m])] += w
			}
		}
	}
}

// identical maps two subtrees known to be equal node for node.
func (w *aligner) identical(a, b *treediff.Node) {
	// Preorder ranges of equal subtrees line up one to one.
	n := int(w.sa[a.Index])
	for k := 0; k < n; k++ {
		w.al.match(w.al.A.Nodes[a.Index+k], w.al.B.Nodes[b.Index+k])
	}
	w.al.Stats.IdenticalNodes += 2 * n
}

// pair maps a to b and aligns what is below them.
func (w *aligner) pair(a, b *treediff.Node) error {
	if w.ha[a.Index] == w.hb[b.Index] && w.sa[a.Index] == w.sb[b.Index] {
		w.identical(a, b)
		return nil
	}
	w.al.match(a, b)
	return w.children(a.Children, b.Children)
}

// children aligns two sibling sequences: identical subtrees first (as a
// longest common subsequence of subtree hashes), then each gap between them.
func (w *aligner) children(ca, cb []*treediff.Node) error {
	eqHash := func(i, j int) bool {
		x, y := ca[i], cb[j]
		return w.ha[x.Index] == w.hb[y.Index] && w.sa[x.Index] == w.sb[y.Index]
	}
	keyA := func(i int) uint64 { return w.ha[ca[i].Index] }
	keyB := func(j int) uint64 { return w.hb[cb[j].Index] }
	anchors := lcsAnchored(len(ca), len(cb), eqHash, keyA, keyB, w.opt.SeqCells)
	pi, pj := 0, 0
	for _, m := range append(anchors, [2]int{len(ca), len(cb)}) {
		if err := w.gap(ca[pi:m[0]], cb[pj:m[1]]); err != nil {
			return err
		}
		if m[0] < len(ca) {
			w.identical(ca[m[0]], cb[m[1]])
		}
		pi, pj = m[0]+1, m[1]+1
	}
	return nil
}

// gap aligns two runs of siblings with no identical subtree in common.
func (w *aligner) gap(ga, gb []*treediff.Node) error {
	if len(ga) == 0 || len(gb) == 0 {
		return nil // all deleted or all inserted
	}
	na, nb := 0, 0
	for _, x := range ga {
		na += int(w.sa[x.Index])
	}
	for _, y := range gb {
		nb += int(w.sb[y.Index])
	}
	if na+nb <= w.opt.RegionBudget {
		if err := w.exactRegion(ga, gb, na+nb); !errors.Is(err, errNoExact) {
			return err
		}
	}
	w.al.Stats.SeqNodes += len(ga) + len(gb)
	// Over budget: pair elements of the same tag and tokens of the same word
	// in order, elements preferably with the partner they share the most
	// anchored subtrees with, then recurse into paired elements.
	eq := func(i, j int) bool {
		x, y := ga[i], gb[j]
		return x.Kind == y.Kind && x.Label == y.Label
	}
	var matches [][2]int
	if len(ga)*len(gb) <= w.opt.SeqCells {
		matches = weightedLCS(len(ga), len(gb), func(i, j int) int64 {
			if !eq(i, j) {
				return 0
			}
			// An anchor vote outweighs any number of bare tag matches.
			return 1 + int64(w.votes[pairKey(ga[i], gb[j])])*int64(len(ga)+len(gb)+1)
		})
	} else {
		keyA := func(i int) uint64 { return labelKey(ga[i]) }
		keyB := func(j int) uint64 { return labelKey(gb[j]) }
		matches = lcsAnchored(len(ga), len(gb), eq, keyA, keyB, w.opt.SeqCells)
	}
	for _, m := range matches {
		x, y := ga[m[0]], gb[m[1]]
		if x.Kind == treediff.Token {
			w.al.match(x, y)
			continue
		}
		if err := w.pair(x, y); err != nil {
			return err
		}
	}
	return nil
}

// labelKey hashes a node's kind and label (for anchoring by uniqueness).
func labelKey(n *treediff.Node) uint64 {
	h := uint64(14695981039346656037)
	h ^= uint64(n.Kind)
	h *= 1099511628211
	for i := 0; i < len(n.Label); i++ {
		h ^= uint64(n.Label[i])
		h *= 1099511628211
	}
	return h
}

// exactRegion maps two forests with the exact tree edit distance, under a
// shared virtual root.
func (w *aligner) exactRegion(ga, gb []*treediff.Node, nodes int) error {
	ta, backA := forestTree(w.al.A.Name, ga)
	tb, backB := forestTree(w.al.B.Name, gb)
	pairs, err := exactMapping(ta, tb)
	if err != nil {
		return err
	}
	for _, p := range pairs {
		if p[0].Index == 0 || p[1].Index == 0 {
			continue // the virtual roots
		}
		w.al.match(backA[p[0].Index], backB[p[1].Index])
	}
	w.al.Stats.ExactRegions++
	w.al.Stats.ExactNodes += nodes
	return nil
}

// forestTree copies a forest under a virtual root into a tree of its own,
// returning the copy and, per copy index, the original node.
func forestTree(name string, roots []*treediff.Node) (*treediff.Tree, []*treediff.Node) {
	t := &treediff.Tree{Name: name}
	root := &treediff.Node{Kind: treediff.Element, Label: "\x00forest"}
	t.Root = root
	t.Nodes = append(t.Nodes, root)
	back := []*treediff.Node{nil}
	type item struct{ src, parent *treediff.Node }
	stack := make([]item, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{roots[i], root})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &treediff.Node{Kind: it.src.Kind, Label: it.src.Label, Attrs: it.src.Attrs, Parent: it.parent,
			Depth: it.parent.Depth + 1, Offset: it.src.Offset, Index: len(t.Nodes), Origin: it.src.Origin}
		it.parent.Children = append(it.parent.Children, n)
		t.Nodes = append(t.Nodes, n)
		back = append(back, it.src)
		for i := len(it.src.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{it.src.Children[i], n})
		}
	}
	return t, back
}

// lcsAnchored returns index pairs (i, j), increasing in both, of a common
// subsequence of two sequences under eq. Sequences whose table would exceed
// maxCells are first cut at elements unique in both sequences (a longest
// increasing run of such anchors, as in patience diff); pieces still too big
// keep only their anchors.
func lcsAnchored(n, m int, eq func(i, j int) bool, keyA func(int) uint64, keyB func(int) uint64, maxCells int) [][2]int {
	// Common prefix and suffix cost nothing.
	lo := 0
	for lo < n && lo < m && eq(lo, lo) {
		lo++
	}
	hiA, hiB := n, m
	for hiA > lo && hiB > lo && eq(hiA-1, hiB-1) {
		hiA--
		hiB--
	}
	out := make([][2]int, 0, lo+(n-hiA))
	for i := 0; i < lo; i++ {
		out = append(out, [2]int{i, i})
	}
	out = append(out, lcsMiddle(lo, hiA, lo, hiB, eq, keyA, keyB, maxCells)...)
	for k := 0; k < n-hiA; k++ {
		out = append(out, [2]int{hiA + k, hiB + k})
	}
	return out
}

func lcsMiddle(a0, a1, b0, b1 int, eq func(i, j int) bool, keyA func(int) uint64, keyB func(int) uint64, maxCells int) [][2]int {
	n, m := a1-a0, b1-b0
	if n == 0 || m == 0 {
		return nil
	}
	if n*m <= maxCells {
		return lcsDP(a0, a1, b0, b1, eq)
	}
	anchors := uniqueAnchors(a0, a1, b0, b1, eq, keyA, keyB)
	if len(anchors) == 0 {
		return nil
	}
	var out [][2]int
	pi, pj := a0, b0
	for _, p := range anchors {
		out = append(out, lcsMiddle(pi, p[0], pj, p[1], eq, keyA, keyB, maxCells)...)
		out = append(out, p)
		pi, pj = p[0]+1, p[1]+1
	}
	return append(out, lcsMiddle(pi, a1, pj, b1, eq, keyA, keyB, maxCells)...)
}

// lcsDP is the textbook longest common subsequence by dynamic programming
// over the half-open ranges [a0,a1) and [b0,b1).
func lcsDP(a0, a1, b0, b1 int, eq func(i, j int) bool) [][2]int {
	n, m := a1-a0, b1-b0
	// L[i][j] = LCS length of suffixes a[i:], b[j:]; stored flat.
	L := make([]int32, (n+1)*(m+1))
	w := m + 1
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case eq(a0+i, b0+j):
				L[i*w+j] = L[(i+1)*w+j+1] + 1
			case L[(i+1)*w+j] >= L[i*w+j+1]:
				L[i*w+j] = L[(i+1)*w+j]
			default:
				L[i*w+j] = L[i*w+j+1]
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case eq(a0+i, b0+j):
			out = append(out, [2]int{a0 + i, b0 + j})
			i++
			j++
		case L[(i+1)*w+j] >= L[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// uniqueAnchors pairs elements whose key occurs once in each range and that
// are equal, keeping a longest run increasing in both sequences.
func uniqueAnchors(a0, a1, b0, b1 int, eq func(i, j int) bool, keyA func(int) uint64, keyB func(int) uint64) [][2]int {
	type occ struct{ i, j, na, nb int }
	seen := map[uint64]*occ{}
	for i := a0; i < a1; i++ {
		k := keyA(i)
		o := seen[k]
		if o == nil {
			o = &occ{i: i, j: -1}
			seen[k] = o
		}
		o.na++
	}
	for j := b0; j < b1; j++ {
		if o := seen[keyB(j)]; o != nil {
			o.nb++
			o.j = j
		}
	}
	var cand [][2]int
	for _, o := range seen {
		if o.na == 1 && o.nb == 1 && eq(o.i, o.j) {
			cand = append(cand, [2]int{o.i, o.j})
		}
	}
	sort.Slice(cand, func(x, y int) bool { return cand[x][0] < cand[y][0] })
	return longestIncreasing(cand)
}

// longestIncreasing returns a longest subsequence of pairs (sorted by first
// element) whose second elements increase.
func longestIncreasing(p [][2]int) [][2]int {
	if len(p) == 0 {
		return nil
	}
	tails := []int{} // index into p of the smallest tail of each length
	prev := make([]int, len(p))
	for k := range p {
		x := p[k][1]
		lo, hi := 0, len(tails)
		for lo < hi {
			mid := (lo + hi) / 2
			if p[tails[mid]][1] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo > 0 {
			prev[k] = tails[lo-1]
		} else {
			prev[k] = -1
		}
		if lo == len(tails) {
			tails = append(tails, k)
		} else {
			tails[lo] = k
		}
	}
	out := make([][2]int, len(tails))
	for k, i := len(tails)-1, tails[len(tails)-1]; k >= 0; k, i = k-1, prev[i] {
		out[k] = p[i]
	}
	return out
}

// weightedLCS returns index pairs, increasing in both sequences, of
// positive weight and maximal total weight (w(i, j) = 0: not matchable).
func weightedLCS(n, m int, w func(i, j int) int64) [][2]int {
	W := m + 1
	L := make([]int64, (n+1)*(m+1))
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			best := max(L[(i+1)*W+j], L[i*W+j+1])
			if v := w(i, j); v > 0 {
				best = max(best, L[(i+1)*W+j+1]+v)
			}
			L[i*W+j] = best
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		if v := w(i, j); v > 0 && L[i*W+j] == L[(i+1)*W+j+1]+v {
			out = append(out, [2]int{i, j})
			i++
			j++
		} else if L[(i+1)*W+j] >= L[i*W+j+1] {
			i++
		} else {
			j++
		}
	}
	return out
}
