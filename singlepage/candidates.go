package singlepage

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/treediff"
)

// Besides its own body (the block model's, or its page's units), the
// single-page method weighs the body another single-page extractor,
// go-trafilatura, finds on the same page. It is a Candidate, described by
// its relation to the block model's body (ChoiceFeatureNames: word
// counts, the share of each body the other holds, what the candidate adds
// and how much of that the page's cues mark as boilerplate, its link
// density, the block model's confidence, the fixed rule's verdict (fuse),
// the page's type probabilities); a model learned on annotated pages
// (chooser, choose.go) decides which body the page gets. One more
// candidate is fused from the base and go-trafilatura's body at
// paragraph level (fusion.go): their union, weighed by a model of its
// own. go-readability
// was tried as a third candidate (and as a third opinion on the other
// two): it did not raise the held-out word F1 of any set and lowered
// big9-dev's (fitconfidence --chooser, session 7). What each body holds
// that the other lacks was tried as evidence too (session 11; held-out
// word F1 by site folds, before: wcxb-dev 0.847, listing 0.714, wide-dev
// 0.915, big9-dev 0.994): its share at the body's edges (bylines, author
// notes, related links) rather than between shared paragraphs, in links,
// in headings or list items gave wcxb-dev 0.848 (articles and
// documentation +0.004, listing 0.698, service -0.004), wide-dev 0.914,
// big9-dev 0.991; with the removed part's boilerplate share, paragraph
// lengths and counts instead of headings, 0.847 (listing 0.689), 0.919,
// 0.992. Neither boosted trees on that evidence nor a regression of the
// F1 gain instead of the logistic model did better held-out.
// What the two bodies' lines tell (the prose share, length, scatter and
// share of the lines each body holds alone; each body's shape) was tried
// too (session 12, fitconfidence --chooser --text-evidence): no held-out
// gain on every set (see textevidence.go there).

// CandidateTrafilatura names go-trafilatura's candidate.
const CandidateTrafilatura = "trafilatura"

// Candidate is a body another extractor found on the page, and the
// evidence for taking it over the page's own body.
type Candidate struct {
	Name string
	Body string
	// Features are the evidence, in ChoiceFeatureNames order.
	Features []float64
	// same: the body holds the base's words and no other (a tie, which
	// the chooser never learned from: taking it would only lose the
	// base's element).
	same bool
}

// Choice is what the single-page method chooses from on one page.
type Choice struct {
	// Base is the block model's result, with the page's units when they
	// outweigh its body (withUnits).
	Base Result
	// Block is the block model's own body; Units the body of the page's
	// largest group of units ("" when it has none), taken or not.
	Block, Units string
	// Candidates are the other extractors' bodies (none failed or empty).
	Candidates []Candidate
	// Probs are the page's type probabilities (pagetype.Types order).
	Probs []float64

	reading pagetype.Reading
	// replies marks, per block, the comments under a thread's posts
	// (replyBlocks), nil unless the page is read as a forum thread.
	replies []bool
}

// extractors are the other single-page extractors, by candidate name.
var extractors = []struct {
	name string
	run  func(doc *html.Node) (string, error)
}{
	{CandidateTrafilatura, trafilaturaBody},
}

// Choices returns what the single-page method chooses from on page t (see
// Extract; opt has its defaults): the block model's result with its
// units, and the other extractors' candidates. It is Extract's evidence,
// for fitting the chooser.
func Choices(t *treediff.Tree, opt Options) (Choice, error) {
	r, err := BlockModel(t, opt, nil)
	if err != nil && !errors.Is(err, ErrNoContent) {
		return Choice{}, err
	}
	p := newPage(t, opt)
	c := gather(t, baseOf(r, p), p)
	c.Block = r.Body
	return c, nil
}

