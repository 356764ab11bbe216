package treediff

import (
	"fmt"
	"math"
	"sync"
)

// postTree is a tree flattened for the Zhang–Shasha recurrences: nodes
// numbered in postorder, with the postorder number of each node's leftmost
// leaf descendant (lld) and the keyroots. When mirrored, children are taken
// right to left, which turns Zhang–Shasha's left decomposition into the right
// one.
type postTree struct {
	label    []int32 // interned label per postorder number
	lld      []int32
	keyroots []int32 // ascending
	// repeat maps a keyroot whose subtree repeats an earlier keyroot's to
	// that keyroot (see findRepeats); nil: no reuse.
	repeat map[int32]int32
	node   []*Node // postorder number -> node
	// costLeft and costRight are the sums of the subtree sizes of the
	// keyroots of the left and of the right decomposition (in traversal
	// order): the Zhang–Shasha work is the product of the two trees' sums.
	costLeft, costRight int64
}

func (p *postTree) len() int { return len(p.label) }

type labelKey struct {
	kind  Kind
	label string
}

// interner numbers labels so that the inner loops compare ints. One interner
// serves the two trees of a comparison.
type interner struct {
	kinds bool
	ids   map[labelKey]int32
}

func (in *interner) id(n *Node) int32 {
	k := labelKey{label: n.Label}
	if in.kinds {
		k.kind = n.Kind
	}
	id, ok := in.ids[k]
	if !ok {
		id = int32(len(in.ids))
		in.ids[k] = id
	}
	return id
}

// flatten numbers t's nodes in postorder without recursion, children left to
// right, or right to left when mirror is set. It fails when the nodes
// reachable from the root are not the len(t.Nodes) listed (a tree assembled
// by hand with a node missing from Nodes, or a cycle), since budgets are
// checked on len(t.Nodes).
func flatten(t *Tree, mirror bool, in *interner) (*postTree, error) {
	n := treeLen(t)
	p := &postTree{
		label: make([]int32, 0, n),
		lld:   make([]int32, 0, n),
		node:  make([]*Node, 0, n),
	}
	if n == 0 {
		return p, nil
	}
	type frame struct {
		n   *Node
		k   int   // children pushed so far
		lld int32 // leftmost leaf of the first child done, -1 before
	}
	stack := []frame{{t.Root, 0, -1}}
	pushed := 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if kids := top.n.Children; top.k < len(kids) {
			c := kids[top.k]
			if mirror {
				c = kids[len(kids)-1-top.k]
			}
			top.k++
			if pushed++; pushed > n {
				return nil, fmt.Errorf("tree %s: more nodes reachable from the root than the %d listed in Nodes", treeName(t), n)
			}
			stack = append(stack, frame{c, 0, -1})
			continue
		}
		post := int32(len(p.label))
		lld := top.lld
		if lld < 0 {
			lld = post
		}
		p.label = append(p.label, in.id(top.n))
		p.lld = append(p.lld, lld)
		p.node = append(p.node, top.n)
		size := int64(post - lld + 1)
		stack = stack[:len(stack)-1]
		if len(stack) == 0 {
			p.keyroots = append(p.keyroots, post)
			p.costLeft += size
			p.costRight += size
			break
		}
		parent := &stack[len(stack)-1]
		first := parent.k == 1
		last := parent.k == len(parent.n.Children)
		if first {
			parent.lld = lld
		} else {
			p.keyroots = append(p.keyroots, post)
		}
		if !first {
			p.costLeft += size
		}
		if !last {
			p.costRight += size
		}
	}
	if len(p.label) != n {
		return nil, fmt.Errorf("tree %s: %d nodes reachable from the root, %d listed in Nodes", treeName(t), len(p.label), n)
	}
	return p, nil
}

// cell is the integer type of the distance matrices: uint16 while every
// distance fits (n1+n2 < 65535), halving memory and cache traffic.
type cell interface{ ~uint16 | ~int32 }

var (
	pool16 sync.Pool // *[]uint16
	pool32 sync.Pool // *[]int32
)

func getBuf[C cell](p *sync.Pool, n int) *[]C {
	if v, ok := p.Get().(*[]C); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	s := make([]C, n)
	return &s
}

