// Package pageextract extracts one page given on its own: a URL fetched
// behind the guard (rendered in Chromium, or plain), a file or bytes read.
// The method is the one its context allows: a comparison with a given
// template medoid, with its site's templates learned in a store, else the
// single-page method; the result says which, with what the page states
// about itself (pagemeta). It is "gleaner extract" on one page.
package pageextract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/netguard"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Page is a page read for extraction.
type Page struct {
	Name        string // as given: URL, file name, "-"
	URL         string // its URL ("" when unknown): names its site
	ContentType string
	Src         []byte
	// Visible says which nodes a rendered page showed (nil: unknown).
	Visible func(*treediff.Node) bool
}

// Read reads a page from r (standard input, named name) whose URL is url
// ("" when unknown).
func Read(name, url string, r io.Reader) (*Page, error) {
	src, err := dataset.ReadPageFrom(r, treediff.DefaultMaxBytes)
	if err != nil {
		return nil, err
	}
	return &Page{Name: name, URL: url, Src: src}, nil
}

// ReadFile reads the page in file path (gzip-compressed or not) whose URL
// is url ("" when unknown).
func ReadFile(path, url string) (*Page, error) {
	src, err := dataset.ReadPage(path, treediff.DefaultMaxBytes)
	if err != nil {
		return nil, err
	}
	return &Page{Name: path, URL: url, Src: src}, nil
}

// FetchOptions configure Fetch.
type FetchOptions struct {
	Plain    bool          // plain HTTP fetch instead of rendering in Chromium
	Chromium string        // Chromium binary ("" for the default)
	Timeout  time.Duration // cap on fetching or rendering
	// Allow are the private or loopback hosts (host[:port]) the guard
	// lets through, as a crawl's.
	Allow []string
	// KeepErrors extracts an HTTP error page instead of failing.
	KeepErrors bool
	Logf       func(format string, args ...any)
}

// ErrHTTPStatus is wrapped by the error of Fetch when the server answered
// with an error status (400 or more) and KeepErrors was not set.
var ErrHTTPStatus = errors.New("HTTP error status")

// Fetch renders the page at url in Chromium, or fetches it plain, guarded
// as a crawl is (public addresses, and the hosts of Allow).
func Fetch(ctx context.Context, url string, opt FetchOptions) (*Page, error) {
	f, err := browser.NewFetcher(netguard.Policy{Allowed: opt.Allow}, !opt.Plain, browser.Options{ExecPath: opt.Chromium, Tabs: 1,
		PageTimeout: opt.Timeout, Logf: opt.Logf})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := f.Fetch(ctx, url)
	if err != nil {
		return nil, err
	}
	if p.Status >= 400 {
		if !opt.KeepErrors {
			return nil, fmt.Errorf("%s: status %d: %w (--keep-errors extracts the error page)", url, p.Status, ErrHTTPStatus)
		}
		opt.Logf("gleaner extract: %s: HTTP status %d, kept (--keep-errors)", url, p.Status)
	}
	sp, err := capture.ToStore(url, "", store.SiteFromDomain, p, nil)
	if err != nil {
		return nil, err
	}
	visible, err := capture.Visible(sp)
	if err != nil {
		opt.Logf("gleaner extract: %s: layout ignored: %v", url, err)
	}
	return &Page{Name: url, URL: url, ContentType: sp.ContentType, Src: sp.HTML(), Visible: visible}, nil
}
