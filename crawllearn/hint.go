package crawllearn

import (
	"context"
	"slices"
	"unicode/utf8"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/siteextract"
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

// noteRules keeps the body selectors of a site's run, with the least text
// their region must hold (see regionMinChars): the run's stored rules or,
// before any are stored (they are voted at the end of a crawl), the rules
// the crawl's own extractions vote (see extractedRules). A run without
// either leaves the site's hint as it was: it comes from the same site's
// templates, and a selector that no longer matches only costs the page the
// normal wait.
func (l *Learner) noteRules(ctx context.Context, site string, tpl *siteextract.Templates) error {
	xs, err := l.db.Extractions(ctx, store.ExtractionQuery{Site: site})
	if err != nil {
		return err
	}
	sels := bodySelectors(tpl.Rules)
	if len(sels) == 0 {
		sels = bodySelectors(extractedRules(xs, tpl))
	}
	if len(sels) == 0 {
		return nil
	}
	po := browser.PageOptions{ContentSelectors: sels, MinRegionChars: regionMinChars(xs, sels)}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.hints == nil {
		l.hints = map[string]browser.PageOptions{}
	}
	l.hints[site] = po
	return nil
}

// extractedRules votes, per cluster of a run, the body element that the
// site's stored extractions xs of its members chose (the latest of each
// page): the site pipeline's vote (heuristics.VoteOf, BodyRules) over what
// the crawl has extracted so far, so that a site crawled for the first
// time gets its content region before the crawl ends.
func extractedRules(xs []store.Extraction, tpl *siteextract.Templates) map[int]heuristics.Rules {
	latest := map[int64]store.Extraction{}
	for _, x := range xs {
		if y, ok := latest[x.PageID]; !ok || x.CreatedAt.After(y.CreatedAt) {
			latest[x.PageID] = x
		}
	}
	votes := map[int][]string{}
	for id, x := range latest {
		if m, ok := tpl.Member(id); ok && !m.Outlier {
			votes[m.Cluster] = append(votes[m.Cluster], heuristics.VoteOf(x.Selector, x.Confidence, heuristics.DefaultMinConfidence))
		}
	}
	return heuristics.BodyRules(votes)
}

// regionMinChars is the least text a region of sels must show to count
// as the body: half the median length of the site's bodies xs extracted
// with one of them. A learned region often holds the headline and byline
// the server sends before a script brings the body; half a typical body
// tells the two apart, and a page with a shorter body only gets the normal
// wait. 0 when no body was extracted with them.
func regionMinChars(xs []store.Extraction, sels []string) int {
	var lens []int
	for _, x := range xs {
		if x.Body != "" && slices.Contains(sels, x.Selector) {
			lens = append(lens, utf8.RuneCountInString(x.Body))
		}
	}
	if len(lens) == 0 {
		return 0
	}
	slices.Sort(lens)
	return lens[len(lens)/2] / 2
}

// RegionHint returns the page options telling the renderer where the
// content of rawURL's site is, by its learned templates (zero when the
// site has none yet).
func (l *Learner) RegionHint(rawURL string) browser.PageOptions {
	site, err := store.SiteOf(rawURL, store.SiteFromDomain)
	if err != nil {
		return browser.PageOptions{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hints[site]
}