// comparison holds one TED computation: the two flattened trees, oriented
// for the cheaper decomposition, and the matrices.
type comparison struct {
	a, b   *Tree
	pa, pb *postTree
	opt    Options
	same   bool // identical trees: distance 0, identity mapping
	wide   bool // int32 cells
	td16   *[]uint16
	fd16   *[]uint16
	td32   *[]int32
	fd32   *[]int32
}

func newComparison(a, b *Tree, opt Options) (*comparison, error) {
	if opt.MaxCells <= 0 {
		opt.MaxCells = DefaultMaxCells
	}
	if opt.MaxWork <= 0 {
		opt.MaxWork = DefaultMaxWork
	}
	n1, n2 := int64(treeLen(a)), int64(treeLen(b))
	c := &comparison{a: a, b: b, opt: opt, wide: n1+n2 >= 65535}
	in := &interner{kinds: opt.CompareKinds, ids: make(map[labelKey]int32)}
	var err error
	if c.pa, err = flatten(a, false, in); err != nil {
		return nil, err
	}
	if c.pb, err = flatten(b, false, in); err != nil {
		return nil, err
	}
	if c.pa.len() == c.pb.len() && equalInt32(c.pa.label, c.pb.label) && equalInt32(c.pa.lld, c.pb.lld) {
		// Identical trees (common among a site's pages): no matrix.
		c.same = true
		return c, nil
	}
	mirror, err := c.withinBudgets()
	if err != nil {
		return nil, err
	}
	if mirror {
		// The trees were checked by the first flattening.
		c.pa, _ = flatten(a, true, in)
		c.pb, _ = flatten(b, true, in)
	}
	c.pa.findRepeats()
	c.pb.findRepeats()
	return c, nil
}

// withinBudgets checks the comparison against its budgets: the cells of
// its matrix, and the subproblems of the cheaper direction, which it
// reports: mirror when right-to-left postorders cost less.
func (c *comparison) withinBudgets() (mirror bool, err error) {
	n1, n2 := int64(treeLen(c.a)), int64(treeLen(c.b))
	if n1*n2 > c.opt.MaxCells {
		return false, budgetError(c.a, c.b, "matrix cells", n1*n2, c.opt.MaxCells)
	}
	left, right := mulSat(c.pa.costLeft, c.pb.costLeft), mulSat(c.pa.costRight, c.pb.costRight)
	if work := min(left, right); work > c.opt.MaxWork {
		return false, budgetError(c.a, c.b, "subproblems", work, c.opt.MaxWork)
	}
	return right < left, nil
}

// mulSat multiplies non-negative x and y, saturating instead of overflowing.
func mulSat(x, y int64) int64 {
	if x != 0 && y > math.MaxInt64/x {
		return math.MaxInt64
	}
	return x * y
}

func equalInt32(x, y []int32) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func (c *comparison) release() {
	if c.td16 != nil {
		pool16.Put(c.td16)
		pool16.Put(c.fd16)
	}
	if c.td32 != nil {
		pool32.Put(c.td32)
		pool32.Put(c.fd32)
	}
	c.td16, c.fd16, c.td32, c.fd32 = nil, nil, nil, nil
}

func (c *comparison) distance() int {
	n1, n2 := c.pa.len(), c.pb.len()
	if c.same {
		return 0
	}
	if n1 == 0 || n2 == 0 {
		return n1 + n2
	}
	plan := planRows(c.pa)
	if c.wide {
		c.td32 = getBuf[int32](&pool32, n1*n2)
		c.fd32 = getBuf[int32](&pool32, plan.nslots*(n2+1))
		return int(zsDistance(c.pa, c.pb, *c.td32, *c.fd32, plan))
	}
	c.td16 = getBuf[uint16](&pool16, n1*n2)
	c.fd16 = getBuf[uint16](&pool16, plan.nslots*(n2+1))
	return int(zsDistance(c.pa, c.pb, *c.td16, *c.fd16, plan))
}

// mapping returns the edit mapping; distance must have run.
func (c *comparison) mapping() []Pair {
	return c.mergePreorders(c.partners())
}

