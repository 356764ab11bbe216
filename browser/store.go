package browser

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// StoredVisible reads the layout stored with p and returns which elements
// of the tree treediff.Parse builds from p's HTML the browser showed (see
// Layout.Hidden), as heuristics.Input.Visible wants it. It returns nil for
// a page without layout (a plain fetch), so every element is read.
func StoredVisible(p *store.Page) (func(*treediff.Node) bool, error) {
	if p == nil || p.Capture == nil || len(p.Capture.Layout) == 0 {
		return nil, nil
	}
	l, err := ParseLayout(p.Capture.Layout)
	if err != nil {
		return nil, fmt.Errorf("page %s: %w", p.Name(), err)
	}
	if l == nil || len(l.Boxes) == 0 {
		return nil, nil
	}
	return func(n *treediff.Node) bool { return !l.Hidden(n) }, nil
}

// StorePage turns a fetched page, or the error of fetching rawURL, into a
// store page with its capture metadata (the layout as JSON, which
// ParseLayout reads back). A failed fetch gives a page with Error set, so
// nothing is silently lost, with the kind of its failure (Classify) in its
// capture. mode says how the URL's site is found.
func StorePage(rawURL, dataset string, mode store.SiteMode, p *Page, fetchErr error) (*store.Page, error) {
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
		sp.Capture = &store.Capture{Failure: string(Classify(fetchErr))}
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
	return sp, nil
}
