package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/treediff"
)

// Pages made of many similar units (a listing's or a collection's items, a
// forum thread's posts, a documentation page's sections) hold their content
// in siblings built alike, none of which outweighs the others: the block
// model's element is then one unit, and a teaser's linked headline is
// navigation to it. units finds the largest group of such siblings whose
// text is not furniture, and the body is then all of it.

// Bounds of a group of units.
const (
	// minUnits is the fewest siblings built alike that make a group.
	minUnits = 3
	// minUnitWords is the fewest words a unit holds on average: a menu's
	// items hold one to three.
	minUnitWords = 6
	// unitsOver is how many times the words of the body the block model
	// found a group of units must hold to be taken instead of it.
	unitsOver = 3
	// articleWords is the length from which a body the block model is
	// sure of (sureConfidence) is an article, which a page's other groups
	// of siblings (its layout's sections, a comment list) never replace.
	articleWords = 150
	// unitsAlone is how many times the words of the body the block
	// model found a group of units beside it must hold to be taken
	// instead: the page is then a listing whose stray line the block
	// model took, not an article beside a list of related stories.
	unitsAlone     = 10
	sureConfidence = 0.9
)

// unitGroup is a group of sibling units: their parent and their blocks'
// content words.
type unitGroup struct {
	parent *treediff.Node
	sig    string
	words  int
	// cards: a group of cards (see unitWords.card), found on a page
	// without a group of units of prose.
	cards bool
	// alike are the page's other parents built as parent, whose units
	// are the group's too (see spread).
	alike []*treediff.Node
}

// unitSignature is what siblings built alike share: the tag and the first
// class token.
func unitSignature(n *treediff.Node) string {
	c, _ := n.Attr("class")
	if f := strings.Fields(c); len(f) > 0 {
		return n.Label + "." + f[0]
	}
	return n.Label
}

// unitContent reports a block that a unit's content keeps: not furniture
// by its own marks (boilerplate), nor script shown as text. On a forum
// thread (p.threadCues) the cue of a "comments" region is no such mark:
// forums set their posts in one, the thread's replies.
func (p *page) unitContent(b *block) bool {
	if b.code {
		return false
	}
	if b.cue && p.threadCues != nil {
		return p.inPosts(b) && !furnitureLine(b)
	}
	return !boilerplate(b)
}

// inPosts reports, on a forum thread, a block under no strong cue but
// that of its posts' region.
func (p *page) inPosts(b *block) bool {
	return p.threadCues != nil && b.container != nil && !p.threadCues[b.container.Index]
}

// readThread marks p as a forum thread's (threadCues: every "comments"
// region is the posts' region) and returns its largest group of units,
// false when it has none. One preorder pass, then units.
func (p *page) readThread() (unitGroup, bool) {
	cued := make([]bool, len(p.t.Nodes))
	for _, n := range p.t.Nodes {
		if n.Parent != nil && cued[n.Parent.Index] {
			cued[n.Index] = true
			continue
		}
		cued[n.Index] = !postsRegion(n) && p.cueOf(n) == strongCue
	}
	p.threadCues = cued
	return p.units()
}

// postsRegion reports an element whose class or id names comments: on a
// forum thread, its posts.
func postsRegion(n *treediff.Node) bool {
	for _, k := range []string{"class", "id"} {
		if v, ok := n.Attr(k); ok && strings.Contains(strings.ToLower(v), "comment") {
			return true
		}
	}
	return false
}

// units returns the page's largest group of units by content words, or
// false when no group has minUnits units of minUnitWords words on average.
// A page without such a group may still list items as cards (see
// unitWords.card): its largest group of cards is then its units. It is
// linear in the number of nodes: each element's children are grouped
// once, and a child's words are a difference of prefix sums.
func (p *page) units() (unitGroup, bool) {
	w := p.unitWordPrefix()
	var best, cards unitGroup
	for _, c := range p.t.Nodes {
		if c.Kind != treediff.Element || len(c.Children) < minUnits || p.opt.hides(c) || skipTags[c.Label] {
			continue
		}
		for sig, g := range p.childGroups(c, w) {
			if g.n >= minUnits && g.words >= minUnitWords*g.n && g.words > best.words {
				best = unitGroup{parent: c, sig: sig, words: g.words}
			}
			if g.cardGroup() && g.cardWords > cards.words {
				cards = unitGroup{parent: c, sig: sig, words: g.cardWords, cards: true}
			}
		}
	}
	if best.parent == nil {
		// Units of prose outweigh a grid of cards: where a page has
		// both, they are its items and the grid its shop.
		best = cards
	}
	best.spread(p, w)
	return best, best.parent != nil
}

