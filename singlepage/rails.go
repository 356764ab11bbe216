package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// A shop names its rails of other products in a heading over them ("You
// may also like", "Customers also bought", "Recently viewed", "Similar
// items"), whatever its markup calls them: the heading and what it heads
// are no part of the product's own description and specifications.

// railPhrases name, in a short heading, a rail of other products or of
// other offers the visitor may look at next.
var railPhrases = []string{
	"you may also like", "you might also like", "you may also need", "you might also need",
	"you may also be interested", "you might also be interested", "also viewed", "also bought",
	"also purchased", "frequently bought together", "bought together", "similar items",
	"similar products", "related items", "related products", "recently viewed",
	"more to explore", "keep exploring", "complete the look", "complete the set",
	"recommended for you", "recommended products", "shop similar", "compare similar",
	"pairs well with", "goes well with", "customers also",
}

// maxRailHeadingWords bounds the words of a heading naming a rail: a
// sentence of the description is no heading.
const maxRailHeadingWords = 8

// maxRelatedWords bounds the words of a heading that names a rail by
// "related" and what it relates ("Related services"); a longer one names
// one item ("Related video: ...").
const maxRelatedWords = 4

// railHeading reports a block that names a rail of other products: short,
// not a sentence, holding a railPhrases phrase.
func railHeading(b *block) bool {
	if b.words == 0 || b.words > maxRailHeadingWords {
		return false
	}
	t := NormWords(b.text)
	if b.words <= maxRelatedWords && strings.HasPrefix(t, "related ") {
		return true // "Related services", "Related offerings"
	}
	for _, ph := range railPhrases {
		if strings.Contains(t, ph) {
			return true
		}
	}
	return false
}

// railSections marks in in, per node index of p's tree, the sections a
// rail heading opens: the outermost element that starts with the heading
// (its first block), and, when that element holds a heading (<hN>) alone,
// its following siblings up to the next one holding a heading or opening
// another rail. Linear: each sibling is walked by one heading at most.
func (p *page) railSections(in []bool) {
	heads := p.headingPrefix()
	for _, n := range p.t.Nodes {
		if !p.opensRail(n) {
			continue
		}
		in[n.Index] = true
		if i := p.first[n.Index]; p.end[n.Index]-i == 1 && p.blocks[i].heading > 0 {
			p.markFollowing(in, n, heads)
		}
	}
}

// opensRail reports the outermost element, below the page's boxes, that
// starts with a rail heading.
func (p *page) opensRail(n *treediff.Node) bool {
	if n.Kind != treediff.Element || n.Parent == nil || pageBox(n) || p.end[n.Index] <= p.first[n.Index] {
		return false
	}
	i := p.first[n.Index]
	return railHeading(p.blocks[i]) && (p.first[n.Parent.Index] != i || pageBox(n.Parent))
}

// pageBox reports the elements that hold a whole page or its main region:
// a rail is never one of them.
func pageBox(n *treediff.Node) bool {
	return n.Label == "body" || n.Label == "html" || n.Label == "main" || attrIs(n, "role", "main")
}

// markFollowing marks in in the element siblings after n up to the first
// that holds a heading (heads: the prefix sum of p's heading blocks).
func (p *page) markFollowing(in []bool, n *treediff.Node, heads []int) {
	after := false
	for _, s := range n.Parent.Children {
		if s == n {
			after = true
			continue
		}
		if !after || s.Kind != treediff.Element {
			continue
		}
		if heads[p.end[s.Index]] > heads[p.first[s.Index]] || p.opensRail(s) {
			return
		}
		in[s.Index] = true
	}
}

// headingPrefix is the prefix sum of p's heading blocks: node i holds
// prefix[p.end[i]] - prefix[p.first[i]] of them.
func (p *page) headingPrefix() []int { return p.levelPrefix(0) }

// levelPrefix is the prefix sum of p's blocks in a heading of the level
// (1 to 6; 0: of any level).
func (p *page) levelPrefix(level int) []int {
	prefix := make([]int, len(p.blocks)+1)
	for i, b := range p.blocks {
		prefix[i+1] = prefix[i]
		if b.heading > 0 && (level == 0 || b.heading == level) {
			prefix[i+1]++
		}
	}
	return prefix
}

// withoutRails returns body (on page p) without the paragraphs that are
// text of the sections rail headings open only (withoutZoned): a service
// page's "related services" after its own. A body they would leave under
// minKeptShare of its words stays whole, as withoutShopZones.
func (p *page) withoutRails(body string) string {
	in := make([]bool, len(p.t.Nodes))
	p.railSections(in)
	for _, n := range p.t.Nodes {
		if n.Parent != nil && in[n.Parent.Index] {
			in[n.Index] = true
		}
	}
	kept := p.withoutZoned(body, p.blocksUnder(in))
	if !leavesEnough(kept, body) {
		return body // the rail is the body (the page misread)
	}
	return kept
}