// partners returns, for each postorder node of a, its partner's postorder
// in b, or -1.
func (c *comparison) partners() []int32 {
	n1, n2 := c.pa.len(), c.pb.len()
	partner := make([]int32, n1)
	for i := range partner {
		partner[i] = -1
	}
	switch {
	case c.same:
		for i := range partner {
			partner[i] = int32(i)
		}
	case n1 == 0 || n2 == 0:
	case c.wide:
		// Backtracking needs whole forest matrices, up to (n1+1)×(n2+1).
		pool32.Put(c.fd32)
		c.fd32 = getBuf[int32](&pool32, (n1+1)*(n2+1))
		zsMapping(c.pa, c.pb, *c.td32, *c.fd32, partner)
	default:
		pool16.Put(c.fd16)
		c.fd16 = getBuf[uint16](&pool16, (n1+1)*(n2+1))
		zsMapping(c.pa, c.pb, *c.td16, *c.fd16, partner)
	}
	return partner
}

// mergePreorders orders the pairs of partner by merging the two preorders:
// a mapping preserves ancestry and sibling order, so the k-th mapped node of
// a in preorder is mapped to the k-th mapped node of b.
func (c *comparison) mergePreorders(partner []int32) []Pair {
	n1, n2 := c.pa.len(), c.pb.len()
	inB := c.mappedInB(partner)
	postA := make(map[*Node]int32, n1)
	for i, n := range c.pa.node {
		postA[n] = int32(i)
	}
	preA, preB := preorder(c.a), preorder(c.b)
	out := make([]Pair, 0, n1+n2)
	i, j := 0, 0
	for i < len(preA) || j < len(preB) {
		if i < len(preA) && partner[postA[preA[i]]] < 0 {
			out = append(out, Pair{A: preA[i]})
			i++
			continue
		}
		if j < len(preB) && !inB[preB[j]] {
			out = append(out, Pair{B: preB[j]})
			j++
			continue
		}
		// Both sides are mapped nodes (the loop invariants guarantee both
		// exist while mapped nodes remain).
		out = append(out, Pair{A: preA[i], B: c.pb.node[partner[postA[preA[i]]]]})
		i++
		j++
	}
	return out
}

// mappedInB is the set of b's nodes that partner maps a node to.
func (c *comparison) mappedInB(partner []int32) map[*Node]bool {
	inB := make(map[*Node]bool, c.pb.len())
	for _, p := range partner {
		if p >= 0 {
			inB[c.pb.node[p]] = true
		}
	}
	return inB
}

func preorder(t *Tree) []*Node {
	if treeLen(t) == 0 {
		return nil
	}
	out := make([]*Node, 0, len(t.Nodes))
	t.Root.Walk(func(n *Node) bool { out = append(out, n); return true })
	return out
}

// rowPlan assigns the forest-distance rows of each keyroot of the first
// tree to a few reusable row slots. Row x of fd is read by row x+1 (as the
// previous row) and by the rows of nodes whose leftmost leaf follows it (as
// the forest left of their subtree); once its last reader is done its slot is
// free again. Live rows are about as many as the tree is deep, so the forest
// matrix of Distance takes a few rows instead of n1×n2 cells, and stays in
// cache.
type rowPlan struct {
	slots  []int32 // per keyroot, its rows' slots, concatenated
	start  []int32 // keyroot index -> offset in slots
	nslots int     // slots needed by the largest keyroot
}

// rowDelay keeps a row's slot busy for this many rows after its last reader,
// because forestDist computes up to four rows in one interleaved pass.
const rowDelay = 3

