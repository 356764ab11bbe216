package treediff

import "strings"

// Title is the text of the document's first <title> element, spaces
// collapsed ("" when it has none): what a browser shows as the page's
// title, for the fetchers and the archives that name a page by it.
func Title(t *Tree) string {
	for _, n := range t.Nodes {
		if n.Kind == Element && n.Label == "title" {
			return strings.Join(strings.Fields(n.Text()), " ")
		}
	}
	return ""
}
