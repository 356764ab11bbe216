// Package capture converts what the browser captured of a page to the
// store's rows and back: browser stays free of the store (and of cgo
// SQLite), so the conversions live here.
//
// ToStore turns a browser.Page (or the error of fetching it) into a
// store.Page with its capture metadata; browser.ParseLayout reads the stored
// layout (store.Capture.Layout) back. "gleaner render" and the crawler store
// pages with it, and the page's recorded HTTP exchanges (Exchanges) with
// them. Visible gives, for a stored page, the
// heuristics.Input.Visible predicate with which the crawler and "gleaner
// extract" leave hidden elements out.
package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Visible reads the layout stored with p and returns which elements of the
// tree treediff.Parse builds from p's HTML the browser showed (see
// browser.Layout.Hidden), as heuristics.Input.Visible wants it. It returns nil for
// a page without layout (a plain fetch), so every element is read. The
// predicate finds the hidden elements of a tree in one walk the first time
// it is asked about a node of that tree (browser.Layout.HiddenSet), not a
// path per node; it is safe for concurrent use.
func Visible(p *store.Page) (func(*treediff.Node) bool, error) {
	if p == nil || p.Capture == nil || len(p.Capture.Layout) == 0 {
		return nil, nil
	}
	l, err := browser.ParseLayout(p.Capture.Layout)
	if err != nil {
		return nil, fmt.Errorf("page %s: %w", p.Name(), err)
	}
	if l == nil || len(l.Boxes) == 0 {
		return nil, nil
	}
	h := &hiddenIndex{layout: l}
	return func(n *treediff.Node) bool { return !h.hidden(n) }, nil
}

// hiddenIndex is the hidden elements of the last tree asked about.
type hiddenIndex struct {
	layout *browser.Layout
	mu     sync.Mutex
	root   *treediff.Node
	set    map[*treediff.Node]bool
}

// hidden reports whether n (a node of a parsed tree or of a view of one;
// text takes its element's box) is laid out and not shown.
func (h *hiddenIndex) hidden(n *treediff.Node) bool {
	if n == nil {
		return false
	}
	if n.Origin != nil {
		n = n.Origin
	}
	for n != nil && n.Kind != treediff.Element {
		n = n.Parent
	}
	if n == nil {
		return false
	}
	root := n
	for root.Parent != nil {
		root = root.Parent
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if root != h.root {
		h.root, h.set = root, h.layout.HiddenSet(root)
	}
	return h.set[n]
}

// ToStore turns a fetched page, or the error of fetching rawURL, into a
// store page with its capture metadata (the layout as JSON, which
// browser.ParseLayout reads back). A failed fetch gives a page with Error
// set, so nothing is silently lost, with the kind of its failure
// (browser.Classify) in its capture. mode says how the URL's site is found.
func ToStore(rawURL, dataset string, mode store.SiteMode, p *browser.Page, fetchErr error) (*store.Page, error) {
	site, err := store.SiteOf(rawURL, mode)
	if err != nil {
		return nil, err
	}
	sp := &store.Page{Site: site, URL: rawURL, Dataset: dataset}
	if fetchErr != nil || p == nil {
		if fetchErr == nil {
			fetchErr = errors.New("no page")
		}
		sp.Error = fetchErr.Error()
		sp.FetchedAt = time.Now()
		sp.Capture = &store.Capture{Failure: string(browser.Classify(fetchErr))}
		return sp, nil
	}
	sp.FetchedAt, sp.Status, sp.ContentType = p.FetchedAt, p.Status, p.ContentType
	if p.Rendered {
		sp.RenderedHTML = []byte(p.HTML)
	} else {
		sp.RawHTML = []byte(p.HTML)
	}
	c := &store.Capture{
		FinalURL: p.FinalURL, Title: p.Title, Rendered: p.Rendered,
		Partial: p.Partial, PartialReason: p.PartialReason, Notes: p.Notes,
		Elapsed: p.Elapsed, Attempts: p.Attempts, Requests: p.Requests, Blocked: p.Blocked,
	}
	for _, r := range p.Redirects {
		c.Redirects = append(c.Redirects, store.Redirect{URL: r.URL, Status: r.Status})
	}
	for _, l := range p.Links {
		c.Links = append(c.Links, store.Link{URL: l.URL, Text: l.Text, Source: l.Source})
	}
	for _, fr := range p.Frames {
		c.Frames = append(c.Frames, store.Frame{URL: fr.URL, Path: fr.Path, HTML: fr.HTML})
	}
	if p.Layout != nil {
		b, err := json.Marshal(p.Layout)
		if err != nil {
			return nil, fmt.Errorf("encode layout of %s: %w", rawURL, err)
		}
		c.Layout = b
	}
	sp.Capture = c
	sp.Exchanges = Exchanges(p.Exchanges)
	return sp, nil
}

// Exchanges are a page's recorded HTTP exchanges as store rows; nil (the
// stored ones left alone) when none were recorded.
func Exchanges(xs []browser.Exchange) []store.Exchange {
	if len(xs) == 0 {
		return nil
	}
	out := make([]store.Exchange, len(xs))
	for i, x := range xs {
		out[i] = store.Exchange{Seq: i, URL: x.URL, Method: x.Method, IP: x.IP, At: x.At,
			Request: x.Request, RequestBody: x.RequestBody, Response: x.Response, Payload: x.Payload, Truncated: x.Truncated}
	}
	return out
}