func planRows(a *postTree) rowPlan {
	p := rowPlan{start: make([]int32, len(a.keyroots))}
	var lastUse, head, next, free []int32
	for ki, k1 := range a.keyroots {
		p.start[ki] = int32(len(p.slots))
		l1 := int(a.lld[k1])
		m := int(k1) - l1 + 1
		if m == 1 {
			continue // a leaf keyroot needs no forest rows
		}
		lastUse = grow(lastUse, m+1)
		for x := 0; x <= m; x++ {
			lastUse[x] = int32(min(x+1, m))
		}
		for x := 1; x <= m; x++ {
			if r := int(a.lld[l1+x-1]) - l1; r > 0 {
				lastUse[r] = max(lastUse[r], int32(x))
			}
		}
		// Bucket rows by the row after which their slot is released.
		head = grow(head, m+1+rowDelay)
		next = grow(next, m+1)
		for t := range head {
			head[t] = -1
		}
		for x := 0; x <= m; x++ {
			t := lastUse[x] + rowDelay
			next[x], head[t] = head[t], int32(x)
		}
		free = free[:0]
		used := 0
		base := len(p.slots)
		for x := 0; x <= m; x++ {
			var sl int32
			if n := len(free); n > 0 {
				sl, free = free[n-1], free[:n-1]
			} else {
				sl = int32(used)
				used++
			}
			p.slots = append(p.slots, sl)
			for r := head[x]; r >= 0; r = next[r] {
				free = append(free, p.slots[base+int(r)])
			}
		}
		p.nslots = max(p.nslots, used)
	}
	return p
}

func grow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// zsDistance runs Zhang–Shasha over all keyroot pairs, filling td (n1×n2,
// tree distances between subtrees) and using fd, plan.nslots rows of n2+1
// cells, as forest scratch space. Pairs with a leaf keyroot on either side
// are filled beforehand in closed form (leafRows, leafColumns).
func zsDistance[C cell](a, b *postTree, td, fd []C, plan rowPlan) C {
	leafRows(a, b, td)
	leafColumns(a, b, td)
	n1, n2 := a.len(), b.len()
	type inner struct {
		k, rep int32
		path   []int32 // leftmost path offsets
	}
	var ks []inner
	for _, k2 := range b.keyroots {
		if b.lld[k2] == k2 {
			continue // a leaf: filled by leafColumns
		}
		ks = append(ks, inner{k: k2, rep: b.repeatOf(k2), path: leftPath(b, k2)})
	}
	for ki, k1 := range a.keyroots {
		if a.lld[k1] == k1 {
			continue // a leaf: filled by leafRows
		}
		if r1 := a.repeatOf(k1); r1 >= 0 {
			copyRows(a, k1, r1, n2, td)
			continue
		}
		slot := plan.slots[plan.start[ki]:]
		rows := leftPath(a, k1)
		for _, in := range ks {
			if in.rep >= 0 {
				copyColumns(rows, int(a.lld[k1]), in.path, int(in.k), int(in.rep), b, td)
				continue
			}
			forestDist(a, b, int(k1), int(in.k), in.path, td, fd, slot, true)
		}
	}
	return td[(n1-1)*n2+n2-1]
}

// The distance between a leaf k and a subtree j is the size of j, less one
// if some node of j carries k's label (the leaf is kept as that node, the
// other nodes inserted; or renamed into any of them). A subtree of j is the
// postorder range lld(j)..j, so it carries the label when the last node
// with that label up to j comes at lld(j) or after. Each keyroot pair with
// a leaf side needs that distance for the subtrees on the other keyroot's
// left path; as every node lies on the left path of exactly one keyroot,
// a leaf keyroot needs it for every node of the other tree: one scan of
// that tree per leaf keyroot, instead of one scan of each keyroot's
// subtree (a few times more work on page trees, where most keyroots are
// word leaves).

// leafRows fills the td rows of the leaf keyroots of a: one scan of b per
// leaf, tracking the last node of b with the leaf's label.
func leafRows[C cell](a, b *postTree, td []C) {
	n2 := b.len()
	labB, lldB := b.label[:n2], b.lld[:n2]
	for _, k := range a.keyroots {
		if a.lld[k] != k {
			continue
		}
		lab := a.label[k]
		row := td[int(k)*n2 : int(k)*n2+n2][:len(labB)]
		last := int32(-1)
		for j, l := range labB {
			if l == lab {
				last = int32(j)
			}
			v := C(int32(j) - lldB[j] + 1)
			if last >= lldB[j] {
				v--
			}
			row[j] = v
		}
	}
}

