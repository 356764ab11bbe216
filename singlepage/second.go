package singlepage

import (
	"errors"
	"fmt"
	"strings"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/treediff"
)

// The single-page method weighs a second candidate beside its own body:
// go-trafilatura, a well-kept single-page extractor, reads the same page,
// and the body is chosen by evidence learned on annotated pages (see
// candidates.go and choose.go): the two bodies are compared word for
// word (which holds the other, what the larger adds, whether that lies in
// blocks Gleaner's cues judged boilerplate: under a class, id or role
// naming comments, a footer, a sidebar…). The block model alone often
// takes a fragment (one section, one post, one item of a list) where
// go-trafilatura keeps the whole; go-trafilatura often adds comments or
// related links to a whole article. The fixed rule that chose before
// (fuse) is one piece of that evidence, and decides alone when no model
// is fitted; the title, date and author stay Gleaner's. A page
// compared with its template medoid needs no second candidate: the pair
// diff decides, and the single-page blocks judge its short lines (see
// refine).

// MethodSecondOpinion marks a single-page result whose body is
// go-trafilatura's.
const MethodSecondOpinion = "single-page+trafilatura"

// DefaultSecondOpinionBelow is the single-page confidence under which the
// fixed rule (fuse) takes go-trafilatura's body when the two share little.
const DefaultSecondOpinionBelow = 0.8

// maxSecondOpinionBytes bounds the pages handed to the second extractor,
// which builds its own DOM of the whole page.
const maxSecondOpinionBytes = 8 << 20

// maxSecondOpinionBlocks bounds, in the block model's blocks, the pages
// handed to the second extractor, whose time grows faster than the page
// (BenchmarkSingleShortBlocks: 1.6 s at 10k short blocks, 77 s at 100k);
// above it the block model decides alone, in linear time. The largest
// page of wcxb-dev has 2,640 blocks, of wide-dev 1,747.
const maxSecondOpinionBlocks = 5000

// errSecondOpinion is wrapped by the failures of the second extractor.
var errSecondOpinion = errors.New("second opinion")

// Thresholds of the evidence fuse weighs.
const (
	// holdShare is the share of a body's words the other body must hold
	// for it to count as held (a fragment of the other, or the same).
	holdShare = 0.8
	// maxAddedBoiler is the share of the words a larger body adds that
	// may lie in blocks judged boilerplate by their cues.
	maxAddedBoiler = 0.3
)

// withSecondOpinion returns r, a single-page result on page t (p its
// blocks, r with the page's units when they outweigh the block model's
// body), or a result with another extractor's body when the chooser
// favours it (gather, choose). The other extractors read the source, so
// their paragraphs are kept only where the page's tree shows their words
// in a row: t may lack elements the browser hid (VisibleTree), and the
// body is drawn from the page's own text. The result's Method is then
// MethodSecondOpinion.
func withSecondOpinion(r Result, t *treediff.Tree, p *page, src []byte, below float64) Result {
	if t == nil || t.Root == nil {
		return r
	}
	p.opt.Source, p.opt.SecondOpinionBelow = src, below
	c := gather(t, r, p)
	out := c.Base
	if i := c.choose(); i >= 0 {
		out = c.take(i)
	}
	out.chooser, out.chooserKnown = c.chooserProb()
	out.Body = c.withoutTail(out.Body)
	return out
}

// withoutTail returns body, the one chosen on c's page, without what
// closes an article but is not the story, which every candidate keeps:
// the author's bio (withoutBios, the base's author) and the site's
// sections below it (withoutClosing). On other pages a text about the
// named person is the content (a book's author on its product page).
func (c *Choice) withoutTail(body string) string {
	if !c.readAs(pagetype.Article) {
		return body
	}
	return withoutClosing(withoutBios(body, authorNames(c.Base.Author)))
}

// tidy drops from body, the second candidate's, the lines the block model
// leaves out of its own bodies: the headline repeated near the top, and
// bylines, datelines, labels and legal notices, so that the two
// candidates are compared, and the second taken, on the same footing.
func tidy(body, title string) string {
	var kept []string
	for i, para := range strings.Split(body, "\n\n") {
		b := &block{text: para, words: len(treediff.Words(para))}
		if b.words == 0 || i < 5 && isTitleEcho(b, title) || isBoilerLine(b) || isLegal(b) {
			continue
		}
		kept = append(kept, para)
	}
	return strings.Join(kept, "\n\n")
}

