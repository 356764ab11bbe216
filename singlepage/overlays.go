package singlepage

import "github.com/gleaner/gleaner/treediff"

// withoutHidden returns body, another extractor's on page p, without the
// paragraphs that are text of the page's closed overlays only (overlay),
// which the block model never reads: an extractor reading the source
// brings back a shop's size guides, delivery terms and the disclosures
// it opens over each product of a rail. A collapsed panel or tab (hidden
// too) may hold the product's description: it stays.
func (p *page) withoutHidden(body string) string {
	var hidden, shown textGrams
	in := make([]bool, len(p.t.Nodes))
	for _, n := range p.t.Nodes {
		switch {
		case n.Parent != nil && in[n.Parent.Index]:
			in[n.Index] = true
		case overlay(n):
			in[n.Index] = true
			hidden.add(n.Text())
		}
	}
	for _, b := range p.blocks {
		shown.add(b.text)
	}
	return hidden.dropFrom(body, shown)
}

// overlay reports a closed dialog or a popover: an element shown over the
// page only when a button opens it.
func overlay(n *treediff.Node) bool {
	if n.Kind != treediff.Element || !hidden(n) {
		return false
	}
	_, pop := n.Attr("popover")
	return pop || n.Label == "dialog" || isDialog(n)
}
