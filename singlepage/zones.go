package singlepage

import (
	"strings"

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

// shopZoneWords mark, in a class or id, a product page's reviews and its
// rails of other products.
var shopZoneWords = []string{
	"review", "rating", "recommend", "related", "similar", "upsell",
	"cross-sell", "crosssell",
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
// zone (shopZone on them or an ancestor below <body>). One preorder pass.
func (p *page) shopZones() []bool {
	in := make([]bool, len(p.t.Nodes))
	for _, n := range p.t.Nodes {
		if n.Parent != nil && in[n.Parent.Index] {
			in[n.Index] = true
			continue
		}
		in[n.Index] = n.Kind == treediff.Element && n.Label != "body" && n.Label != "html" && shopZone(n)
	}
	return in
}

// withoutShopZones returns body (a base's, on page p) without the
// paragraphs that are the text of blocks inside the page's shop zones
// only: a text also shown outside them stays.
func (p *page) withoutShopZones(body string) string {
	zones := p.shopZones()
	inZone, outside := map[string]bool{}, map[string]bool{}
	for _, b := range p.blocks {
		if b.container != nil && zones[b.container.Index] {
			inZone[b.text] = true
		} else {
			outside[b.text] = true
		}
	}
	var kept []string
	for _, t := range strings.Split(body, "\n\n") {
		if !inZone[t] || outside[t] {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, "\n\n")
}