// fuse reports whether other, the second candidate's body on page p,
// should replace r's body by the fixed rule (the chooser weighs its
// verdict with the rest of the evidence):
//
//   - r has no body: other is taken;
//   - one body holds most words of the other (holdShare) and not the
//     reverse: the larger one is taken, unless what other adds lies
//     mostly in blocks the page's cues mark as boilerplate, or r is an
//     article the block model is sure of and some of it does (addsText);
//   - each holds the other: they agree, r stays;
//   - they share little: other is taken when r is short (articleWords)
//     and unsure (its confidence under below) and other is not a list of
//     links (articleLike).
func fuse(r Result, p *page, other string, below float64) bool {
	if strings.TrimSpace(r.Body) == "" {
		return true
	}
	mine, theirs := wordBag(r.Body), wordBag(other)
	common := bagOverlap(mine, theirs)
	mineHeld := float64(common) / float64(max(1, bagSize(mine)))
	theirsHeld := float64(common) / float64(max(1, bagSize(theirs)))
	switch {
	case mineHeld >= holdShare && theirsHeld >= holdShare:
		return false
	case theirsHeld >= holdShare:
		return false // r holds other and more
	case mineHeld >= holdShare, mineHeld > theirsHeld+0.2:
		return addsText(r, p, other, mine, theirs, below)
	case theirsHeld > mineHeld+0.2:
		return false
	}
	// They share little: a long body the block model found stays (what
	// other holds instead is, on news pages, the comments under it).
	return r.Confidence < below && bagSize(mine) < articleWords && articleLike(p, other)
}

// addsText reports, for r's body (its bag mine) lying (mostly) inside
// other's (theirs), whether other adds the page's text, not its
// furniture or r's echoes: what other adds are its words of which r has
// none (a repeat of r's own text adds nothing), some of them perhaps in
// blocks the page marks as furniture, some perhaps in no block at all (a
// page built by script, its text in <noscript>). An article the block
// model is sure of (long, its confidence at least below) stays when any
// of what other adds is furniture: what other adds to one is, on news
// pages, comments and related links that class names mark only in part.
func addsText(r Result, p *page, other string, mine, theirs map[string]int, below float64) bool {
	addedBag := map[string]int{}
	for w, c := range theirs {
		if mine[w] == 0 {
			addedBag[w] = c
		}
	}
	added := bagSize(addedBag)
	boiler := addedBoiler(p, r.Body, other, addedBag)
	if bagSize(mine) >= articleWords && r.Confidence >= below && boiler > 0 {
		return false
	}
	return float64(boiler) <= maxAddedBoiler*float64(added) &&
		float64(added-boiler) >= (1-holdShare)*float64(bagSize(mine))
}

// addedBoiler returns how many of the words other adds (added, a bag)
// lie in the page's blocks that body holds and base does not (what a
// larger candidate adds to the smaller) and which are boilerplate by their
// own marks (see boilerplate). Each added word counts once at most: a
// short block ("Share", "Home") is found in a long body wherever its words
// stand, and a menu repeated down the page is one menu.
func addedBoiler(p *page, base, body string, added map[string]int) int {
	inBase, inBody := gramsOf(base), gramsOf(body)
	baseText, bodyText := spaced(base), spaced(body)
	boiler := map[string]int{}
	for _, b := range p.blocks {
		if !boilerplate(b) {
			continue
		}
		ws := strings.Fields(NormWords(b.text))
		if len(ws) == 0 || !shown(ws, bodyText, inBody) || shown(ws, baseText, inBase) {
			continue
		}
		for w, c := range wordBag(b.text) {
			boiler[w] += c
		}
	}
	return bagOverlap(boiler, added)
}

// spaced returns s's normalized words joined by spaces, with a space at
// each end (the text shown looks a short block up in).
func spaced(s string) string {
	return " " + strings.Join(strings.Fields(NormWords(s)), " ") + " "
}

// navWordsPerLink is the most words per link a block of links has to be
// a menu ("Home | World | Business") rather than a list of headlines.
const navWordsPerLink = 3

// boilerplate reports a block that is page furniture by its own marks: under
// a strong boilerplate cue, a byline, dateline or legal line, or a menu of
// short links. A weak cue (promo, gallery, related…) is not enough: sites
// name the grids of their listings and collections so.
func boilerplate(b *block) bool { return b.cue || furnitureLine(b) }

// furnitureLine reports a block that is furniture by its own text: a
// byline, dateline or legal line (furnitureText), or a menu of short links.
func furnitureLine(b *block) bool {
	if furnitureText(b) {
		return true
	}
	return b.class == classBad && b.links > 0 && b.linkWords <= navWordsPerLink*b.links && b.linkDensity() > DefaultMaxLinkDensity
}

// gramsOf returns the word 4-grams of s, normalized as normWords does.
func gramsOf(s string) map[string]bool {
	words := strings.Fields(NormWords(s))
	grams := make(map[string]bool, len(words))
	for i := 0; i+4 <= len(words); i++ {
		grams[strings.Join(words[i:i+4], " ")] = true
	}
	return grams
}

// wordBag counts the lower-cased words of s.
func wordBag(s string) map[string]int {
	m := map[string]int{}
	for _, w := range treediff.Words(s) {
		m[strings.ToLower(w.Text)]++
	}
	return m
}