// gather returns the choice on page t (p its blocks, p.opt the options)
// around r, the block model's result with its units: the other
// extractors' bodies, when the page is small enough for them
// (maxSecondOpinionBytes, maxSecondOpinionBlocks) and they are asked
// (SecondOpinionBelow not negative).
func gather(t *treediff.Tree, r Result, p *page) Choice {
	c := Choice{Base: r, Block: r.Body}
	g, hasUnits := c.setUnits(p, p.units)
	src := p.opt.Source
	if p.opt.SecondOpinionBelow < 0 || len(src) == 0 {
		return c
	}
	if len(src) > maxSecondOpinionBytes || len(p.blocks) > maxSecondOpinionBlocks {
		// Asked, but the page is beyond the other extractors' bounds:
		// calibration must not run them either (no agreement known).
		c.Base.secondAsked, c.Base.agreement = true, -1
		return c
	}
	c.reading = pagetype.Read(t, src)
	c.Probs = c.reading.Probs
	c.readBase(p, g, hasUnits)
	doc, err := parseSource(src)
	if err != nil {
		return c
	}
	for _, x := range extractors {
		if p.opt.ctx != nil && p.opt.ctx.Err() != nil {
			return c
		}
		c.add(t, x.name, x.run, doc)
	}
	c.candidatesAsRead(p)
	c.addFused()
	c.describe(p, p.opt.SecondOpinionBelow)
	return c
}

// setUnits sets c.Units to the text of the page's largest group of
// units (found by find), which it returns, false when p has none.
func (c *Choice) setUnits(p *page, find func() (unitGroup, bool)) (unitGroup, bool) {
	g, ok := find()
	c.Units = ""
	if ok {
		c.Units = strings.Join(g.paras(p), "\n\n")
	}
	return g, ok
}

// readBase sets c's base as the page's type reading has it: joined with
// the page's units g (ok when it has some; on a forum thread, its posts
// in their "comments" region: readThread, without the comments under
// each post: withoutReplies) and without a product page's shop zones
// (whose units, a rail of other products, are not joined: shopUnits).
func (c *Choice) readBase(p *page, g unitGroup, ok bool) {
	forum := c.readAs(pagetype.Forum)
	if forum {
		g, ok = c.setUnits(p, p.readThread)
	}
	if ok && !(c.readAs(pagetype.Product) && p.shopUnits(g)) {
		c.Base = c.withUnits(p, g)
	}
	if forum {
		c.Base = c.withoutReplies(p, g)
	}
	c.Base = c.withoutShopZones(p)
}

// readAs reports whether typ is the most probable type of the page's
// reading.
func (c *Choice) readAs(typ string) bool {
	return len(c.Probs) == len(pagetype.Types) && pagetype.Types[pagetype.Argmax(c.Probs)] == typ
}

// add runs the extractor name (run) on doc and adds its body, as t shows
// it, tidied and without its echoes (withoutEchoes), to c's candidates;
// go-trafilatura's agreement with the base is kept for the calibration.
func (c *Choice) add(t *treediff.Tree, name string, run func(*html.Node) (string, error), doc *html.Node) {
	body, err := guarded(run, doc)
	if name == CandidateTrafilatura {
		c.Base.secondAsked, c.Base.agreement = true, -1
		if err == nil {
			c.Base.agreement = WordOverlap(c.Base.Body, body)
		}
	}
	if err != nil {
		return
	}
	if t.Root.Origin != nil {
		// t is a view of the page without what the browser hid
		// (VisibleTree): an extractor reading the source must not
		// bring that back.
		body = shownIn(t, body)
	}
	if body = withoutEchoes(tidy(body, c.Base.Title)); body != "" {
		c.Candidates = append(c.Candidates, Candidate{Name: name, Body: body})
	}
}

// maxUnitsArticle is the article probability of the page's type reading
// from which the base is not joined with the page's units: on news
// articles the page's other units are related stories and comments.
const maxUnitsArticle = 0.5

// withUnits returns c's base with the text of g, the page's largest group
// of units, joined to its body (see unitGroup.joined) when the page is not
// read as an article: a listing's introduction and its items, a
// collection's heading and its cards, a service page's section and its
// sibling sections. The block model's element holds one of them, the
// group the rest. A group of cards joins a body of fewer words only.
func (c *Choice) withUnits(p *page, g unitGroup) Result {
	r := c.Base
	if len(c.Probs) != len(pagetype.Types) || c.Probs[slices.Index(pagetype.Types, pagetype.Article)] > maxUnitsArticle {
		return r
	}
	if g.cards && g.words <= r.proseWords() {
		// A grid of cards beside longer prose: the prose is the
		// category's copy, the grid its shop.
		return r
	}
	body, node := g.joined(p, r)
	if body == "" || body == r.Body {
		return r
	}
	r.Body, r.lineWords = body, 0
	r.Node, r.Selector = node, selector.Of(node)
	return r
}

