package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/treediff"
)

// zoneTags never hold an article body.
var zoneTags = map[string]bool{
	"nav": true, "aside": true, "footer": true, "select": true, "option": true,
	"button": true, "iframe": true, "textarea": true, "noembed": true, "noframes": true,
}

// zoneWords mark, in a class, id, role or aria-label, a zone whose text
// changes from page to page without being the article (seed 004: comments
// and photo galleries), and the usual companions of the body.
var zoneWords = []string{
	"comment", "gallery", "slideshow", "carousel", "disqus", "reply", "replies",
	"related", "share", "sharing", "social", "sidebar", "breadcrumb", "newsletter",
	"advert", "sponsor", "outbrain", "taboola", "popular", "mostread",
	"most-read", "trending", "recommend", "navigation", "navbar", "menu", "footer",
	"toolbar", "wm-ipp", "tags", "subscribe",
}

// zoneRoles are ARIA roles of page furniture.
var zoneRoles = map[string]bool{
	"navigation": true, "complementary": true, "contentinfo": true, "banner": true,
	"search": true, "menu": true, "menubar": true, "dialog": true,
}

// IsFilteredZone reports whether the element is a comment zone, a photo
// gallery or other page furniture by its tag, class, id, role or aria-label.
func IsFilteredZone(x *treediff.Node) bool {
	if x.Label == "body" || x.Label == "html" {
		return false // a cue on the whole page says nothing of a zone
	}
	if zoneTags[x.Label] {
		return true
	}
	if role, ok := x.Attr("role"); ok && zoneRoles[strings.ToLower(strings.TrimSpace(role))] {
		return true
	}
	for _, k := range []string{"class", "id", "aria-label"} {
		v, ok := x.Attr(k)
		if !ok {
			continue
		}
		v = strings.ToLower(v)
		for _, w := range zoneWords {
			if i := strings.Index(v, w); i >= 0 && !articleWord(v, i, w) {
				return true
			}
		}
	}
	return false
}

