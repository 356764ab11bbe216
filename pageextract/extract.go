package pageextract

import (
	"context"
	"errors"
	"fmt"

	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Result is one page's extraction as "gleaner extract --json" prints it.
type Result struct {
	Page       string  `json:"page"`
	Method     string  `json:"method"`
	Selector   string  `json:"selector,omitempty"`
	Confidence float64 `json:"confidence"`
	// PageType is the page's kind (pagetype.Types).
	PageType string `json:"page_type,omitempty"`
	Title    string `json:"title"`
	Body     string `json:"body"`
	Date     string `json:"date,omitempty"`
	Author   string `json:"author,omitempty"`
	// Templates says, for one page, which templates were consulted and why
	// the method was chosen.
	Templates string `json:"templates,omitempty"`
	Error     string `json:"error,omitempty"`
	// Meta is, for one page, everything it states about itself
	// (modification date, authors, language, site name, canonical URL,
	// section) and where each came from.
	Meta *pagemeta.Meta `json:"meta,omitempty"`
}

// FromHeuristics is the result of page name: the extraction r, or the
// error err.
func FromHeuristics(name string, r singlepage.Result, err error) Result {
	if err != nil {
		return Result{Page: name, Error: err.Error()}
	}
	return Result{Page: name, Method: r.Method, Selector: r.Selector, Confidence: r.Confidence,
		PageType: r.PageType, Title: r.Title, Body: r.Body, Date: r.Date, Author: r.Author}
}

// Options choose how a page is extracted.
type Options struct {
	Charset string // decode the page with this charset whatever it declares
	// Medoid is the file of the template medoid to compare the page with
	// ("" for none).
	Medoid string
	// DB is the store whose learned templates of Site (default: the site
	// of the page's URL) the page is placed on ("" for none).
	DB, Site string
	Extract  heuristics.ExtractOptions
}

// Extract extracts p: against Medoid, against the templates stored in
// DB, else by the single-page method; with its metadata.
func Extract(ctx context.Context, p *Page, opt Options) (Result, error) {
	po := treediff.ParseOptions{ContentType: p.ContentType, Charset: opt.Charset}
	tree, err := treediff.Parse(p.Name, p.Src, po)
	if err != nil {
		return Result{}, err
	}
	// The other extractors and the metadata read the page's bytes
	// themselves: they must read them as the tree was read.
	src, err := treediff.SourceAsRead(p.Src, po)
	if err != nil {
		return Result{}, fmt.Errorf("page %s: %w", p.Name, err)
	}
	in := heuristics.Input{Page: tree, Src: src, Visible: p.Visible}
	res, err := extract(ctx, p, in, opt)
	if err != nil {
		return Result{}, err
	}
	meta := pagemeta.Extract(tree, src, pagemeta.Options{URL: p.URL, Text: res.Body})
	res.Meta = &meta
	// The headline is chosen as every command chooses it, from what the
	// page states, the extraction's title and its page type.
	res.Title = meta.HeadlineOf(res.Title, res.PageType)
	return res, nil
}

// extract runs the method opt allows.
func extract(ctx context.Context, p *Page, in heuristics.Input, opt Options) (Result, error) {
	if opt.Medoid != "" {
		med, err := ParseFile(opt.Medoid)
		if err != nil {
			return Result{}, err
		}
		in.Medoid = med
	}
	site, err := siteOf(p, opt.Site)
	if err != nil {
		return Result{}, err
	}
	if opt.DB == "" || site == "" {
		r, err := heuristics.Extract(in, opt.Extract)
		res := FromHeuristics(p.Name, r, nil)
		if opt.DB != "" {
			res.Templates = "no site named (--url or --site): single-page method"
		}
		return res, err
	}
	return extractOnTemplates(ctx, p, in, opt, site)
}

// ErrPageURL is wrapped by the error of a page URL that names no site.
var ErrPageURL = errors.New("page URL")

// siteOf is the site whose templates to use: given, else the site of the
// page's URL ("" when it has none).
func siteOf(p *Page, site string) (string, error) {
	if site != "" || p.URL == "" {
		return site, nil
	}
	s, err := store.SiteOf(p.URL, store.SiteFromDomain)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrPageURL, p.URL, err)
	}
	return s, nil
}

// extractOnTemplates places the page on the templates of site learned in
// opt.DB and extracts it (siteextract.One).
func extractOnTemplates(ctx context.Context, p *Page, in heuristics.Input, opt Options, site string) (Result, error) {
	st, err := store.Open(ctx, opt.DB)
	if err != nil {
		return Result{}, err
	}
	defer st.Close()
	one, err := siteextract.One(ctx, st, site, in, siteextract.Options{Extract: opt.Extract, Visible: capture.Visible})
	if err != nil {
		return Result{}, err
	}
	res := FromHeuristics(p.Name, one.Result, nil)
	res.Templates = one.Note
	return res, nil
}

// ParseFile reads and parses the page in file path.
func ParseFile(path string) (*treediff.Tree, error) {
	src, err := dataset.ReadPage(path, treediff.DefaultMaxBytes)
	if err != nil {
		return nil, err
	}
	return treediff.Parse(path, src, treediff.ParseOptions{})
}
