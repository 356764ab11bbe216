package snapshot

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gleaner/gleaner/treediff"
)

// Frame is the document of an iframe of the page.
type Frame struct {
	URL  string `json:"url"`
	Path string `json:"path"` // of the <iframe> element in the page (see Layout)
	HTML string `json:"html"`
}

// Layout is the rendered geometry of a page's elements.
type Layout struct {
	Width  int `json:"width"` // document content size, CSS pixels
	Height int `json:"height"`
	// Boxes maps an element's path (treediff.Node.Path on the tree parsed
	// from Page.HTML) to its box.
	Boxes map[string]Box `json:"boxes"`
}

// Box is the bounding box of an element in document coordinates (CSS
// pixels; Y grows downwards from the top of the page) and whether it is
// visible.
type Box struct {
	X, Y, W, H int
	Visible    bool
}

// MarshalJSON writes a box as [x,y,w,h,visible] to keep layouts small.
func (b Box) MarshalJSON() ([]byte, error) {
	v := 0
	if b.Visible {
		v = 1
	}
	return fmt.Appendf(nil, "[%d,%d,%d,%d,%d]", b.X, b.Y, b.W, b.H, v), nil
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (b *Box) UnmarshalJSON(data []byte) error {
	var a [5]int
	if err := json.Unmarshal(data, &a); err != nil {
		return fmt.Errorf("layout box: want [x,y,w,h,visible]: %w", err)
	}
	*b = Box{X: a[0], Y: a[1], W: a[2], H: a[3], Visible: a[4] != 0}
	return nil
}

// Box returns the box of n, a node of the tree treediff.Parse builds from
// the page's HTML. A text or token node takes the box of its element.
// ok is false when the layout has no box for the node (elements the browser
// did not lay out, such as those inside <head>, or markup the parser
// restructured).
func (l *Layout) Box(n *treediff.Node) (b Box, ok bool) {
	if l == nil || n == nil {
		return Box{}, false
	}
	if n.Origin != nil {
		n = n.Origin
	}
	for n != nil && n.Kind != treediff.Element {
		n = n.Parent
	}
	if n == nil {
		return Box{}, false
	}
	b, ok = l.Boxes[n.Path()]
	return b, ok
}

// Visible reports whether n (see Box) is laid out and visible. Nodes without
// a box count as invisible.
func (l *Layout) Visible(n *treediff.Node) bool {
	b, ok := l.Box(n)
	return ok && b.Visible
}

// Hidden reports whether the browser laid n out (see Box) and did not show
// it. Unlike !Visible, a node without a box (in <head>, or markup the
// parser restructured) is not hidden: nothing is known of it.
func (l *Layout) Hidden(n *treediff.Node) bool {
	b, ok := l.Box(n)
	return ok && !b.Visible
}

// ElementPaths returns the path of every element of the tree under root,
// as treediff.Node.Path gives it and Layout.Boxes is keyed by, computed in
// one walk: each path is its parent's plus one step, where Path rebuilds
// the whole chain for every node (a quarter of the process's time on a
// crawl when asked per element).
func ElementPaths(root *treediff.Node) map[*treediff.Node]string {
	if root == nil || root.Kind != treediff.Element {
		return nil
	}
	paths := map[*treediff.Node]string{root: "/" + root.Label}
	var walk func(n *treediff.Node, path string)
	walk = func(n *treediff.Node, path string) {
		counts := map[string]int{}
		for _, c := range n.Children {
			if c.Kind != treediff.Element {
				continue
			}
			counts[c.Label]++
			cp := path + "/" + c.Label + "[" + strconv.Itoa(counts[c.Label]) + "]"
			paths[c] = cp
			walk(c, cp)
		}
	}
	walk(root, paths[root])
	return paths
}

// HiddenSet returns the elements of the tree under root that Hidden
// reports, found in one walk (see ElementPaths).
func (l *Layout) HiddenSet(root *treediff.Node) map[*treediff.Node]bool {
	out := map[*treediff.Node]bool{}
	if l == nil {
		return out
	}
	for n, path := range ElementPaths(root) {
		if b, ok := l.Boxes[path]; ok && !b.Visible {
			out[n] = true
		}
	}
	return out
}

// ParseLayout reads a layout stored as JSON (e.g. store.Capture.Layout).
// An empty input gives nil and no error.
func ParseLayout(data []byte) (*Layout, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var l Layout
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("parse layout: %w", err)
	}
	return &l, nil
}
