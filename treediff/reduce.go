package treediff

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// Reduction for template learning. Grouping a site's pages by template
// compares their tag trees, and today's pages carry thousands of elements
// that say nothing about the template: the drawing elements inside an
// inline SVG icon, the fallback markup of noscript and template elements,
// menus and panels hidden until clicked, and product grids or comment lists
// where the same card repeats dozens of times. Reduce collapses them, so
// that distances are computed on what a template is made of. It is for the
// clustering distances only: locating the content compares full trees.

// ReduceOptions tunes Reduce. Zero fields take the defaults listed.
type ReduceOptions struct {
	// KeepRepeats is how many of a run of consecutive identical sibling
	// subtrees are kept (default 3): a list of 40 identical cards and one of
	// 12 are the same template.
	KeepRepeats int
}

// opaqueTags are elements whose descendants are never page structure: their
// content is drawn, scripted or shown only without scripts.
var opaqueTags = map[string]bool{
	"svg": true, "math": true, "noscript": true, "template": true, "script": true,
	"style": true, "object": true, "canvas": true, "select": true, "iframe": true,
}

// Collapsed reports whether an element's descendants are left out of the
// tree Reduce builds: elements whose content is drawn or scripted
// (opaqueTags) and elements hidden from readers by their markup (the hidden
// attribute, aria-hidden="true", an inline display:none or
// visibility:hidden).
func Collapsed(n *Node) bool {
	if n.Kind != Element {
		return false
	}
	if opaqueTags[n.Label] {
		return true
	}
	return slices.ContainsFunc(n.Attrs, hides)
}

// hides reports an attribute that hides its element from readers.
func hides(a html.Attribute) bool {
	switch a.Key {
	case "hidden":
		return true
	case "aria-hidden":
		return strings.EqualFold(strings.TrimSpace(a.Val), "true")
	case "style":
		return hiddenStyle(a.Val)
	}
	return false
}

// hiddenStyle reports an inline style that hides the element.
func hiddenStyle(s string) bool {
	s = strings.ToLower(s)
	for _, decl := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
		if k == "display" && v == "none" || k == "visibility" && v == "hidden" {
			return true
		}
	}
	return false
}

// Reduce returns a copy of t for template comparison: the element
// descendants of Collapsed elements are dropped (the element stays, as a
// leaf), and in every run of consecutive siblings whose reduced subtrees are
// identical (same labels and shape) only the first KeepRepeats are kept.
// Text and token nodes are kept as they are. Nodes of the copy record in
// Origin the node of t they come from. Time and memory are linear in t's
// size.
func Reduce(t *Tree, opt ReduceOptions) *Tree {
	if opt.KeepRepeats <= 0 {
		opt.KeepRepeats = 3
	}
	if t == nil || t.Root == nil {
		return &Tree{Name: t.Name}
	}
	drop := reducedAway(t, opt.KeepRepeats)
	return t.Prune(func(n *Node) bool { return !drop[n.Index] })
}

// reducedAway marks the nodes Reduce leaves out, by Index: children of
// collapsed elements, and repeats beyond keep in runs of identical siblings,
// identity judged on the reduced subtrees (bottom up, so that two cards that
// differ only in their icons' drawing or their list's length are identical).
func reducedAway(t *Tree, keep int) []bool {
	n := len(t.Nodes)
	drop := make([]bool, n)
	shape := make([]int32, n)
	labels := map[string]int32{}
	shapes := map[[2]int32]int32{} // (label, children sequence) -> shape
	seqs := map[[2]int32]int32{}   // (child shape, rest of sequence) -> sequence
	// Preorder reversed visits every child before its parent.
	for i := n - 1; i >= 0; i-- {
		nd := t.Nodes[i]
		if Collapsed(nd) {
			// Marking the subtree roots is enough: Prune drops each
			// marked node with its subtree.
			for _, c := range nd.Children {
				drop[c.Index] = true
			}
		} else {
			markRepeats(nd.Children, shape, drop, keep)
		}
		seq := int32(0)
		for c := len(nd.Children) - 1; c >= 0; c-- {
			if ch := nd.Children[c]; !drop[ch.Index] {
				seq = intern(seqs, [2]int32{shape[ch.Index], seq}, 1)
			}
		}
		shape[i] = intern(shapes, [2]int32{labelID(labels, nd), seq}, 0)
	}
	return drop
}

// labelID numbers nd's label in labels (other kinds than elements apart).
func labelID(labels map[string]int32, nd *Node) int32 {
	label := nd.Label
	if nd.Kind != Element {
		label = "\x00" + nd.Kind.String() + ":" + label
	}
	l, ok := labels[label]
	if !ok {
		l = int32(len(labels))
		labels[label] = l
	}
	return l
}

// markRepeats drops, in each run of consecutive children with the same
// shape, the children after the first keep.
func markRepeats(children []*Node, shape []int32, drop []bool, keep int) {
	run := 0
	for c, ch := range children {
		if c > 0 && shape[ch.Index] == shape[children[c-1].Index] {
			run++
		} else {
			run = 1
		}
		if run > keep {
			drop[ch.Index] = true
		}
	}
}
