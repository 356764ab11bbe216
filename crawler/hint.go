package crawler

import (
	"context"
	"slices"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/store"
)

// maxRegionHints is how many body selectors of a site's templates are
// passed to the renderer: a handful, each costs a query on every look at
// the page.
const maxRegionHints = 4

// minHintSupport is the least share of a cluster's pages a body rule must
// have been chosen by to be a hint: a rule few pages agree on may point
// at a region that is there before the body is.
const minHintSupport = 0.5

// bodySelectors returns the body selectors of a site's learned rules (all
// clusters), highest support first, without repeats, at most
// maxRegionHints of them.
func bodySelectors(rules map[int]heuristics.Rules) []string {
	var body []heuristics.Rule
	for _, r := range rules {
		if r.Body.Selector != "" && r.Body.Support >= minHintSupport {
			body = append(body, r.Body)
		}
	}
	slices.SortFunc(body, func(a, b heuristics.Rule) int {
		switch {
		case a.Support != b.Support:
			if a.Support > b.Support {
				return -1
			}
			return 1
		case a.Selector < b.Selector:
			return -1
		case a.Selector > b.Selector:
			return 1
		}
		return 0
	})
	var out []string
	for _, r := range body {
		if len(out) < maxRegionHints && !slices.Contains(out, r.Selector) {
			out = append(out, r.Selector)
		}
	}
	return out
}

// noteRules keeps the body selectors of a site's latest finished run that
// has body rules. A run without stored rules (they are voted at the end
// of a crawl) leaves the site's selectors as they were: they come from
// the same site's templates, and a selector that no longer matches only
// costs the page the normal wait.
func (l *learner) noteRules(site string, rules map[int]heuristics.Rules) {
	sels := bodySelectors(rules)
	if len(sels) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.hints == nil {
		l.hints = map[string][]string{}
	}
	l.hints[site] = sels
}

// regionHint returns the page options telling the renderer where the
// content of rawURL's site is, by its learned templates (zero when the
// site has none yet).
func (l *learner) regionHint(rawURL string) browser.PageOptions {
	site, err := store.SiteOf(rawURL, store.SiteFromDomain)
	if err != nil {
		return browser.PageOptions{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return browser.PageOptions{ContentSelectors: l.hints[site]}
}

// fetchPage fetches a leased URL, with its site's content region as a
// hint when the fetcher takes one (a browser).
func (c *Crawler) fetchPage(ctx context.Context, rawURL string) (*browser.Page, error) {
	if pf, ok := c.fetch.(browser.PageFetcher); ok {
		if po := c.learner.regionHint(rawURL); len(po.ContentSelectors) > 0 {
			return pf.FetchPage(ctx, rawURL, po)
		}
	}
	return c.fetch.Fetch(ctx, rawURL)
}
