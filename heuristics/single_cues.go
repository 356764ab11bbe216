package heuristics

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Class and id fragments that mark content which is not the article. Long
// fragments match anywhere in a lower-cased class/id ("articleComments");
// short ones only as a whole word of it ("ad", "nav") so that "header" or
// "canvas" do not match.
var (
	boilerFragments = []string{
		"comment", "disqus", "sidebar", "side-bar", "breadcrumb", "footer",
		"share", "sharing", "social", "toolbar", "newsletter", "subscribe",
		"signup", "sign-up", "cookie", "popup", "modal", "widget", "sponsor",
		"advert", "promo", "related", "recommend", "outbrain", "taboola",
		"gallery", "slideshow", "carousel", "mostpopular", "most-popular",
		"most-read", "mostread", "trending", "login", "masthead", "navigation",
		"navbar", "menu", "tagcloud", "pagination", "pager",
	}
	boilerWords = map[string]bool{
		"ad": true, "ads": true, "nav": true, "rail": true, "tags": true,
		"foot": true, "banner": true, "skip": true, "hidden": true,
		"print": true, "email": true, "tools": true,
	}
	boilerRoles = map[string]bool{
		"navigation": true, "banner": true, "contentinfo": true,
		"complementary": true, "search": true, "menu": true, "menubar": true,
		"dialog": true,
	}
)

// isCue reports whether n is marked as boilerplate by its tag, role, class
// or id. The document's outer elements are never: sites put every page
// class on <body>.
func isCue(n *treediff.Node) bool {
	if n.Kind != treediff.Element {
		return false
	}
	switch n.Label {
	case "html", "body", "form":
		return false
	}
	if boilerTags[n.Label] {
		return true
	}
	if r, ok := n.Attr("role"); ok && boilerRoles[strings.ToLower(strings.TrimSpace(r))] {
		return true
	}
	for _, key := range []string{"class", "id"} {
		v, ok := n.Attr(key)
		if !ok || v == "" {
			continue
		}
		v = strings.ToLower(v)
		for _, f := range boilerFragments {
			if strings.Contains(v, f) {
				return true
			}
		}
		for _, w := range strings.FieldsFunc(v, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) {
			if boilerWords[w] {
				return true
			}
		}
	}
	return false
}