// leafColumns fills the td columns of the leaf keyroots of b, row by row
// (td is row-major): one scan of a, tracking for every label its last node
// so far, answers every leaf of b at once.
func leafColumns[C cell](a, b *postTree, td []C) {
	n1, n2 := a.len(), b.len()
	var leaves, labs []int32
	nlab := int32(0)
	for _, k := range b.keyroots {
		if b.lld[k] == k {
			leaves = append(leaves, k)
			labs = append(labs, b.label[k])
			nlab = max(nlab, b.label[k]+1)
		}
	}
	if len(leaves) == 0 {
		return
	}
	for _, l := range a.label {
		nlab = max(nlab, l+1)
	}
	last := make([]int32, nlab)
	for i := range last {
		last[i] = -1
	}
	labs = labs[:len(leaves)]
	for i := 0; i < n1; i++ {
		last[a.label[i]] = int32(i)
		li := a.lld[i]
		size := C(int32(i) - li + 1)
		row := td[i*n2 : i*n2+n2]
		for x, k := range leaves {
			v := size
			if last[labs[x]] >= li {
				v--
			}
			row[k] = v
		}
	}
}

// forestDist fills fd with the distances between the prefixes of the forests
// lld(k1)..k1 and lld(k2)..k2; with store set it records in td the distances
// of subtree pairs on the two leftmost paths. Row x of fd holds the forests
// ending at l1+x-1, column y those ending at l2+y-1; the row lives in slot
// slot[x] (rows of k2-l2+2 cells).
func forestDist[C cell](a, b *postTree, k1, k2 int, path []int32, td, fd []C, slot []int32, store bool) {
	l1, l2 := int(a.lld[k1]), int(b.lld[k2])
	m, n := k1-l1+1, k2-l2+1
	w := n + 1
	n2 := b.len()
	rowAt := func(x int) int { return int(slot[x]) * w }
	fd0 := fd[rowAt(0) : rowAt(0)+w]
	for y := range fd0 {
		fd0[y] = C(y)
	}
	lldB := b.lld[l2 : k2+1]
	labB := b.label[l2 : k2+1]
	for x := 1; x <= m; x++ {
		i := l1 + x - 1
		if x+3 <= m && int(a.lld[i]) != l1 && int(a.lld[i+1]) != l1 && int(a.lld[i+2]) != l1 && int(a.lld[i+3]) != l1 {
			forestRows4(fd, td, lldB, w,
				[5]int{rowAt(x - 1), rowAt(x), rowAt(x + 1), rowAt(x + 2), rowAt(x + 3)},
				[4]int{rowAt(int(a.lld[i]) - l1), rowAt(int(a.lld[i+1]) - l1), rowAt(int(a.lld[i+2]) - l1), rowAt(int(a.lld[i+3]) - l1)},
				i*n2+l2, n2, l2, C(x))
			x += 3
			continue
		}
		if x < m && int(a.lld[i]) != l1 && int(a.lld[i+1]) != l1 {
			// Two rows off the left path at once: their two dependency
			// chains (each cell needs its left neighbour) interleave, which
			// nearly doubles the cells per cycle.
			forestRows2(fd, td, lldB, w, [3]int{rowAt(x - 1), rowAt(x), rowAt(x + 1)},
				[2]int{rowAt(int(a.lld[i]) - l1), rowAt(int(a.lld[i+1]) - l1)}, i*n2+l2, n2, l2, C(x))
			x++
			continue
		}
		prev := fd[rowAt(x-1) : rowAt(x-1)+w]
		row := fd[rowAt(x) : rowAt(x)+w]
		tdrow := td[i*n2+l2 : i*n2+k2+1]
		li := int(a.lld[i])
		left := C(x)
		row[0] = left
		prev1, row1 := prev[1:], row[1:]
		prev1, row1, tdrow = prev1[:len(lldB)], row1[:len(lldB)], tdrow[:len(lldB)]
		if li == l1 {
			pathRow(prev, row, tdrow, lldB, labB, path, a.label[i], l2, store)
			continue
		}
		// fd[li-l1][lj-l2], i.e. the forests left of subtrees i and j.
		base := fd[rowAt(li-l1) : rowAt(li-l1)+w]
		for y, lj := range lldB {
			v := base[int(lj)-l2] + tdrow[y]
			v = min(v, prev1[y]+1, left+1)
			row1[y] = v
			left = v
		}
	}
}