// articleWord reports whether the cue found at v[i:] is part of a word that
// names article content instead ("commentary", "shared-story", "menuitem"
// is still furniture).
func articleWord(v string, i int, w string) bool {
	rest := v[i+len(w):]
	switch w {
	case "comment":
		return strings.HasPrefix(rest, "ary") || strings.HasPrefix(rest, "ator")
	case "share":
		return strings.HasPrefix(rest, "d")
	case "tags":
		return i > 0 && isLetter(v[i-1])
	case "reply":
		return false
	}
	return false
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' }

// A product page's <main> holds, beside the product's description and
// specifications, what a shop shows around every product: its customers'
// reviews and ratings, and rails of other products (related, similar,
// recommended, bought together). None is the page's content, and their
// text (reviews are prose) is what the block model takes for it.

// shopZoneWords mark, in a class or id, a product page's reviews, its
// rails of other products (accessories, sponsored ones), the shop's fine
// print (legal lines, disclaimers, footnotes), its delivery and returns
// terms (shipping) and what opens over the page (popovers, tooltips,
// drawers): on most of wcxb-dev's product pages the gold keeps none of
// them.
var shopZoneWords = []string{
	"review", "rating", "recommend", "related", "similar", "upsell",
	"cross-sell", "crosssell", "legal", "disclaimer", "footnote", "popover",
	"tooltip", "drawer", "accessor", "sponsor", "shipping",
}

// shopZone reports whether n's class or id names a shop zone; "preview"
// (an image's or a text's) does not.
func shopZone(n *treediff.Node) bool {
	for _, k := range []string{"class", "id"} {
		v, ok := n.Attr(k)
		if !ok {
			continue
		}
		v = strings.ToLower(strings.ReplaceAll(v, "preview", ""))
		for _, w := range shopZoneWords {
			if strings.Contains(v, w) {
				return true
			}
		}
	}
	return false
}

// shopZones marks, per node index of p's tree, the nodes inside a shop
// zone (shopZone on them or an ancestor below <body>, unless it holds the
// page's main heading (<h1>): a class naming the product's own state
// ("shipping-taxable") on the box of the product; with cards, a rail's
// card: priceCards, or a section a rail heading opens: railSections).
// One preorder pass.
func (p *page) shopZones(cards bool) []bool {
	in := make([]bool, len(p.t.Nodes))
	if cards {
		in = p.priceCards()
		p.railSections(in)
	}
	h1 := p.levelPrefix(1)
	for _, n := range p.t.Nodes {
		if n.Parent != nil && in[n.Parent.Index] {
			in[n.Index] = true
			continue
		}
		in[n.Index] = in[n.Index] || n.Kind == treediff.Element && n.Label != "body" && n.Label != "html" &&
			h1[p.end[n.Index]] == h1[p.first[n.Index]] && shopZone(n)
	}
	return in
}

// A rail of other products often bears no name a class would give away
// (a carousel, a grid of hashed classes): its cards do. Each is a short
// unit, built like its siblings, naming a product by a link beside its
// price; the product's own description is no such row.

// Bounds of a rail of product cards.
const (
	// maxCardWords is the most words a card holds: a name, a price, a
	// rating, a delivery line.
	maxCardWords = 60
	// minCardShare is the share of a group's siblings that must be cards
	// (a price and a link each): a rail may hold a card without a price
	// (sold out, "see all").
	minCardShare = 2.0 / 3
)

// priceCards marks, per node index, the units of every group of at least
// minUnits siblings built alike (unitSignature) that are mostly product
// cards (cardGroups). Linear: a node's words, links and prices are
// differences of prefix sums over the blocks.
func (p *page) priceCards() []bool {
	words, links, prices := p.cardPrefixes()
	sum := func(prefix []int, u *treediff.Node) int { return prefix[p.end[u.Index]] - prefix[p.first[u.Index]] }
	isCard := func(u *treediff.Node) bool {
		w := sum(words, u)
		return w > 0 && w <= maxCardWords && sum(links, u) > 0 && sum(prices, u) > 0
	}
	cards := make([]bool, len(p.t.Nodes))
	for _, c := range p.t.Nodes {
		if c.Kind != treediff.Element || len(c.Children) < minUnits {
			continue
		}
		rails := p.cardGroups(c, isCard)
		for _, u := range c.Children {
			if u.Kind == treediff.Element && rails[unitSignature(u)] {
				cards[u.Index] = true
			}
		}
	}
	return cards
}

// cardGroups returns the signatures of c's children that make a rail: at
// least minUnits cards (isCard), minCardShare of the siblings built
// alike.
func (p *page) cardGroups(c *treediff.Node, isCard func(*treediff.Node) bool) map[string]bool {
	total, priced := map[string]int{}, map[string]int{}
	for _, u := range c.Children {
		if u.Kind != treediff.Element || p.end[u.Index] <= p.first[u.Index] {
			continue
		}
		sig := unitSignature(u)
		total[sig]++
		if isCard(u) {
			priced[sig]++
		}
	}
	rails := map[string]bool{}
	for sig, n := range priced {
		if n >= minUnits && float64(n) >= minCardShare*float64(total[sig]) {
			rails[sig] = true
		}
	}
	return rails
}

// cardPrefixes returns the prefix sums, over p's blocks, of their words,
// their links and the blocks holding a price.
func (p *page) cardPrefixes() (words, links, prices []int) {
	words, links, prices = p.wordPrefix(), make([]int, len(p.blocks)+1), make([]int, len(p.blocks)+1)
	for i, b := range p.blocks {
		links[i+1], prices[i+1] = links[i]+b.links, prices[i]
		if pagetype.HoldsPrice(b.text) {
			prices[i+1]++
		}
	}
	return words, links, prices
}

// wordPrefix is the prefix sum of p's blocks' words: node i holds
// prefix[p.end[i]] - prefix[p.first[i]] words.
func (p *page) wordPrefix() []int {
	prefix := make([]int, len(p.blocks)+1)
	for i, b := range p.blocks {
		prefix[i+1] = prefix[i] + b.words
	}
	return prefix
}

// zonedBlocks marks, per block of p, those inside a shop zone (the
// blocks under its outermost nodes: one pass; cards as in shopZones).
func (p *page) zonedBlocks(cards bool) []bool {
	return p.blocksUnder(p.shopZones(cards))
}

// blocksUnder marks, per block of p, those under a node zones marks,
// zones marking every node below a marked one (one pass).
func (p *page) blocksUnder(zones []bool) []bool {
	zoned := make([]bool, len(p.blocks))
	for _, n := range p.t.Nodes {
		if zones[n.Index] && (n.Parent == nil || !zones[n.Parent.Index]) {
			p.markBlocks(zoned, n)
		}
	}
	return zoned
}

// markBlocks marks in zoned the blocks under n.
func (p *page) markBlocks(zoned []bool, n *treediff.Node) {
	for i := p.first[n.Index]; i < p.end[n.Index]; i++ {
		zoned[i] = true
	}
}

// withoutShopZones returns body (a base's or another extractor's, on page
// p) without the paragraphs that are text of the page's shop zones only
// (withoutZoned). Rails (of cards, or named by their heading) are left in
// when taking them out would leave less than minKeptShare of the body's
// words: the cards are then the body (a shop's grid, the page misread as
// a product's).
func (p *page) withoutShopZones(body string) string {
	return p.shopZonesOut(body, true)
}

// shopZonesOut is withoutShopZones, with the floor (minKeptShare) on its
// rails or without it (floor false: the zones go whatever they leave).
func (p *page) shopZonesOut(body string, floor bool) string {
	named := p.withoutZoned(onceEach(body), p.zonedBlocks(false))
	all := p.withoutZoned(named, p.zonedBlocks(true))
	if floor && !leavesEnough(all, named) {
		return named
	}
	return all
}

// minOnceWords is the fewest words of a paragraph onceEach keeps once: a
// shorter one (a size, a label) is said again with reason.
const minOnceWords = 4

// onceEach returns body with each paragraph of minOnceWords words or more
// once, at its first place: a shop lays a product's description out
// twice, once for small screens and once for large, and says it once.
func onceEach(body string) string {
	seen := map[string]bool{}
	var kept []string
	for _, t := range strings.Split(body, "\n\n") {
		key := NormWords(t)
		if len(strings.Fields(key)) >= minOnceWords {
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		kept = append(kept, t)
	}
	return strings.Join(kept, "\n\n")
}

// minKeptShare is the share of a body's words a rail of cards taken out
// must leave.
const minKeptShare = 0.2

// leavesEnough reports whether kept, body without some zones, holds at
// least minKeptShare of body's words: else the zones were the body.
func leavesEnough(kept, body string) bool {
	return float64(len(strings.Fields(kept))) >= minKeptShare*float64(len(strings.Fields(body)))
}

// withoutZoned returns body without the paragraphs that are text of the
// zoned blocks only: most of their word 4-grams (a short paragraph: its
// words) are shown inside them and not outside. The 4-grams run across
// the zoned blocks, as another extractor joins a card's lines. A text
// also shown outside stays. Linear in the words of the page and of body.
func (p *page) withoutZoned(body string, zoned []bool) string {
	zone, out := textGrams{}, textGrams{}
	for i, b := range p.blocks {
		if zoned[i] {
			zone.add(b.text)
		} else {
			out.add(b.text)
		}
	}
	return zone.dropFrom(body, out)
}

// textGrams gathers texts of a page (a zone's, or what stands outside
// it) for zoneOnly: each text whole and the word 4-grams running across
// them.
type textGrams struct {
	grams map[string]bool
	words []string
}

// add adds text (its normalized words) to g.
func (g *textGrams) add(text string) {
	if g.grams == nil {
		g.grams = map[string]bool{}
	}
	ws := strings.Fields(NormWords(text))
	g.words = append(g.words, ws...)
	g.grams[strings.Join(ws, " ")] = true
}

// dropFrom returns body without its paragraphs that are text of zone g
// only (zoneOnly), outside the text shown elsewhere.
func (g textGrams) dropFrom(body string, outside textGrams) string {
	if len(g.words) == 0 {
		return body
	}
	inZone := g.grams
	addGrams(inZone, g.words)
	if outside.grams == nil {
		outside.grams = map[string]bool{}
	}
	addGrams(outside.grams, outside.words)
	var kept []string
	for _, t := range strings.Split(body, "\n\n") {
		if !zoneOnly(strings.Fields(NormWords(t)), inZone, outside.grams) {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, "\n\n")
}

// addGrams adds to grams the word 4-grams of ws, or ws whole when shorter.
func addGrams(grams map[string]bool, ws []string) {
	if len(ws) < 4 {
		grams[strings.Join(ws, " ")] = true
		return
	}
	for j := 0; j+4 <= len(ws); j++ {
		grams[strings.Join(ws[j:j+4], " ")] = true
	}
}

// zoneOnly reports whether at least half of the 4-grams of ws (ws whole
// when shorter) are in zone and not in outside.
func zoneOnly(ws []string, zone, outside map[string]bool) bool {
	if len(ws) == 0 {
		return false
	}
	own := map[string]bool{}
	addGrams(own, ws)
	only := 0
	for g := range own {
		if zone[g] && !outside[g] {
			only++
		}
	}
	return 2*only >= len(own)
}

// candidatesAsRead drops from c's candidates what the page's reading
// drops from the base: the text inside its shop zones and its closed
// overlays (withoutHidden) on a product page,
// the comments under a thread's posts (c.replies): another extractor
// takes them for content as readily. A candidate left empty is dropped.
func (c *Choice) candidatesAsRead(p *page) {
	product, service := c.readAs(pagetype.Product), c.readAs(pagetype.Service)
	if !product && !service && c.replies == nil {
		return
	}
	// A base with its own text outside the zones shows where the product
	// is: another extractor's body then loses its zones (and the page's
	// closed overlays) whatever they leave. The floor stays for a base
	// made of the zones, or none (a grid misread as a product's).
	base := strings.TrimSpace(c.Base.Body)
	floor := product && (base == "" || !leavesEnough(p.withoutZoned(base, p.zonedBlocks(true)), base))
	kept := c.Candidates[:0]
	for _, cand := range c.Candidates {
		if c.replies != nil {
			cand.Body = p.withoutZoned(cand.Body, c.replies)
		}
		if product {
			cand.Body = p.shopZonesOut(p.withoutHidden(cand.Body), floor)
		}
		if service {
			cand.Body = p.withoutRails(cand.Body)
		}
		if strings.TrimSpace(cand.Body) != "" {
			kept = append(kept, cand)
		}
	}
	c.Candidates = kept
}

// WithoutShopZones returns r, another method's result on page t (src its
// source, optional), without its text inside the page's shop zones when
// the page is read as a product's (pagetype.Classify): a template's pair
// diff keeps a product page's reviews and rails of other products, which
// differ from product to product as its description does. A body the
// zones would leave under minKeptShare of its words is kept whole: the
// zones' names then mark the page's own sections (a maker's page whose
// every section carries a "footnote" or "legal" line).
func WithoutShopZones(t *treediff.Tree, src []byte, r Result) Result {
	if t == nil || t.Root == nil || strings.TrimSpace(r.Body) == "" {
		return r
	}
	if typ, _ := pagetype.Classify(t, src); typ != pagetype.Product {
		return r
	}
	p := newPage(t, Options{Source: src}.WithDefaults())
	body := p.withoutShopZones(r.Body)
	if leavesEnough(body, r.Body) && body != r.Body {
		r.Body, r.lineWords = body, 0
	}
	return r
}

// shopUnits reports whether g, the page's largest group of units, lies in
// its shop zones (shopZones with cards): its parent is in one, or most of
// its units are. On a product page such a group is a rail of other
// products or the reviews, not the rest of the product's description,
// and its text is not joined to the base.
func (p *page) shopUnits(g unitGroup) bool {
	if g.parent == nil {
		return false
	}
	in := p.shopZones(true)
	if in[g.parent.Index] {
		return true
	}
	units, zoned := 0, 0
	for _, u := range g.parent.Children {
		if u.Kind != treediff.Element || unitSignature(u) != g.sig {
			continue
		}
		units++
		if in[u.Index] {
			zoned++
		}
	}
	return 2*zoned > units
}
