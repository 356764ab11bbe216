package pagetype

import "github.com/gleaner/gleaner/treediff"

// Reading is one pass over a page for its kind: the classifier's features
// and type probabilities, with the word and link counts that the
// calibration of an extraction weighs beside them (read once for both).
type Reading struct {
	// Features are Features of the page.
	Features []float64
	// Probs are the page type's probabilities, in Types order.
	Probs []float64

	s *structure
}

// Read reads page t (src, optional, is its source, read for JSON-LD).
// t must not be nil.
func Read(t *treediff.Tree, src []byte) Reading {
	s := newStructure(t)
	feats := s.features(src)
	return Reading{Features: feats, Probs: pageTypeModel.probs(feats), s: s}
}

// Type is the most probable page type.
func (r Reading) Type() string { return Types[Argmax(r.Probs)] }

// Words counts the page's words.
func (r Reading) Words() int { return r.s.total }

// LinkShare is the share of the page's words inside links.
func (r Reading) LinkShare() float64 { return r.s.share(r.s.linked) }

// ElementLinkShare is the share of element n's words inside links; false
// when n is not a node of the tree read.
func (r Reading) ElementLinkShare(n *treediff.Node) (float64, bool) {
	t := r.s.t
	if n == nil || n.Index >= len(t.Nodes) || t.Nodes[n.Index] != n {
		return 0, false
	}
	return float64(r.s.links[n.Index]) / float64(max(r.s.words[n.Index], 1)), true
}

// Argmax is the index of the largest of xs (the first of equals), 0 when
// xs is empty.
func Argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}
