package crawler

import (
	"context"

	"github.com/gleaner/gleaner/browser"
)

// fetchPage fetches a leased URL, with its site's content region as a
// hint when the fetcher takes one (a browser).
func (c *Crawler) fetchPage(ctx context.Context, rawURL string) (*browser.Page, error) {
	if pf, ok := c.fetch.(browser.PageFetcher); ok {
		if po := c.learner.RegionHint(rawURL); len(po.ContentSelectors) > 0 {
			return pf.FetchPage(ctx, rawURL, po)
		}
	}
	return c.fetch.Fetch(ctx, rawURL)
}