// minCardWords is the fewest words a group's units hold on average when
// most of them are cards (see unitWords.card): a product's name and its
// price say what the item is in fewer words than a teaser.
const minCardWords = 3

// unitWords holds prefix sums over the page's blocks: the blocks i to j
// hold content[j]-content[i] unit content words, titles[j]-titles[i]
// words of the other texts a unit keeps (its linked title, a line of
// facts), and facts[j]-facts[i] blocks that state a price or a line of
// dates or figures.
type unitWords struct{ content, titles, facts []int }

// unitWordPrefix is the prefix sums of the blocks' unit content words,
// other kept words and facts (see unitWords).
func (p *page) unitWordPrefix() unitWords {
	n := len(p.blocks) + 1
	w := unitWords{make([]int, n), make([]int, n), make([]int, n)}
	for i, b := range p.blocks {
		w.content[i+1], w.titles[i+1], w.facts[i+1] = w.content[i], w.titles[i], w.facts[i]
		switch {
		case p.unitContent(b):
			w.content[i+1] += b.words
		case p.unitText(b):
			w.titles[i+1] += b.words
		}
		if p.threadCues == nil && b.words <= maxAttributeWords && !b.cue && (unitFact(b) || pagetype.HoldsPrice(b.text)) {
			w.facts[i+1]++
		}
	}
	return w
}

// card reports whether unit u is an item's card: a fact (a price, a date)
// beside other words (its name). A menu's entries state no facts.
func (w unitWords) card(p *page, u *treediff.Node) bool {
	i, j := p.first[u.Index], p.end[u.Index]
	return w.facts[j] > w.facts[i] && w.content[j]+w.titles[j]-w.content[i]-w.titles[i] > 1
}

// unitTally counts the units of one signature and their content words;
// the cards among them, and the words they hold as cards (see
// unitWords.card).
type unitTally struct{ n, words, all, cards, cardWords int }

// cardGroup reports whether most units (of all, with content or cards)
// are cards, at least minUnits, holding minCardWords words on average:
// items, not a menu's entries.
func (g *unitTally) cardGroup() bool {
	return 2*g.cards > g.all && g.cards >= minUnits && g.cardWords >= minCardWords*g.cards
}

// childGroups groups c's element children that hold content words by
// their signature.
func (p *page) childGroups(c *treediff.Node, w unitWords) map[string]*unitTally {
	groups := map[string]*unitTally{}
	for _, u := range c.Children {
		if u.Kind != treediff.Element || p.end[u.Index] <= p.first[u.Index] {
			continue
		}
		i, j := p.first[u.Index], p.end[u.Index]
		n, card := w.content[j]-w.content[i], w.card(p, u)
		if n == 0 && !card {
			continue
		}
		sig := unitSignature(u)
		g := groups[sig]
		if g == nil {
			g = &unitTally{}
			groups[sig] = g
		}
		g.all++
		if n > 0 {
			g.n++
			g.words += n
		}
		if card {
			g.cards++
			g.cardWords += n + w.titles[j] - w.titles[i]
		}
	}
	return groups
}

// unitText reports a block the units joined to a base keep (see joined):
// a unit's content, or its one short link, the item's title (a product's
// name), which in a menu of short links would be navigation. On a forum
// thread a post's one link is its author's name, which the thread's text
// leaves out as it does the post's date line.
func (p *page) unitText(b *block) bool {
	return p.unitKeeps(b) || p.threadCues == nil && b.wordLinks == 1 && !b.code && !b.cue && !isBoilerLine(b) && !isLegal(b)
}

// paras returns the text of the group's units, block by block in
// document order (see eachUnitBlock).
func (g unitGroup) paras(p *page) []string { return g.parasBy(p, p.unitKeeps) }

// unitKeeps reports a block of a unit that the unit's text keeps: its
// content, and a line of dates or figures (an event's date, a price, a
// pay range), which on an article is a dateline but on an item is one of
// its facts. On a forum thread a post's date line stays out.
func (p *page) unitKeeps(b *block) bool {
	return p.unitContent(b) || p.threadCues == nil && unitFact(b)
}

// unitFact reports a line of dates or figures that is furniture by that
// alone: not a cue's, code, a byline or a legal line.
func unitFact(b *block) bool {
	if b.cue || b.code || b.words > 16 || isLegal(b) {
		return false
	}
	ws := treediff.Words(b.text)
	return mostlyDate(ws) && !isByline(b.text, ws)
}