// pathRow computes row x of fd for a node i on the leftmost path of the
// first forest (row[0] already holds x). The columns of nodes on the second
// forest's leftmost path (path: their offsets from l2, ascending, ending
// with the keyroot's) compare the two subtrees' roots and, with store set,
// record the subtree distance in tdrow; the columns between them, one
// segment at a time, use the stored distance of the subtree they end, with
// the empty forest left of it on the first side (fd[0][lj-l2] = lj-l2).
func pathRow[C cell](prev, row, tdrow []C, lldB, labB, path []int32, la int32, l2 int, store bool) {
	left := row[0]
	y := 0 // column y+1, node l2+y
	for _, p := range path {
		for ; y < int(p); y++ {
			v := min(C(int(lldB[y])-l2)+tdrow[y], prev[y+1]+1, left+1)
			row[y+1], left = v, v
		}
		diag := prev[y]
		if la != labB[y] {
			diag++
		}
		v := min(diag, prev[y+1]+1, left+1)
		row[y+1], left = v, v
		if store {
			tdrow[y] = v
		}
		y++
	}
}

// forestRows2 computes rows x and x+1 of fd for two consecutive nodes of the
// first forest, neither on its leftmost path. rows holds the offsets of rows
// x-1, x and x+1, bases those of the rows left of the two nodes' subtrees,
// tdOff the td offset of the first node's row at column l2. Row x+1 may read
// its base in row x: only columns already written.
func forestRows2[C cell](fd, td []C, lldB []int32, w int, rows [3]int, bases [2]int, tdOff, n2, l2 int, x C) {
	n := len(lldB)
	prev := fd[rows[0]+1 : rows[0]+1+n]
	r0 := fd[rows[1]+1 : rows[1]+1+n]
	r1 := fd[rows[2]+1 : rows[2]+1+n]
	base0 := fd[bases[0] : bases[0]+w]
	base1 := fd[bases[1] : bases[1]+w]
	td0 := td[tdOff : tdOff+n]
	td1 := td[tdOff+n2 : tdOff+n2+n]
	left0, left1 := x, x+1
	fd[rows[1]], fd[rows[2]] = left0, left1
	for y, lj := range lldB {
		off := int(lj) - l2
		v0 := min(base0[off]+td0[y], prev[y]+1, left0+1)
		r0[y] = v0
		left0 = v0
		v1 := min(base1[off]+td1[y], v0+1, left1+1)
		r1[y] = v1
		left1 = v1
	}
}

// forestRows4 is forestRows2 for four rows. Every slice but the bases is
// resliced to len(lldB), which lets the compiler drop their bounds checks;
// the recurrence is written min(b+t, min(up, left)+1) to save an addition.
func forestRows4[C cell](fd, td []C, lldB []int32, w int, rows [5]int, bases [4]int, tdOff, n2, l2 int, x C) {
	n := len(lldB)
	prev := fd[rows[0]+1 : rows[0]+1+n][:len(lldB)]
	r0 := fd[rows[1]+1 : rows[1]+1+n][:len(lldB)]
	r1 := fd[rows[2]+1 : rows[2]+1+n][:len(lldB)]
	r2 := fd[rows[3]+1 : rows[3]+1+n][:len(lldB)]
	r3 := fd[rows[4]+1 : rows[4]+1+n][:len(lldB)]
	base0 := fd[bases[0] : bases[0]+w]
	base1 := fd[bases[1] : bases[1]+w]
	base2 := fd[bases[2] : bases[2]+w]
	base3 := fd[bases[3] : bases[3]+w]
	td0 := td[tdOff : tdOff+n][:len(lldB)]
	td1 := td[tdOff+n2 : tdOff+n2+n][:len(lldB)]
	td2 := td[tdOff+2*n2 : tdOff+2*n2+n][:len(lldB)]
	td3 := td[tdOff+3*n2 : tdOff+3*n2+n][:len(lldB)]
	left0, left1, left2, left3 := x, x+1, x+2, x+3
	fd[rows[1]], fd[rows[2]], fd[rows[3]], fd[rows[4]] = left0, left1, left2, left3
	for y, lj := range lldB {
		off := int(lj) - l2
		left0 = min(base0[off]+td0[y], min(prev[y], left0)+1)
		r0[y] = left0
		left1 = min(base1[off]+td1[y], min(left0, left1)+1)
		r1[y] = left1
		left2 = min(base2[off]+td2[y], min(left1, left2)+1)
		r2[y] = left2
		left3 = min(base3[off]+td3[y], min(left2, left3)+1)
		r3[y] = left3
	}
}

