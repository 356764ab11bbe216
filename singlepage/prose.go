package singlepage

import "github.com/gleaner/gleaner/treediff"

// Cues (a class, id or role naming navigation, comments, a sidebar…) are
// evidence against an element, weighed against the text it holds: sites name
// their page-level wrappers after layouts and taxonomies ("right-rail",
// "with-navbar", "category-social-media", "article-plus-share-tools"), so a
// cue on an element that holds most of the page's prose is a wrapper's name,
// never a verdict on the article inside. Elements inside it still answer
// for their own cues: a comment list that holds most of the prose is read,
// and each comment in it, a small part of the page, is still a comment.

// dominantShare is the share of the page's prose an element must hold,
// outside the cued elements inside it, for its own cue to be ignored.
const dominantShare = 0.5

// ProseMap tells, per node index of a full tree, whether the element holds
// most of the page's prose.
type ProseMap struct {
	tree     *treediff.Tree
	dominant []bool
}

// NewProseMap reads t's prose: the words of blocks judged article-like on
// their text alone (long, few links, not code, bylines or legal lines),
// before any cue is applied.
func NewProseMap(t *treediff.Tree, opt Options) ProseMap {
	p := buildPage(t, opt.WithDefaults(), nil)
	prefix := make([]float64, len(p.blocks)+1)
	for i, b := range p.blocks {
		w := 0.0
		if b.class == classGood {
			w = float64(b.words) * (1 - b.linkDensity())
		}
		prefix[i+1] = prefix[i] + w
	}
	total := prefix[len(p.blocks)]
	m := ProseMap{tree: t, dominant: make([]bool, len(t.Nodes))}
	if total <= 0 {
		return m
	}
	// Children before parents: an element's free prose is what it holds
	// outside the cued elements below it whose cue stands.
	vetoed := make([]float64, len(t.Nodes))
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := t.Nodes[i]
		if n.Kind != treediff.Element {
			continue
		}
		held := prefix[p.end[i]] - prefix[p.first[i]]
		up := vetoed[i]
		if isCued(n) {
			m.dominant[i] = held-vetoed[i] >= dominantShare*total
			if !m.dominant[i] {
				up = held
			}
		}
		if n.Parent != nil {
			vetoed[n.Parent.Index] += up
		}
	}
	return m
}

// isCued reports whether either cue vocabulary (the single-page blocks' or
// the pair diff's zones) marks n.
func isCued(n *treediff.Node) bool { return cueOf(n) != noCue || IsFilteredZone(n) }

// HoldsProse reports whether n, a node of the tree the map was built on or
// of a view of it, holds most of the page's prose. A zero map knows nothing
// and reports false.
func (m ProseMap) HoldsProse(n *treediff.Node) bool {
	if m.tree == nil {
		return false
	}
	// A view's node leads, through Origin, to the node of the tree it was
	// made from.
	for n != nil && (n.Index >= len(m.tree.Nodes) || m.tree.Nodes[n.Index] != n) {
		n = n.Origin
	}
	return n != nil && m.dominant[n.Index]
}