// parasBy returns the text of the group's units' blocks that keep holds,
// in document order (see eachUnitBlock).
func (g unitGroup) parasBy(p *page, keep func(*block) bool) []string {
	var out []string
	g.eachUnitBlock(p, keep, func(_ int, b *block, _ bool) { out = append(out, b.text) })
	return out
}

// constantShare is the share of a group's units from which a text they
// all say is the units' furniture (a "Rate this book" or "Add to cart"
// control), shown once, not an item's attribute.
const constantShare = 0.9

// maxAttributeWords bounds the words of an item's attribute: a longer
// text two units say is one text shown twice (a section's copy for
// narrow screens).
const maxAttributeWords = 12

// eachUnitBlock calls f with the index and block of each block of the
// group's units that keep holds, in document order, and whether the text
// may be said again: once per unit, as the units of a listing say
// "Hardcover", "Full-Time" or a price again item after item and the page
// shows each (a text said twice in one unit is a copy of it: a title for
// narrow screens); but a text nearly every unit says (constantShare) or a
// long one (maxAttributeWords) once, and on a forum thread every text once
// (its posts repeat their authors' names, badges and counts, which are not
// the posts' content). A unit whose text an earlier unit has is left out
// whole: a carousel clones its slides.
func (g unitGroup) eachUnitBlock(p *page, keep func(*block) bool, f func(int, *block, bool)) {
	units := g.members()
	in := unitsSaying(p, units, keep)
	once, copies := map[string]bool{}, map[string]bool{}
	for _, u := range units {
		key := unitText(p, u, keep)
		if copies[key] {
			continue // a copy of a unit (a carousel's clone of its slide)
		}
		copies[key] = true
		seen := map[string]bool{}
		for i := p.first[u.Index]; i < p.end[u.Index]; i++ {
			b := p.blocks[i]
			if !keep(b) || seen[b.text] || once[b.text] {
				continue
			}
			again := p.threadCues == nil && b.words <= maxAttributeWords && float64(in[b.text]) < constantShare*float64(len(units))
			seen[b.text], once[b.text] = true, !again
			f(i, b, again)
		}
	}
}

// unitsSaying counts, for each text of the blocks keep holds, the units
// that say it.
func unitsSaying(p *page, units []*treediff.Node, keep func(*block) bool) map[string]int {
	in := map[string]int{}
	for _, u := range units {
		seen := map[string]bool{}
		for _, b := range p.blocks[p.first[u.Index]:p.end[u.Index]] {
			if keep(b) && !seen[b.text] {
				seen[b.text] = true
				in[b.text]++
			}
		}
	}
	return in
}

// unitText is the text of unit u's blocks that keep holds: two units of
// the same text are one unit shown twice.
func unitText(p *page, u *treediff.Node, keep func(*block) bool) string {
	var b strings.Builder
	for _, x := range p.blocks[p.first[u.Index]:p.end[u.Index]] {
		if keep(x) {
			b.WriteString(x.text)
			b.WriteByte(0)
		}
	}
	return b.String()
}

// members returns the group's units, those of its parents built alike
// (see spread) too, in document order.
func (g unitGroup) members() []*treediff.Node {
	var out []*treediff.Node
	for _, c := range g.parents() {
		for _, u := range c.Children {
			if u.Kind == treediff.Element && unitSignature(u) == g.sig {
				out = append(out, u)
			}
		}
	}
	return out
}

// holdsMostly reports whether one unit of the group holds n and most of
// the group's words: the group is then the page's layout around the body
// (header, main, footer built alike), not a list of items.
func (g unitGroup) holdsMostly(p *page, n *treediff.Node) bool {
	if n == nil {
		return false
	}
	for _, u := range g.parent.Children {
		if u.Kind != treediff.Element || unitSignature(u) != g.sig || !u.Contains(n) {
			continue
		}
		w := 0
		for _, b := range p.blocks[p.first[u.Index]:p.end[u.Index]] {
			if p.unitContent(b) {
				w += b.words
			}
		}
		return 2*w > g.words
	}
	return false
}

