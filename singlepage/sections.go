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
	return b.class == classBad && !b.code && !b.cue && !b.inLink &&
		b.container != nil && b.container.Label != "li" && letterWords(b.text) >= 2 &&
		p.isCaption(b, imgs) && p.classify(b) != classBad
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
