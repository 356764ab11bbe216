package dashboard

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/gleaner/gleaner/treediff"
)

// dropElements are removed with their content from a page's static copy:
// everything that runs, embeds, loads or redirects.
var dropElements = map[atom.Atom]bool{
	atom.Script: true, atom.Noscript: true, atom.Iframe: true, atom.Frame: true, atom.Frameset: true, atom.Object: true,
	atom.Embed: true, atom.Applet: true, atom.Base: true, atom.Link: true, atom.Meta: true, atom.Template: true,
	atom.Audio: true, atom.Video: true, atom.Source: true, atom.Track: true,
}

// keepAttr reports whether an attribute survives in the static copy: no
// event handler, no URL (nothing is fetched or followed).
func keepAttr(a html.Attribute) bool {
	k := strings.ToLower(a.Key)
	if a.Namespace != "" || strings.HasPrefix(k, "on") {
		return false
	}
	switch k {
	case "href", "src", "srcset", "srcdoc", "action", "formaction", "xlink:href", "poster", "background", "ping", "data", "codebase", "http-equiv":
		return false
	}
	return true
}

// highlightStyle marks the extracted element in the static copy.
const highlightStyle = `html{zoom:.8}[data-gleaner-extracted]{outline:4px solid #e4572e !important;outline-offset:2px;background:rgba(255,214,0,.28) !important}`

// staticCopy returns a page's HTML made inert (see dropElements and
// keepAttr) with the element selector designates marked
// data-gleaner-extracted and preceded by the anchor #gleaner-extracted.
// found is false when the selector matches nothing; a selector that does
// not parse is an error.
func staticCopy(src []byte, contentType, selector string) (out []byte, found bool, err error) {
	text, _, err := treediff.Decode(src, contentType)
	if err != nil {
		return nil, false, fmt.Errorf("decode page: %w", err)
	}
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return sourceCopy(text, err), false, nil
	}
	if selector != "" {
		sel, err := cascadia.Compile(selector)
		if err != nil {
			return nil, false, fmt.Errorf("selector %q: %w", selector, err)
		}
		if n := cascadia.Query(doc, sel); n != nil {
			mark(n)
			found = true
		}
	}
	clean(doc)
	addStyle(doc)
	var b bytes.Buffer
	if err := html.Render(&b, doc); err != nil {
		return nil, false, fmt.Errorf("render page: %w", err)
	}
	return b.Bytes(), found, nil
}

// sourceCopy shows the source of a page the parser refuses (such as one
// nested deeper than it allows) as text.
func sourceCopy(text string, err error) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8"/><style>` + highlightStyle + `</style></head><body><p>`)
	b.WriteString(html.EscapeString(fmt.Sprintf("This page cannot be shown as a document (%v); its source:", err)))
	b.WriteString(`</p><pre>`)
	b.WriteString(html.EscapeString(text))
	b.WriteString(`</pre></body></html>`)
	return []byte(b.String())
}

func mark(n *html.Node) {
	n.Attr = append(n.Attr, html.Attribute{Key: "data-gleaner-extracted", Val: "body"})
	if n.Parent != nil {
		a := &html.Node{Type: html.ElementNode, Data: "a", DataAtom: atom.A, Attr: []html.Attribute{{Key: "id", Val: "gleaner-extracted"}}}
		n.Parent.InsertBefore(a, n)
	}
}

// clean removes what could run or load from the tree under n.
func clean(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if dropped(c) {
			n.RemoveChild(c)
		} else {
			if c.Type == html.ElementNode {
				c.Attr = keptAttrs(c.Attr)
			}
			clean(c)
		}
		c = next
	}
}

// dropped reports whether n goes with everything under it: comments,
// and the elements that run or load something (a script of another
// namespace, SVG's, included).
func dropped(n *html.Node) bool {
	switch n.Type {
	case html.CommentNode:
		return true
	case html.ElementNode:
		return dropElements[n.DataAtom] || n.Namespace != "" && strings.EqualFold(n.Data, "script")
	}
	return false
}

// keptAttrs keeps, in place, the attributes that neither run nor load
// anything.
func keptAttrs(attrs []html.Attribute) []html.Attribute {
	kept := attrs[:0]
	for _, a := range attrs {
		if keepAttr(a) {
			kept = append(kept, a)
		}
	}
	return kept
}

// addStyle puts the charset and the highlight style in the head.
func addStyle(doc *html.Node) {
	head := findElement(doc, atom.Head)
	if head == nil {
		return
	}
	meta := &html.Node{Type: html.ElementNode, Data: "meta", DataAtom: atom.Meta, Attr: []html.Attribute{{Key: "charset", Val: "utf-8"}}}
	style := &html.Node{Type: html.ElementNode, Data: "style", DataAtom: atom.Style}
	style.AppendChild(&html.Node{Type: html.TextNode, Data: highlightStyle})
	head.InsertBefore(style, head.FirstChild)
	head.InsertBefore(meta, head.FirstChild)
}

func findElement(n *html.Node, a atom.Atom) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findElement(c, a); f != nil {
			return f
		}
	}
	return nil
}