// withUnits returns r, the block model's result on page p, with the body
// of the page's largest group of units when that group holds unitsOver
// times r's words: r's element is the group's parent or inside one of its
// units (a fragment of the group) without that unit holding most of the
// group; or r is a short body just above the group (the listing's
// introduction, kept before the units); or the group is beside r and
// holds unitsAlone times its words (a listing's stray line). An article r
// is sure of stays.
func withUnits(r Result, p *page) Result {
	n := r.proseWords()
	if n >= articleWords && r.Confidence >= sureConfidence {
		return r
	}
	g, ok := p.units()
	if !ok || float64(g.words) < unitsOver*float64(n) {
		return r
	}
	if r.Node != nil && g.parent.Contains(r.Node) && r.Node != g.parent && g.holdsMostly(p, r.Node) {
		// The group is the layout around r's element: r stays.
		return r
	}
	paras, node := g.paras(p), g.root()
	if r.Node != nil && !g.parent.Contains(r.Node) {
		var ok bool
		if paras, node, ok = g.beside(p, r, n, paras); !ok {
			return r
		}
	}
	r.Body, r.lineWords = strings.Join(paras, "\n\n"), 0
	r.Node, r.Selector = node, selector.Of(node)
	return r
}

// beside returns the body and element of a group of units (paras its
// text) found beside r's element (n words): the listing's introduction r
// and the units, or the units alone when they outweigh r unitsAlone times;
// false when r stays (an article beside a list of related stories).
func (g unitGroup) beside(p *page, r Result, n int, paras []string) ([]string, *treediff.Node, bool) {
	switch {
	case n <= maxIntroWords && g.introducedBy(p, r.Node):
		return append(strings.Split(r.Body, "\n\n"), paras...), commonAncestor(r.Node, g.root()), true
	case float64(g.words) < unitsAlone*float64(n):
		return nil, nil, false
	}
	return paras, g.root(), true
}

// maxIntroWords bounds the words of a listing's introduction: a short
// article above a list of related stories is longer.
const maxIntroWords = 40

// maxIntroGap bounds the content words between a listing's introduction
// and its first unit.
const maxIntroGap = 40

// introducedBy reports whether element n (the block model's short body)
// ends above the group's first unit with at most maxIntroGap content words
// between them: the listing's introduction ("Stay up to date with our
// coverage of..."), which the page shows with its items.
func (g unitGroup) introducedBy(p *page, n *treediff.Node) bool {
	end, start := p.end[n.Index], p.first[g.parent.Index]
	if end > start {
		return false
	}
	gap := 0
	for _, b := range p.blocks[end:start] {
		if p.unitContent(b) {
			gap += b.words
		}
	}
	return gap <= maxIntroGap
}

// joined returns the text of the group's units joined with r's body, in
// the page's order (each text of a unit once per unit, each other text
// once), and the element holding both.
func (g unitGroup) joined(p *page, r Result) (string, *treediff.Node) {
	inUnit := map[int]bool{}
	g.eachUnitBlock(p, p.unitText, func(i int, _ *block, again bool) { inUnit[i] = again })
	node := g.root()
	if r.Node != nil {
		node = commonAncestor(r.Node, node)
	}
	return p.joinBody(r.Body, node, inUnit), node
}

// timesSaid counts the texts of base (a body's paragraphs) for joinBody:
// a short one as many times as base says it (a table's cells say
// "Optional" again row after row), a long one, and on a forum thread any,
// once.
func (p *page) timesSaid(base []string) map[string]int {
	n := map[string]int{}
	for _, t := range base {
		if n[t] == 0 || p.threadCues == nil && len(treediff.Words(t)) <= maxEchoWords {
			n[t]++
		}
	}
	return n
}

// joinBody returns body (a base's) joined with the blocks of n whose
// index is in units, in the page's order: each text once, but a unit's
// text units says may be said again (see eachUnitBlock) each time, and a
// short text of body (a table's cell the block model keeps again, see
// echoKey) as many times as body says it; a long one, and on a forum
// thread any, once (a post quoted in the replies, a text copied for small
// screens, each post's badges). A text
// of body not found as one block of n (lines of a block the base cut) is
// kept ahead, as the base has it. It is linear in the blocks of n.
func (p *page) joinBody(body string, n *treediff.Node, units map[int]bool) string {
	base := strings.Split(body, "\n\n")
	want := p.timesSaid(base)
	var out []string
	seen := map[string]bool{}
	for i := p.first[n.Index]; i < p.end[n.Index]; i++ {
		b := p.blocks[i]
		again, unit := units[i]
		if again || want[b.text] > 0 || !seen[b.text] && unit {
			want[b.text]--
			seen[b.text] = true
			out = append(out, b.text)
		}
	}
	var lost []string
	for _, t := range base {
		if t != "" && !seen[t] {
			seen[t] = true
			lost = append(lost, t)
		}
	}
	return strings.Join(append(lost, out...), "\n\n")
}
