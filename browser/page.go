package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/gleaner/gleaner/treediff"
)

// Fetcher fetches one page. Implementations: [Renderer] (headless Chromium)
// and [HTTPFetcher] (plain HTTP).
type Fetcher interface {
	Fetch(ctx context.Context, url string) (*Page, error)
}

// Page is one fetched page and what was captured with it.
type Page struct {
	URL         string     `json:"url"`                 // as requested
	FinalURL    string     `json:"final_url"`           // after redirects and client-side navigation
	Status      int        `json:"status"`              // HTTP status of the main document
	ContentType string     `json:"content_type"`        // of the main document
	Redirects   []Redirect `json:"redirects,omitempty"` // the hops before FinalURL, in order
	Title       string     `json:"title"`
	// HTML is the document: for a rendered page the live DOM after scripts
	// ran, serialized from a DOM snapshot (see the package doc); for a plain
	// fetch the decoded response body.
	HTML string `json:"-"`
	// Frames are the documents of same-origin iframes, in document order.
	Frames []Frame `json:"frames,omitempty"`
	Links  []Link  `json:"links,omitempty"`
	// Layout is nil for a plain fetch.
	Layout     *Layout `json:"layout,omitempty"`
	Screenshot []byte  `json:"-"` // JPEG of the whole page, when asked for
	// Rendered is true when a browser ran the page's scripts.
	Rendered bool `json:"rendered"`
	// Partial is true when the page did not settle (or was cut) before its
	// deadline or a size limit: what it held at that moment was captured.
	Partial       bool   `json:"partial,omitempty"`
	PartialReason string `json:"partial_reason,omitempty"`
	// Notes lists what the renderer did to the page, e.g. "consent: clicked
	// 'Accept all'", "scroll: 6 steps", "load-more: 3 clicks".
	Notes     []string      `json:"notes,omitempty"`
	FetchedAt time.Time     `json:"fetched_at"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	Attempts  int           `json:"attempts"`           // 1 unless a crash forced a retry
	Requests  int           `json:"requests,omitempty"` // network requests the page made
	Blocked   int           `json:"blocked,omitempty"`  // of which were blocked by resource type
	// Exchanges are the HTTP exchanges of the page as served, when asked
	// for (Options.Record, HTTPFetcher.Record), in the order they were
	// sent.
	Exchanges []Exchange `json:"-"`
}

// Redirect is one HTTP redirect hop.
type Redirect struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// Frame is the document of an iframe of the page.
type Frame struct {
	URL  string `json:"url"`
	Path string `json:"path"` // of the <iframe> element in the page (see Layout)
	HTML string `json:"html"`
}

// Link is one outgoing link of a page.
type Link struct {
	URL  string `json:"url"`  // absolute, without fragment
	Text string `json:"text"` // anchor text, or alt/title/aria-label when empty
	// Source tells where the link came from: "a", "area", or "pushState"
	// for a URL the page's scripts navigated to with the history API.
	Source string `json:"source"`
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

// Capture is the JSON metadata stored with a page (everything but the HTML
// and the screenshot).
func (p *Page) Capture() ([]byte, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encode capture of %s: %w", p.URL, err)
	}
	return b, nil
}

// ParseCapture reads metadata written by Page.Capture (HTML and screenshot
// are not in it).
func ParseCapture(data []byte) (*Page, error) {
	var p Page
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("parse page capture: %w", err)
	}
	return &p, nil
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
