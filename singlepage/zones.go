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
