package treediff

// Repeated subtrees. Page trees repeat themselves: menu entries, link lists,
// teaser cards, table rows. Two identical subtrees of one tree have the same
// distance to every subtree of the other tree, so Zhang–Shasha's pass over a
// keyroot whose subtree repeats an earlier keyroot's computes nothing new:
// its td entries (the rows of its leftmost path, or in the second tree the
// columns) are copied from the earlier keyroot's instead. The result is
// exactly the same distance; only the work changes.

// shapeIDs numbers the subtrees of p so that two subtrees get the same
// number exactly when they are identical (same labels, same shape): each
// node's number is interned from its label and the numbers of its children.
func shapeIDs(p *postTree) []int32 {
	n := p.len()
	shape := make([]int32, n)
	seqs := make(map[[2]int32]int32)  // (child shape, rest of sequence) -> sequence id
	nodes := make(map[[2]int32]int32) // (label, children sequence) -> shape
	for i := range n {
		// Children right to left: the last child ends just before i, each
		// earlier one just before the leftmost leaf of the next.
		seq := int32(0) // the empty sequence
		for c := i - 1; c >= int(p.lld[i]); c = int(p.lld[c]) - 1 {
			seq = intern(seqs, [2]int32{shape[c], seq}, 1)
		}
		shape[i] = intern(nodes, [2]int32{p.label[i], seq}, 0)
	}
	return shape
}

// intern returns key's number in m, numbering new keys from base on.
func intern(m map[[2]int32]int32, key [2]int32, base int32) int32 {
	id, ok := m[key]
	if !ok {
		id = int32(len(m)) + base
		m[key] = id
	}
	return id
}

// findRepeats records in p.repeat, for each non-leaf keyroot whose subtree
// repeats an earlier keyroot's, that earlier keyroot (the first with its
// shape).
func (p *postTree) findRepeats() {
	shape := shapeIDs(p)
	first := make(map[int32]int32)
	p.repeat = make(map[int32]int32)
	for _, k := range p.keyroots {
		if p.lld[k] == k {
			continue
		}
		if r, ok := first[shape[k]]; ok {
			p.repeat[k] = r
			continue
		}
		first[shape[k]] = k
	}
}

// repeatOf returns the earlier keyroot whose subtree keyroot k repeats, or
// -1 (always -1 before findRepeats).
func (p *postTree) repeatOf(k int32) int32 {
	if r, ok := p.repeat[k]; ok {
		return r
	}
	return -1
}

// leftPath lists the offsets, from the leftmost leaf, of the nodes on the
// leftmost path of keyroot k: the nodes of its subtree sharing its leftmost
// leaf, bottom up.
func leftPath(p *postTree, k int32) []int32 {
	l := p.lld[k]
	var out []int32
	for i := l; i <= k; i++ {
		if p.lld[i] == l {
			out = append(out, i-l)
		}
	}
	return out
}

// copyRows gives the leftmost-path rows of keyroot k1 of a the values of
// those of r1, an identical subtree already computed.
func copyRows[C cell](a *postTree, k1, r1 int32, n2 int, td []C) {
	l1, lr := int(a.lld[k1]), int(a.lld[r1])
	for _, o := range leftPath(a, k1) {
		copy(td[(l1+int(o))*n2:][:n2], td[(lr+int(o))*n2:][:n2])
	}
}

// copyColumns gives, in the rows of the leftmost path of keyroot k1 of a,
// the columns of the leftmost path of keyroot k2 of b the values of those of
// r2, an identical subtree of b already computed in this pass.
func copyColumns[C cell](rows []int32, l1 int, path []int32, k2, r2 int, b *postTree, td []C) {
	n2 := b.len()
	l2, lr := int(b.lld[k2]), int(b.lld[r2])
	for _, o := range rows {
		row := td[(l1+int(o))*n2:][:n2]
		for _, q := range path {
			row[l2+int(q)] = row[lr+int(q)]
		}
	}
}