func bagSize(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

// bagOverlap is the number of words two bags share, repeats counted.
func bagOverlap(a, b map[string]int) int {
	n := 0
	for w, c := range a {
		n += min(c, b[w])
	}
	return n
}

// articleLike reports whether the blocks of p that body holds have few of
// their words in links: a second opinion that returns a list of teasers
// (an archive, a section page: a linked headline each) is not taken for an
// article. A block is held when most of its word 4-grams stand in body
// (the two extractors cut paragraphs differently).
func articleLike(p *page, body string) bool {
	held, linked := heldLinks(p, body)
	return float64(linked) <= maxSecondOpinionLinks*float64(held)
}

// heldLinks returns the words of the blocks of p that body holds, and
// those of them in links.
func heldLinks(p *page, body string) (held, linked int) {
	grams := gramsOf(body)
	for _, b := range p.blocks {
		ws := strings.Fields(NormWords(b.text))
		if len(ws) < 4 || !shown(ws, "", grams) {
			continue
		}
		held += b.words
		linked += b.linkWords
	}
	return held, linked
}

// maxSecondOpinionLinks is the share of a second opinion's words that may
// sit in links: a list of linked headlines is navigation.
const maxSecondOpinionLinks = 0.25

// secondOpinion returns the body go-trafilatura extracts from src,
// paragraphs separated by blank lines. A panic of the library on a hostile
// page is an error, not a crash.
func secondOpinion(src []byte) (string, error) {
	doc, err := parseSource(src)
	if err != nil {
		return "", err
	}
	return guarded(trafilaturaBody, doc)
}

// trafilaturaBody returns the body go-trafilatura extracts from doc (which
// it leaves as it is), a paragraph per line of its text.
func trafilaturaBody(doc *html.Node) (string, error) {
	res, err := trafilatura.ExtractDocument(doc, trafilatura.Options{EnableFallback: true})
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSecondOpinion, err)
	}
	if res.ContentNode == nil {
		return "", nil
	}
	return strings.Join(nodeParas(res.ContentNode), "\n\n"), nil
}

// inlineTags are the elements of go-trafilatura's body that run within a
// paragraph (its own names for them too: hi, ref); any other element
// starts one.
var inlineTags = map[string]bool{"a": true, "abbr": true, "b": true, "code": true, "del": true,
	"em": true, "hi": true, "i": true, "kbd": true, "mark": true, "ref": true, "s": true,
	"small": true, "span": true, "strike": true, "strong": true, "sub": true, "sup": true,
	"time": true, "tt": true, "u": true}

// nodeParas returns the paragraphs of go-trafilatura's body n: its text
// (text nodes joined by spaces, as its own ContentText has them) cut
// where an element other than an inline one starts or ends, so that its
// paragraphs can be weighed one by one (tidy, shownIn, fusion).
func nodeParas(n *html.Node) []string {
	var paras []string
	var cur []string
	flush := func() {
		if l := strings.Join(strings.Fields(strings.Join(cur, " ")), " "); l != "" {
			paras = append(paras, l)
		}
		cur = cur[:0]
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				cur = append(cur, c.Data)
			case c.Type == html.ElementNode && inlineTags[c.Data]:
				walk(c)
			case c.Type == html.ElementNode:
				flush()
				walk(c)
				flush()
			}
		}
	}
	walk(n)
	flush()
	return paras
}

// shownIn returns the paragraphs of body that t shows: those whose word
// 4-grams stand in t's text for the most part (minShown), the short ones
// whole; a word t does not show at all is left out of a kept paragraph.
func shownIn(t *treediff.Tree, body string) string {
	words := strings.Fields(NormWords(t.Root.Text()))
	text := " " + strings.Join(words, " ") + " "
	grams := make(map[string]bool, len(words))
	vocab := make(map[string]bool, len(words))
	for i, w := range words {
		vocab[w] = true
		if i+4 <= len(words) {
			grams[strings.Join(words[i:i+4], " ")] = true
		}
	}
	var kept []string
	for _, p := range strings.Split(body, "\n\n") {
		ws := strings.Fields(NormWords(p))
		if !shown(ws, text, grams) {
			continue
		}
		var out []string
		for _, w := range treediff.Words(p) {
			if vocab[strings.ToLower(w.Text)] {
				out = append(out, w.Text)
			}
		}
		if len(out) > 0 {
			kept = append(kept, keepPunctuation(p, vocab))
		}
	}
	return strings.Join(kept, "\n\n")
}

// minShown is the share of a paragraph's word 4-grams the page must show.
const minShown = 0.9

func shown(ws []string, text string, grams map[string]bool) bool {
	if len(ws) == 0 {
		return false
	}
	if len(ws) < 4 {
		return strings.Contains(text, " "+strings.Join(ws, " ")+" ")
	}
	hits := 0
	for i := 0; i+4 <= len(ws); i++ {
		if grams[strings.Join(ws[i:i+4], " ")] {
			hits++
		}
	}
	return float64(hits) >= minShown*float64(len(ws)-3)
}

// keepPunctuation returns p without the words vocab lacks, its other
// characters as they are.
func keepPunctuation(p string, vocab map[string]bool) string {
	var b strings.Builder
	last := 0
	for _, w := range treediff.Words(p) {
		if vocab[strings.ToLower(w.Text)] {
			continue
		}
		b.WriteString(p[last:w.Offset])
		last = w.Offset + len(w.Text)
	}
	b.WriteString(p[last:])
	return strings.Join(strings.Fields(b.String()), " ")
}
