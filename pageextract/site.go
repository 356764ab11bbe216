package pageextract

import (
	"context"

	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/store"
)

// Rule is a learned rule of a site's template as "gleaner extract --json"
// prints it: voted now (Voters pages of the cluster, Votes for it) or
// stored (Voters 0).
type Rule struct {
	Cluster  int     `json:"cluster"`
	Field    string  `json:"field"`
	Selector string  `json:"selector"`
	Support  float64 `json:"support"`
	Votes    int     `json:"votes"`
	Voters   int     `json:"voters"`
}

// SiteResult is a stored site's extraction as "gleaner extract --json"
// prints it: the learning run used (0 for none), its rules, each page.
type SiteResult struct {
	Site  string   `json:"site"`
	Run   int64    `json:"run"`
	Rules []Rule   `json:"rules"`
	Pages []Result `json:"pages"`
}

// Site extracts the pages of one stored site with the site pipeline
// (siteextract.Site: the latest finished run's templates, the extractions
// and voted rules stored). A page's failure is in its result, and logged
// with logf as the pipeline's notes are.
func Site(ctx context.Context, st store.Store, site string, opt heuristics.ExtractOptions, logf func(format string, args ...any)) (SiteResult, error) {
	out := SiteResult{Site: site, Rules: []Rule{}, Pages: []Result{}}
	res, err := siteextract.Site(ctx, st, site, siteextract.Options{Extract: opt, Visible: capture.Visible, Logf: logf})
	if err != nil {
		return out, err
	}
	if res.Run == nil {
		logf("site %s has no learning run (gleaner learn): single-page extraction only", site)
	} else {
		out.Run = res.Run.ID
	}
	for _, p := range res.Pages {
		if p.Err != nil {
			logf("page %s: %v", p.Name, p.Err)
		}
		out.Pages = append(out.Pages, FromHeuristics(p.Name, p.Result, p.Err))
	}
	ruleClusters, voted := siteextract.VotedRules(res.Rules)
	for i, r := range voted {
		out.Rules = append(out.Rules, Rule{Cluster: ruleClusters[i], Field: r.Field, Selector: r.Selector, Support: r.Support, Votes: r.Votes, Voters: r.Pages})
	}
	return out, nil
}
