package singlepage

import "github.com/gleaner/gleaner/treediff"

// A listing split in sections (a news front's blocks of teasers under
// their headings, a results page in one list per day) or a grid laid out
// in rows sets its units in several parents built alike: the largest
// group is then one section of the listing, and the others are its
// other sections. spread finds them: the page's elements of the group's
// parent's signature, outside it and outside each other, that hold units
// of the group's signature with content of their own. Their units join
// the group's text (members) but not its words, which decide whether the
// page's units are taken at all. A forum thread's posts have one parent.

// spread sets g.alike to the page's other parents built as g's (see
// above), in document order; w is the page's prefix sums (unitWordPrefix).
// It is linear in the page's nodes.
func (g *unitGroup) spread(p *page, w unitWords) {
	if p.threadCues != nil || g.parent == nil {
		return
	}
	sig := unitSignature(g.parent)
	lo, hi := p.first[g.parent.Index], p.end[g.parent.Index]
	last := -1 // the end of the last parent taken: its own nested ones stay out
	for _, n := range p.t.Nodes {
		if n.Kind != treediff.Element || n == g.parent || len(n.Children) == 0 || unitSignature(n) != sig {
			continue
		}
		i, j := p.first[n.Index], p.end[n.Index]
		if i >= j || i < last || i < hi && j > lo || p.opt.hides(n) {
			continue // empty, nested in a parent taken, or around or inside g's
		}
		if g.holdsUnits(p, n, w) {
			g.alike = append(g.alike, n)
			last = j
		}
	}
}

// holdsUnits reports whether element n has a child of the group's
// signature with unit content words.
func (g *unitGroup) holdsUnits(p *page, n *treediff.Node, w unitWords) bool {
	for _, u := range n.Children {
		if u.Kind == treediff.Element && unitSignature(u) == g.sig && w.content[p.end[u.Index]] > w.content[p.first[u.Index]] {
			return true
		}
	}
	return false
}

// parents returns the group's parent and the others built alike, in
// document order.
func (g unitGroup) parents() []*treediff.Node {
	out := make([]*treediff.Node, 0, len(g.alike)+1)
	placed := false
	for _, n := range g.alike {
		if !placed && n.Index > g.parent.Index {
			out, placed = append(out, g.parent), true
		}
		out = append(out, n)
	}
	if !placed {
		out = append(out, g.parent)
	}
	return out
}

// root returns the element holding all the group's units: its parent, or
// the nearest ancestor of its parents built alike.
func (g unitGroup) root() *treediff.Node {
	n := g.parent
	for _, a := range g.alike {
		n = commonAncestor(n, a)
	}
	return n
}
