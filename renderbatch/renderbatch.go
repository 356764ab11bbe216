// Package renderbatch renders a list of URLs and stores the pages: a few
// fetched at once, each stored with its capture as it arrives, a page that
// failed stored with its error (gleaner render).
package renderbatch

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/store"
)

// Options configure Run.
type Options struct {
	Workers  int                 // pages fetched at once (at least 1)
	Page     browser.PageOptions // how each page is fetched
	Dataset  string              // store dataset of the pages ("" for crawled pages)
	SiteMode store.SiteMode      // how a page's site is found
}

// Result is one URL's outcome, reported as it arrives.
type Result struct {
	Index int // in the URL list
	URL   string
	Page  *browser.Page // nil when the fetch failed
	// Err is the error of fetching the page, or of making its store page.
	Err error
	// Stored says whether the page (or its error) was stored, StoreErr
	// why not.
	Stored   bool
	StoreErr error
}

// Counts sum a batch's outcomes.
type Counts struct {
	Failed, Partial, Stored int
}

// Run fetches urls with f, Workers at once, stores each page in st and
// calls report with each result, in the order they arrive. It returns the
// counts and the first storage error (a failed fetch is a result, not an
// error); it stops queueing URLs when ctx is done.
func Run(ctx context.Context, f browser.PageFetcher, st store.Store, urls []string, opt Options, report func(Result)) (Counts, error) {
	var c Counts
	var storeErr error
	for res := range fetchAll(ctx, f, urls, opt) {
		res = put(ctx, st, res, opt)
		c.add(res)
		if res.StoreErr != nil && storeErr == nil {
			storeErr = fmt.Errorf("store %s: %w", res.URL, res.StoreErr)
		}
		report(res)
	}
	return c, storeErr
}

// add counts res.
func (c *Counts) add(res Result) {
	switch {
	case res.Err != nil:
		c.Failed++
	case res.Page.Partial:
		c.Partial++
	}
	if res.Stored {
		c.Stored++
	}
}

// fetchAll fetches urls, opt.Workers at once, and sends the results on the
// channel returned, closed at the end.
func fetchAll(ctx context.Context, f browser.PageFetcher, urls []string, opt Options) <-chan Result {
	jobs := make(chan int)
	results := make(chan Result)
	var wg sync.WaitGroup
	for range max(opt.Workers, 1) {
		wg.Go(func() {
			for i := range jobs {
				p, err := f.FetchPage(ctx, urls[i], opt.Page)
				results <- Result{Index: i, URL: urls[i], Page: p, Err: err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := range urls {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return results
}

// put stores the page of res (or its fetch error); a page that cannot be
// made into a store page is a failure, not stored.
func put(ctx context.Context, st store.Store, res Result, opt Options) Result {
	sp, err := capture.ToStore(res.URL, opt.Dataset, opt.SiteMode, res.Page, res.Err)
	if err != nil {
		res.Err, res.Page = err, nil
		return res
	}
	res.StoreErr = st.PutPages(ctx, []*store.Page{sp})
	res.Stored = res.StoreErr == nil
	return res
}

// ReadURLs reads a URL list: one URL per line, blank lines and # comments
// skipped.
func ReadURLs(r io.Reader) ([]string, error) {
	var urls []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			urls = append(urls, line)
		}
	}
	return urls, sc.Err()
}
