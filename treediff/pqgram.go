package treediff

import (
	"hash/fnv"
	"slices"
)

// pq-grams (Augsten, Böhlen & Gamper, "The pq-gram distance between ordered
// labeled trees", TODS 2010) are the fast stand-in for the tree edit
// distance when a site's pages are grouped by template. A pq-gram is a
// small piece of the tree: an anchor node with its p−1 nearest ancestors
// and q consecutive children of the anchor, the tree being extended with
// null nodes so that every node is an anchor (a leaf gets one all-null
// child row, a node with f children f+q−1 windows). The profile of a tree is
// the bag of its pq-grams; two trees that need few edits share most of it.
// Computing a profile is linear in the tree and comparing two sorted
// profiles is one merge, where the tree edit distance is quadratic or worse.

// PQ-gram shape: the values the paper recommends for XML and HTML.
const (
	pqP = 2
	pqQ = 3
)

// PQGrams is the profile of a tree: the hashes of its pq-grams (p = 2,
// q = 3), sorted, one per occurrence.
type PQGrams []uint64

// Profile returns the pq-gram profile of t (labels compared as strings,
// nodes of different Kind never equal).
func Profile(t *Tree) PQGrams {
	if t == nil || t.Root == nil {
		return nil
	}
	lab := make([]uint64, len(t.Nodes))
	for i, n := range t.Nodes {
		lab[i] = labelHash(n)
	}
	out := make(PQGrams, 0, 2*len(t.Nodes))
	for i, n := range t.Nodes {
		anc := uint64(0) // the null node above the root
		if n.Parent != nil {
			anc = lab[n.Parent.Index]
		}
		stem := mix(mix(0x9e3779b97f4a7c15, anc), lab[i])
		if len(n.Children) == 0 {
			out = append(out, mix(mix(mix(stem, 0), 0), 0))
			continue
		}
		// Windows of q consecutive children over the children padded with
		// q−1 nulls on each side.
		var win [pqQ]uint64
		for k := 0; k < len(n.Children)+pqQ-1; k++ {
			copy(win[:], win[1:])
			win[pqQ-1] = 0
			if k < len(n.Children) {
				win[pqQ-1] = lab[n.Children[k].Index]
			}
			h := stem
			for _, w := range win {
				h = mix(h, w)
			}
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// labelHash is a node's label hashed with its kind, never 0 (0 is the null
// node).
func labelHash(n *Node) uint64 {
	h := fnv.New64a()
	h.Write([]byte{byte(n.Kind)})
	h.Write([]byte(n.Label))
	if v := h.Sum64(); v != 0 {
		return v
	}
	return 1
}

// mix folds v into the hash h (order matters), with a 64-bit finaliser so
// that windows of the same labels in another order differ.
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// Distance is the normalised pq-gram distance between two profiles:
// 1 − 2·|P1 ∩ P2| / (|P1| + |P2|), bag intersection, in [0, 1]; 0 for equal
// profiles. Two empty profiles are at distance 0.
func (a PQGrams) Distance(b PQGrams) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	return 1 - 2*float64(a.Common(b))/float64(len(a)+len(b))
}

// Common is the size of the bag intersection of two profiles: one merge of
// the sorted hashes.
func (a PQGrams) Common(b PQGrams) int {
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			common++
			i++
			j++
		}
	}
	return common
}
