package singlepage

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/treediff"
)

// A service or product page, a documentation page's reference, a
// landing page: the page's body is a run of sections, each a heading and a
// line or two, parted by calls to action ("Learn more", "Get started").
// No section outweighs the rest, so the block model's element is one of
// them. The page says where its body is with <main> (or role=main): when
// the block model's body is a small part of the text that main element
// shows, the body is all of that text.

// mainShare is the share of the main element's content words under which
// the block model's body is a fragment of it.
const mainShare = 0.5

// mainOf returns the element marked as the page's main content (<main> or
// role=main) that holds n, nil when none does.
func mainOf(n *treediff.Node) *treediff.Node {
	for a := n; a != nil; a = a.Parent {
		if a.Kind == treediff.Element && (a.Label == "main" || attrIs(a, "role", "main")) {
			return a
		}
	}
	return nil
}

// sectionContent reports a block a page's sections keep: article text, a
// short line or heading, not navigation, a call to action or script.
func sectionContent(b *block) bool {
	return b.class != classBad && !b.code && !b.cue && !b.inLink
}

// featureLine reports a block the block model reads as a photo's caption
// (isCaption, imgs: p.images()) whose own text reads as content (classify:
// it sets what judge set already): in a main region made of sections, a
// small box of an icon and short lines is a feature card or a plan's
// checklist, part of the body once the region is. A list item with an
// icon is a teaser of a list of other pages, a line of a word or a number
// a counter ("12 comments") or a label: neither is kept.
func (p *page) featureLine(b *block, imgs []bool) bool {
	return b.class == classBad && featureText(b) &&
		p.isCaption(b, imgs) && p.classify(b) != classBad
}

// minCards is the least number of sibling cards of one shape that make
// a row of feature cards.
const minCards = 3

// featureCard reports block b of box, a small box holding an image that
// isCaption reads as a photo's, as a line of a feature card: a service
// or product page sets its features as a row of cards, each an icon or
// picture, a short heading and a line or two. The line reads as content
// (featureText), the box is one of at least minCards siblings of its
// shape, and it is no photo's: not a figure or its caption, and it holds
// a heading (a row of reviews, an avatar and a quote, has none). A
// teaser links its headline (a linked line before b) or its picture, or
// sits in a list item; a gallery's captions have no heading: both stay
// out.
func (p *page) featureCard(b *block, box *treediff.Node, imgs []bool) bool {
	if !featureText(b) || b.weak || box.Label == "figure" || under(b.container, box, "figcaption") {
		return false
	}
	heading, before := false, true
	for _, c := range p.blocks[p.first[box.Index]:p.end[box.Index]] {
		before = before && c != b
		if before && (c.inLink || c.leadLink > 0) {
			return false
		}
		heading = heading || c.heading > 1
	}
	return heading && !linkedImage(box, false) && p.sameCards(box, imgs) >= minCards
}

// linkedImage reports an image under n inside a link (inLink: n is): a
// teaser's picture links to the page it announces, a feature's icon to
// nothing.
func linkedImage(n *treediff.Node, inLink bool) bool {
	if n.Kind != treediff.Element {
		return false
	}
	inLink = inLink || n.Label == "a"
	if n.Label == "img" {
		return inLink
	}
	for _, c := range n.Children {
		if linkedImage(c, inLink) {
			return true
		}
	}
	return false
}

// featureText reports a line that reads as content: two or more words
// starting with a letter (not a counter such as "12 comments" or a
// label), no script, no cue, not all links, not in a list item.
func featureText(b *block) bool {
	return !b.code && !b.cue && !b.inLink && b.container != nil &&
		b.container.Label != "li" && letterWords(b.text) >= 2
}

// under reports whether n or an ancestor of n below top is a label
// element.
func under(n, top *treediff.Node, label string) bool {
	for a := n; a != nil && a != top; a = a.Parent {
		if a.Kind == treediff.Element && a.Label == label {
			return true
		}
	}
	return false
}

// cardRow names a row of cards: their parent and their element.
type cardRow struct {
	parent *treediff.Node
	label  string
}

// sameCards counts the siblings of box (box included) of its shape: the
// same element, holding an image, at most three blocks. A box alone in
// its wrapper (a grid's column: severalElements false, box being one)
// counts the wrapper's siblings. Each row
// is counted once (p.cards): a grid of many cards stays linear.
func (p *page) sameCards(box *treediff.Node, imgs []bool) int {
	for range 2 {
		if box.Parent == nil || severalElements(box.Parent) {
			break
		}
		box = box.Parent
	}
	if box.Parent == nil {
		return 0
	}
	row := cardRow{box.Parent, box.Label}
	if n, ok := p.cards[row]; ok {
		return n
	}
	n := 0
	for _, c := range box.Parent.Children {
		if c.Kind == treediff.Element && c.Label == box.Label && imgs[c.Index] &&
			p.end[c.Index]-p.first[c.Index] <= 3 {
			n++
		}
	}
	if p.cards == nil {
		p.cards = map[cardRow]int{}
	}
	p.cards[row] = n
	return n
}

// letterWords counts the words of text that start with a letter.
func letterWords(text string) int {
	n := 0
	for _, w := range strings.Fields(text) {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// withMain returns r, the block model's result on page p, with the body
// of the main element holding r's element when r's body is under
// mainShare of that element's content words (sectionContent and
// featureLine blocks: a region of feature cards is what r is a fragment
// of as much as one of prose).
func withMain(r Result, p *page) Result {
	if r.Node == nil {
		return r
	}
	m := mainOf(r.Node)
	if m == nil || m == r.Node {
		return r
	}
	blocks := p.blocks[p.first[m.Index]:p.end[m.Index]]
	imgs := p.images()
	keep := make([]bool, len(blocks))
	words := 0
	for i, b := range blocks {
		if keep[i] = sectionContent(b) || p.featureLine(b, imgs); keep[i] {
			words += b.words
		}
	}
	if float64(r.proseWords()) >= mainShare*float64(words) {
		return r
	}
	var paras []string
	seen := map[string]bool{}
	for i, b := range blocks {
		if !keep[i] || echo(b, i, seen, r.Title) {
			continue
		}
		seen[b.text] = true
		paras = append(paras, b.text)
	}
	r.Body, r.lineWords = strings.Join(paras, "\n\n"), 0
	r.Node, r.Selector = m, selector.Of(m)
	return r
}
