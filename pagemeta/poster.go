package pagemeta

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// posterAttrs are the attributes by which a thread's post states who
// wrote it (forum software writes them on the post or its user's link).
var posterAttrs = []string{"data-author", "data-username"}

// threadPoster is the first poster named after the headline (node index
// from; the whole page when it has none), for a page nothing else signs:
// a thread's starter, who wrote its first post. The post names its
// writer in a data attribute (posterAttrs), or shows the name in an
// element whose class ends in "username" ("username", "bigusername",
// "PostUser-name"): the user's name as forum software marks it. Only the
// first such element counts, the replies' writers follow it; a form's
// fields ("Username") are passed over. "" when it reads as no name or as
// the site's. at is the poster's element.
func threadPoster(t *treediff.Tree, from int, site, host string) (poster string, at *treediff.Node) {
	if t == nil || t.Root == nil {
		return "", nil
	}
	name, found := "", false
	t.Root.Walk(func(n *treediff.Node) bool {
		if found || n.Kind != treediff.Element || formPart(n) {
			return false
		}
		if n.Index > from {
			name, found = posterName(n)
			at = n
		}
		return !found
	})
	if names := splitAuthors(name, false); found && len(names) == 1 && !namesSite(names[0], site, host) {
		return names[0], at
	}
	return "", nil
}

// posterFirst reports whether a thread's first poster, whose element is
// at, signs the page rather than the text byline that gave names: the
// poster comes first, in a post, not in a comment under an article. A
// thread's posts each show their writer, and a "By …" line after the
// first post is a reply's writer, a related thread's starter or a post's
// own words, not the page's signature; on an article the byline precedes
// the comments' posters.
func posterFirst(s *scan, names []string, source string, at *treediff.Node) bool {
	if len(names) == 0 {
		return true
	}
	if source != "byline" || inComment(at) {
		return false
	}
	for _, l := range s.lines {
		if strings.Contains(l.text, names[0]) {
			return at.Index < l.index
		}
	}
	return false
}

// inComment reports whether n is inside an element whose class or id
// names a comment: a reader's reply under an article.
func inComment(n *treediff.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Kind == treediff.Element && strings.Contains(strings.ToLower(attr(n, "class")+" "+attr(n, "id")), "comment") {
			return true
		}
	}
	return false
}

// formPart reports whether n is a form or one of its fields: what a
// reader fills in ("Username"), not a poster.
func formPart(n *treediff.Node) bool {
	switch n.Label {
	case "form", "label", "input", "button", "select", "textarea":
		return true
	}
	return false
}

// posterName is the poster an element names (ok true) by a data
// attribute or a user-name class.
func posterName(n *treediff.Node) (string, bool) {
	for _, a := range posterAttrs {
		if v := attr(n, a); v != "" {
			return v, true
		}
	}
	if userNameClass(attr(n, "class")) {
		if text := strings.Join(strings.Fields(n.Text()), " "); text != "" {
			return text, true
		}
	}
	return "", false
}

// separators are what joins the words of a class token.
var separators = strings.NewReplacer("-", "", "_", "")

// userNameClass reports whether a class token, hyphens and underscores
// aside, ends in "username".
func userNameClass(class string) bool {
	for _, tok := range strings.Fields(class) {
		tok = separators.Replace(strings.ToLower(tok))
		if strings.HasSuffix(tok, "username") {
			return true
		}
	}
	return false
}
