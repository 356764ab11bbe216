package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Class and id fragments that mark content which is not the article. Long
// fragments match anywhere in a lower-cased class/id ("articleComments");
// short ones only as a whole word of it ("ad", "nav") so that "header" or
// "canvas" do not match.
var (
	// Strong cues: whatever is under them is never the article.
	strongFragments = []string{
		"comment", "disqus", "breadcrumb", "footer", "share", "sharing",
		"social", "toolbar", "cookie", "login", "navigation", "navbar",
		"menu", "tagcloud", "pagination", "pager", "caption", "credit",
	}
	// Weak cues: side content, but sites also wrap the article in
	// "promo-zone" or "main-sidebar-layout": a long paragraph with few
	// links under them is still judged on its own.
	weakFragments = []string{
		"sidebar", "side-bar", "newsletter", "subscribe", "signup", "sign-up",
		"popup", "modal", "widget", "sponsor", "advert", "promo", "related",
		"recommend", "outbrain", "taboola", "gallery", "slideshow", "carousel",
		"mostpopular", "most-popular", "most-read", "mostread", "trending",
		"masthead",
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

// cueStrength says how surely an element's tag, role, class or id marks it
// as not the article.
type cueStrength uint8

const (
	noCue cueStrength = iota
	weakCue
	strongCue
)

// cueOf says whether n is marked as boilerplate by its tag, role, class or
// id. The document's outer elements are never: sites put every page class
// on <body>.
func cueOf(n *treediff.Node) cueStrength {
	if n.Kind != treediff.Element {
		return noCue
	}
	switch n.Label {
	case "html", "body", "form":
		return noCue
	}
	if boilerTags[n.Label] || boilerRole(n) {
		return strongCue
	}
	found := noCue
	for _, key := range []string{"class", "id"} {
		v, ok := n.Attr(key)
		if !ok || v == "" || key == "id" && anchored(n) {
			continue
		}
		v = strings.ToLower(v)
		if authorBox(v) {
			return strongCue // on a paragraph too: it names what the text is
		}
		found = max(found, attrCue(v))
	}
	if found == strongCue && n.Label == "p" {
		// A paragraph is no region of the page: a class on it names how
		// it is shown or handled ("contextmenu" on every paragraph of an
		// article, a type style) more than what it is, so its text is
		// judged as under a weak cue: a short or linked line (a caption, a
		// credit) still is not content, a long paragraph with few links is.
		return weakCue
	}
	return found
}

// anchored reports a heading whose id is the anchor a table of contents
// links to, spelled from its text ("sharing-data-between-components"):
// it names the section, not a region of the page. An id that shares no
// word with the text ("storyphotocaption" on a caption set as a heading)
// still names what the heading is.
func anchored(n *treediff.Node) bool {
	if headingLevel(n.Label) == 0 {
		return false
	}
	id, _ := n.Attr("id")
	text := wordSet(n.Text())
	for _, w := range tokenWords(strings.ToLower(id)) {
		if text[w] {
			return true
		}
	}
	return false
}

// boilerRole reports an ARIA role of page furniture on n.
func boilerRole(n *treediff.Node) bool {
	r, ok := n.Attr("role")
	return ok && boilerRoles[strings.ToLower(strings.TrimSpace(r))]
}

// attrCue is the cue of a lower-cased class or id value.
func attrCue(v string) cueStrength {
	for _, f := range strongFragments {
		if strings.Contains(v, f) {
			return strongCue
		}
	}
	qualified := 0
	for _, tok := range strings.Fields(v) {
		if boilerToken(tok) {
			return strongCue
		}
		if qualifiedHidden(tok) {
			qualified++
		}
	}
	if qualified >= hiddenEverywhere {
		return strongCue
	}
	for _, f := range weakFragments {
		if strings.Contains(v, f) {
			return weakCue
		}
	}
	return noCue
}

// boilerToken reports a class or id token holding a boilerplate word as a
// whole word ("ad-slot", "nav"). Utility classes name a style, not a
// part of the page: one that clips its box ("overflow-hidden") hides
// nothing, and a variant applied at a screen width, state or medium
// ("print:break-inside-avoid", "xl:hidden") leaves the element shown
// elsewhere; CSS frameworks put both on a body's sections and paragraphs.
func boilerToken(tok string) bool {
	if strings.Contains(tok, "overflow") || strings.Contains(tok, ":") {
		return false
	}
	ws := tokenWords(tok)
	for i, w := range ws {
		if boilerWords[w] && !(w == "hidden" && qualifiedAt(ws, i)) {
			return true
		}
	}
	return false
}

// tokenWords cuts a class or id token into its words.
func tokenWords(tok string) []string {
	return strings.FieldsFunc(tok, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// hiddenEverywhere is how many qualified "hidden" tokens (qualifiedHidden)
// hide an element on every screen ("x-hidden-desktop x-hidden-tablet
// x-hidden-mobile").
const hiddenEverywhere = 3

// qualifiedHidden reports a token that hides an element only under a
// condition or hides a part of it: "hidden" followed by what it applies to
// ("hidden-xs", "hidden-print", "x-hidden-mobile": one screen or medium,
// the element is shown on the others) or closing a name of three words or
// more ("field--label-hidden": the field's label is hidden, not its text).
// CMSs put such tokens on the article's own fields and sections. "hidden",
// "is-hidden" or "visually-hidden" still hide the element.
func qualifiedHidden(tok string) bool {
	ws := tokenWords(tok)
	for i, w := range ws {
		if w == "hidden" && qualifiedAt(ws, i) {
			return true
		}
	}
	return false
}

// qualifiedAt reports whether the word i of a token's words ws is
// qualified (see qualifiedHidden): followed by another, or closing a name
// of three words or more.
func qualifiedAt(ws []string, i int) bool { return i < len(ws)-1 || len(ws) > 2 }

// An author box ("author-bio", "authorBox", "about-the-author", the
// author's profile or card) tells who wrote the article, not what it
// says: its bio is prose, and a long paragraph with few links, judged
// alone, reads as the article's. Among wcxb-dev's pages 75 such boxes of
// 20 words or more lie outside the gold and 2 inside; among wide-dev's
// 43, none inside. A byline ("post-author", "author-name") is no box.

// authorBoxWords follow "author" in the name of an author box.
var authorBoxWords = []string{"bio", "box", "profile", "card", "about", "desc"}

// authorBox reports whether the lower-cased class or id v names an author
// box: "author" followed by one of authorBoxWords, or preceded by "about"
// (with "the" between, separators or not).
func authorBox(v string) bool {
	for rest, at := v, 0; ; {
		i := strings.Index(rest, "author")
		if i < 0 {
			return false
		}
		before := strings.TrimRight(v[:at+i], "-_")
		before = strings.TrimRight(strings.TrimSuffix(before, "the"), "-_")
		if strings.HasSuffix(before, "about") {
			return true
		}
		after := strings.TrimLeft(rest[i+len("author"):], "-_")
		for _, w := range authorBoxWords {
			if strings.HasPrefix(after, w) {
				return true
			}
		}
		at += i + len("author")
		rest = rest[i+len("author"):]
	}
}
