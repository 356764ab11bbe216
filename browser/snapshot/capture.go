package snapshot

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/domsnapshot"
	"github.com/chromedp/chromedp"
)

// Doc is a page serialized from a DOM snapshot.
type Doc struct {
	URL, Title string
	HTML       string
	Layout     *Layout
	Frames     []Frame
	// Truncated: the HTML was cut at the bound given to Capture.
	Truncated bool
}

// Capture captures the tab of ctx's DOM and layout with
// DOMSnapshot.captureSnapshot and serializes it, its HTML bounded by
// maxBytes.
func Capture(ctx context.Context, maxBytes int) (*Doc, error) {
	res, err := chromedp.Call(ctx, domsnapshot.CaptureSnapshot, domsnapshot.CaptureSnapshotParams{
		ComputedStyles: []string{"visibility", "opacity"},
	})
	if err != nil {
		return nil, fmt.Errorf("DOM snapshot: %w", err)
	}
	if len(res.Documents) == 0 {
		return nil, fmt.Errorf("DOM snapshot: no document")
	}
	s := &serializer{res: &res, max: maxBytes}
	doc := s.document(0, true)
	return doc, nil
}

// serializer turns the documents of a snapshot into HTML. Each document is a
// table of nodes in preorder with parent indexes, already in the composed
// ("flat") tree order: the nodes of an open or closed shadow tree are
// children of their host and a <slot> holds the nodes assigned to it. The
// serializer drops the <slot> elements themselves and user-agent shadow
// trees (the insides of <input>, <video>...).
type serializer struct {
	res   *domsnapshot.CaptureSnapshotResult
	max   int
	depth int // of frame nesting
}

func (s *serializer) str(i domsnapshot.StringIndex) string {
	if i < 0 || int(i) >= len(s.res.Strings) {
		return ""
	}
	return s.res.Strings[i]
}

// docWriter holds the state of serializing one document.
type docWriter struct {
	s        *serializer
	nodes    *domsnapshot.NodeTreeSnapshot
	children [][]int
	uaShadow map[int]bool // nodes of user-agent shadow trees (skipped)
	frameDoc map[int]int  // iframe node -> document index
	layout   map[int]int  // node -> layout index
	lt       *domsnapshot.LayoutTreeSnapshot
	b        strings.Builder
	boxes    map[string]Box
	frames   []Frame
	cut      bool
	withBox  bool
}

func (s *serializer) document(di int, withLayout bool) *Doc {
	d := s.res.Documents[di]
	w := &docWriter{s: s, nodes: d.Nodes, uaShadow: map[int]bool{}, frameDoc: map[int]int{}, layout: map[int]int{}, lt: d.Layout, withBox: withLayout}
	w.index(d)
	if withLayout {
		w.boxes = map[string]Box{}
	}
	// The document node's element child is the root; its path is /html.
	rootCounts := map[string]int{}
	for _, c := range w.children[0] {
		w.node(c, "", rootCounts, 1)
	}
	out := &Doc{URL: s.str(d.DocumentURL), Title: s.str(d.Title), HTML: w.b.String(), Frames: w.frames, Truncated: w.cut}
	if withLayout {
		out.Layout = &Layout{Width: int(math.Round(d.ContentWidth)), Height: int(math.Round(d.ContentHeight)), Boxes: w.boxes}
	}
	return out
}

// childLists are the children of each node of n, in order.
func childLists(n *domsnapshot.NodeTreeSnapshot) [][]int {
	count := len(n.NodeType)
	children := make([][]int, count)
	for i := 1; i < count && i < len(n.ParentIndex); i++ {
		p := int(n.ParentIndex[i])
		if p >= 0 && p < count {
			children[p] = append(children[p], i)
		}
	}
	return children
}

// index reads the document's tables into w: each node's children, the
// user-agent shadow roots, the frames' documents and each node's first
// layout entry.
func (w *docWriter) index(d *domsnapshot.DocumentSnapshot) {
	n := d.Nodes
	w.children = childLists(n)
	if n.ShadowRootType != nil {
		for k, idx := range n.ShadowRootType.Index {
			if w.s.str(n.ShadowRootType.Value[k]) == "user-agent" {
				w.uaShadow[int(idx)] = true
			}
		}
	}
	if n.ContentDocumentIndex != nil {
		for k, idx := range n.ContentDocumentIndex.Index {
			w.frameDoc[int(idx)] = int(n.ContentDocumentIndex.Value[k])
		}
	}
	if d.Layout != nil {
		for li, ni := range d.Layout.NodeIndex {
			if _, ok := w.layout[int(ni)]; !ok {
				w.layout[int(ni)] = li
			}
		}
	}
}

func (w *docWriter) name(i int) string {
	return strings.ToLower(w.s.str(w.nodes.NodeName[i]))
}

func (w *docWriter) value(i int) string {
	if i < len(w.nodes.NodeValue) {
		return w.s.str(w.nodes.NodeValue[i])
	}
	return ""
}

func (w *docWriter) attrs(i int) []string {
	if i >= len(w.nodes.Attributes) {
		return nil
	}
	a := w.nodes.Attributes[i]
	out := make([]string, 0, len(a))
	for _, k := range a {
		out = append(out, w.s.str(domsnapshot.StringIndex(k)))
	}
	return out
}

func (w *docWriter) attr(i int, name string) (string, bool) {
	a := w.attrs(i)
	for k := 0; k+1 < len(a); k += 2 {
		if strings.EqualFold(a[k], name) {
			return a[k+1], true
		}
	}
	return "", false
}