// withoutShopZones returns c's base without its text inside the page's
// shop zones (reviews, rails of other products) when the page is read as
// a product's (its most probable type).
func (c *Choice) withoutShopZones(p *page) Result {
	r := c.Base
	body := r.Body
	switch {
	case c.readAs(pagetype.Product):
		body = p.withoutShopZones(body)
	case c.readAs(pagetype.Service):
		body = p.withoutRails(body)
	}
	if body != r.Body {
		r.Body, r.lineWords = body, 0
	}
	return r
}

// parseSource decodes and parses src for the other extractors.
func parseSource(src []byte) (*html.Node, error) {
	text, _, err := treediff.Decode(src, "")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errSecondOpinion, err)
	}
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errSecondOpinion, err)
	}
	dropNoscript(doc)
	return doc, nil
}

// dropNoscript removes the <noscript> elements under n. The parser, as a
// browser running script, keeps their content as one text: the other
// extractors would take a page's crawler view (a forum thread) for text
// made of markup. The tree leaves <noscript> out; withNoscript reads it.
func dropNoscript(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && c.Data == "noscript" {
			n.RemoveChild(c)
		} else {
			dropNoscript(c)
		}
		c = next
	}
}

// guarded runs an extractor on doc: a panic of the library on a hostile
// page is an error, not a crash.
func guarded(run func(*html.Node) (string, error), doc *html.Node) (body string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: panicked: %v", errSecondOpinion, p)
		}
	}()
	return run(doc)
}

// ChoiceFeatureNames names the values of Candidate.Features, in order.
var ChoiceFeatureNames = append([]string{"rule takes it", "base empty", "units taken",
	"log base words", "log candidate words", "log word ratio", "base held", "candidate held",
	"added share", "added boilerplate share", "candidate link share", "base confidence",
	"sure long base", "log page words", "page link share", "base page share", "candidate page share"},
	append(prefixed("type ", pagetype.Types), typeInteractions("rule", "ratio")...)...)

// describe sets each candidate's features (see ChoiceFeatureNames); below
// is the confidence under which the fixed rule (fuse) takes a candidate
// that shares little with the base.
func (c *Choice) describe(p *page, below float64) {
	for i := range c.Candidates {
		c.Candidates[i].Features = c.features(p, i, below)
	}
}

// features is the evidence for candidate i over the base on page p; it
// also marks the candidate when it holds the base's words exactly (same).
func (c *Choice) features(p *page, i int, below float64) []float64 {
	r, cand := c.Base, c.Candidates[i]
	mine, theirs := wordBag(r.Body), wordBag(cand.Body)
	nm, nt := bagSize(mine), bagSize(theirs)
	common := bagOverlap(mine, theirs)
	c.Candidates[i].same = common == nm && common == nt
	addedBag := map[string]int{}
	for w, n := range theirs {
		if mine[w] == 0 {
			addedBag[w] = n
		}
	}
	added := bagSize(addedBag)
	boiler := addedBoiler(p, r.Body, cand.Body, addedBag)
	pageWords := max(c.reading.Words(), 1)
	ratio := (math.Log1p(float64(nt)) - math.Log1p(float64(nm))) / 5
	rule := b2f(fuse(r, p, cand.Body, below))
	v := []float64{rule, b2f(nm == 0), b2f(c.Units != "" && r.Body == c.Units),
		math.Log1p(float64(nm)) / 10, math.Log1p(float64(nt)) / 10, ratio,
		float64(common) / float64(max(nm, 1)), float64(common) / float64(max(nt, 1)),
		float64(added) / float64(max(nt, 1)), float64(boiler) / float64(max(added, 1)),
		linkShare(p, cand.Body), r.Confidence, b2f(nm >= articleWords && r.Confidence >= sureConfidence),
		math.Log1p(float64(pageWords)) / 10, c.reading.LinkShare(),
		min(float64(nm)/float64(pageWords), 1), min(float64(nt)/float64(pageWords), 1)}
	probs := c.Probs
	if len(probs) != len(pagetype.Types) {
		probs = make([]float64, len(pagetype.Types))
	}
	v = append(v, probs...)
	for _, q := range probs {
		v = append(v, q*rule, q*ratio)
	}
	return v
}

// linkShare is the share of the words in links of the blocks of p that
// body holds (see articleLike).
func linkShare(p *page, body string) float64 {
	held, linked := heldLinks(p, body)
	return float64(linked) / float64(max(held, 1))
}
