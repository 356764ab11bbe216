package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gleaner/gleaner/browser/outlinks"
	"github.com/gleaner/gleaner/browser/snapshot"
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

// Link is one outgoing link of a page (outlinks.Link).
type Link = outlinks.Link

// Layout is the rendered geometry of a page's elements (snapshot.Layout).
type Layout = snapshot.Layout

// Box is the bounding box of an element (snapshot.Box).
type Box = snapshot.Box

// Frame is the document of an iframe of the page (snapshot.Frame).
type Frame = snapshot.Frame

// ElementPaths returns the path of every element of the tree under root
// (see snapshot.ElementPaths).
func ElementPaths(root *treediff.Node) map[*treediff.Node]string { return snapshot.ElementPaths(root) }

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

// ParseLayout reads a layout stored as JSON (see snapshot.ParseLayout).
func ParseLayout(data []byte) (*Layout, error) { return snapshot.ParseLayout(data) }
