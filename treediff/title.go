package treediff

import "strings"

// Title is the text of the document's first <title> element before its
// body, spaces collapsed ("" when it has none): what a browser shows as
// the page's title (a <title> inside the body names a drawing, not the
// page), for the fetchers, the archives and the pair diff's headline.
func Title(t *Tree) string {
	for _, n := range t.Nodes { // preorder: the head before the body
		if n.Kind == Element && n.Label == "body" {
			break
		}
		if n.Kind == Element && n.Label == "title" {
			return strings.Join(strings.Fields(n.Text()), " ")
		}
	}
	return ""
}