var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
	"param": true, "keygen": true, "frame": true, "basefont": true, "bgsound": true,
}

var rawText = map[string]bool{
	"script": true, "style": true, "xmp": true, "iframe": true, "noembed": true,
	"noframes": true, "plaintext": true, "noscript": true,
}

// node writes node i (and its composed subtree) under the element with path
// parentPath, whose child tag counts are counts. opacity is the product of
// the ancestors' opacities.
func (w *docWriter) node(i int, parentPath string, counts map[string]int, opacity float64) {
	if w.cut {
		return
	}
	if w.s.max > 0 && w.b.Len() > w.s.max {
		w.cut = true
		return
	}
	switch w.nodes.NodeType[i] {
	case 10: // doctype
		w.b.WriteString("<!DOCTYPE html>")
	case 3: // text
		w.text(i)
	case 1: // element
		w.element(i, parentPath, counts, opacity)
	} // comments, fragments reached directly, processing instructions: nothing
}

// text writes text node i: raw inside script, style and the like.
func (w *docWriter) text(i int) {
	if p := int(w.nodes.ParentIndex[i]); p >= 0 && rawText[w.name(p)] {
		w.b.WriteString(w.value(i))
	} else {
		escapeText(&w.b, w.value(i))
	}
}

// element writes element i (see node): its box, its tag and attributes,
// its frame's document, its children.
func (w *docWriter) element(i int, parentPath string, counts map[string]int, opacity float64) {
	tag := w.name(i)
	if strings.HasPrefix(tag, "::") || tag == "" || w.uaShadow[i] {
		return // pseudo element, user-agent shadow tree
	}
	if tag == "slot" {
		for _, c := range w.children[i] {
			w.node(c, parentPath, counts, opacity)
		}
		return
	}
	counts[tag]++
	path := "/" + tag
	if parentPath != "" {
		path = parentPath + "/" + tag + "[" + strconv.Itoa(counts[tag]) + "]"
	}
	op := w.box(i, path, opacity)
	w.startTag(i, tag)
	if voidElements[tag] {
		return
	}
	w.frame(i, path)
	kids := map[string]int{}
	if tag != "template" {
		for _, c := range w.children[i] {
			if w.nodes.NodeType[c] != 11 { // template content
				w.node(c, path, kids, op)
			}
		}
	}
	w.b.WriteString("</")
	w.b.WriteString(tag)
	w.b.WriteByte('>')
}

// box keeps the box of element i at path (when laying out; not for
// <head>), and returns the opacity its children inherit.
func (w *docWriter) box(i int, path string, opacity float64) float64 {
	if w.boxes == nil {
		return opacity
	}
	op := opacity
	box := Box{}
	if li, ok := w.layout[i]; ok && w.lt != nil {
		box = w.bounds(li)
		var vis bool
		vis, op = w.style(li, op)
		box.Visible = vis && op > 0.01 && box.W > 1 && box.H > 1 && box.X+box.W > 0 && box.Y+box.H > 0
	}
	if !strings.HasPrefix(path, "/html/head") {
		w.boxes[path] = box
	}
	return op
}

// bounds is the box of layout entry li (zero without bounds).
func (w *docWriter) bounds(li int) Box {
	if li >= len(w.lt.Bounds) || len(w.lt.Bounds[li]) != 4 {
		return Box{}
	}
	r := w.lt.Bounds[li]
	return Box{X: int(math.Round(r[0])), Y: int(math.Round(r[1])), W: int(math.Round(r[2])), H: int(math.Round(r[3]))}
}

// style reads layout entry li's visibility and opacity (the computed
// styles asked for, in order): whether it is visible, and opacity times
// its own.
func (w *docWriter) style(li int, opacity float64) (bool, float64) {
	if li >= len(w.lt.Styles) {
		return true, opacity
	}
	st := w.lt.Styles[li]
	vis := len(st) == 0 || w.s.str(domsnapshot.StringIndex(st[0])) == "visible"
	if len(st) > 1 {
		if o, err := strconv.ParseFloat(w.s.str(domsnapshot.StringIndex(st[1])), 64); err == nil {
			opacity *= o
		}
	}
	return vis, opacity
}

// startTag writes element i's start tag with its attributes.
func (w *docWriter) startTag(i int, tag string) {
	w.b.WriteByte('<')
	w.b.WriteString(tag)
	a := w.attrs(i)
	for k := 0; k+1 < len(a); k += 2 {
		w.b.WriteByte(' ')
		w.b.WriteString(a[k])
		w.b.WriteString(`="`)
		escapeAttr(&w.b, a[k+1])
		w.b.WriteByte('"')
	}
	w.b.WriteByte('>')
}

// frame writes, as a frame of the page, the document of iframe i at path
// (three levels deep at most).
func (w *docWriter) frame(i int, path string) {
	di, ok := w.frameDoc[i]
	if !ok || w.s.depth >= 3 || di <= 0 || di >= len(w.s.res.Documents) {
		return
	}
	w.s.depth++
	fd := w.s.document(di, false)
	w.s.depth--
	w.frames = append(w.frames, Frame{URL: fd.URL, Path: path, HTML: fd.HTML})
	w.frames = append(w.frames, fd.Frames...)
}

func escapeText(b *strings.Builder, s string) {
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\u00a0':
			b.WriteString("&nbsp;")
		default:
			b.WriteRune(r)
		}
	}
}

func escapeAttr(b *strings.Builder, s string) {
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\u00a0':
			b.WriteString("&nbsp;")
		default:
			b.WriteRune(r)
		}
	}
}