// zsMapping recovers an optimal mapping from the filled td by backtracking
// through recomputed forest distances, subtree pair by subtree pair, with an
// explicit stack. partner receives, for each postorder node of a, its
// partner in b or -1.
func zsMapping[C cell](a, b *postTree, td, fd []C, partner []int32) {
	bt := backtracker[C]{a: a, b: b, td: td, fd: fd, partner: partner}
	bt.stack = []zsJob{{a.len() - 1, b.len() - 1}}
	// Backtracking reads any row: every row gets its own slot.
	ident := make([]int32, a.len()+1)
	for x := range ident {
		ident[x] = int32(x)
	}
	for len(bt.stack) > 0 {
		jb := bt.stack[len(bt.stack)-1]
		bt.stack = bt.stack[:len(bt.stack)-1]
		forestDist(a, b, jb.i, jb.j, leftPath(b, int32(jb.j)), td, fd, ident, false)
		bt.walk(jb.i, jb.j)
	}
}

// zsJob is a subtree pair left to backtrack: the postorder of its roots.
type zsJob struct{ i, j int }

// backtracker walks the forest distances fd of one subtree pair back from
// its last cell: fd's rows start at the leftmost leaf l1 of a's subtree,
// its columns at l2 of b's, rows w cells wide. Kept pairs go to partner;
// the subtree pairs a step took whole from td are queued on stack.
type backtracker[C cell] struct {
	a, b      *postTree
	td, fd    []C
	partner   []int32
	stack     []zsJob
	l1, l2, w int
}

// walk backtracks the subtree pair rooted at i0 in a and j0 in b, whose
// forest distances fd holds.
func (bt *backtracker[C]) walk(i0, j0 int) {
	bt.l1, bt.l2 = int(bt.a.lld[i0]), int(bt.b.lld[j0])
	bt.w = j0 - bt.l2 + 2
	x, y := i0-bt.l1+1, j0-bt.l2+1
	for x > 0 || y > 0 {
		x, y = bt.step(x, y)
	}
}

// step takes one optimal step back from cell (x, y) and returns the cell
// it leads to. Among equally optimal steps, it prefers keeping nodes with
// equal labels, then deletions and insertions, and rename last: the mapping
// then reads as users expect (an extra paragraph is deleted, not its
// neighbour renamed).
func (bt *backtracker[C]) step(x, y int) (int, int) {
	fd, w := bt.fd, bt.w
	v := fd[x*w+y]
	i, j := bt.l1+x-1, bt.l2+y-1
	onPath, viaDiag := false, false
	if x > 0 && y > 0 {
		var diag C
		diag, onPath = bt.diagonal(x, y, i, j)
		viaDiag = diag == v
	}
	switch {
	case viaDiag && bt.a.label[i] == bt.b.label[j]:
	case x > 0 && v == fd[(x-1)*w+y]+1:
		return x - 1, y
	case y > 0 && v == fd[x*w+y-1]+1:
		return x, y - 1
	}
	if onPath {
		bt.partner[i] = int32(j)
		return x - 1, y - 1
	}
	bt.stack = append(bt.stack, zsJob{i, j})
	return int(bt.a.lld[i]) - bt.l1, int(bt.b.lld[j]) - bt.l2
}

// diagonal is the cost of reaching cell (x, y) by keeping node i of a with
// node j of b. On the left paths of both subtrees (onPath) it is a rename
// of the pair; elsewhere it is the distance of the forests left of their
// subtrees plus the subtrees' distance td.
func (bt *backtracker[C]) diagonal(x, y, i, j int) (diag C, onPath bool) {
	li, lj := int(bt.a.lld[i]), int(bt.b.lld[j])
	if li != bt.l1 || lj != bt.l2 {
		return bt.fd[(li-bt.l1)*bt.w+lj-bt.l2] + bt.td[i*bt.b.len()+j], false
	}
	diag = bt.fd[(x-1)*bt.w+y-1]
	if bt.a.label[i] != bt.b.label[j] {
		diag++
	}
	return diag, true
}
