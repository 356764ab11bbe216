package siteextract

import (
	"context"
	"fmt"
	"time"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Doc is one page of a site held in memory.
type Doc struct {
	Name string
	Src  []byte
	// ContentType is the page's Content-Type header, optional (charset).
	ContentType string
}

// DocsOptions tune Docs.
type DocsOptions struct {
	// Cluster tunes template learning (seed, medoid rule, distance cache).
	Cluster cluster.Options
	// Extract tunes content location.
	Extract heuristics.ExtractOptions
}

// DocsResult is what Docs found: one result and one error per doc, in
// order, and the time spent learning the templates and locating content.
type DocsResult struct {
	Results        []singlepage.Result
	Errs           []error
	Learn, Extract time.Duration
	// LearnCost is what learning the templates spent (cluster.Result.Cost).
	LearnCost cluster.Cost
}

// Docs extracts the pages of one site held in memory: it parses them,
// learns their templates (cluster.Learn), places each page on its template
// (Partners) and extracts them all (heuristics.ExtractSite). When learning
// fails every page gets the single-page method; a page that cannot be
// parsed keeps its error.
func Docs(ctx context.Context, site string, docs []Doc, opt DocsOptions) DocsResult {
	out := DocsResult{Results: make([]singlepage.Result, len(docs)), Errs: make([]error, len(docs))}
	pages, sp, idx := parseDocs(docs, out.Errs)
	if len(sp) == 0 {
		return out
	}
	start := time.Now()
	if res, err := cluster.Learn(ctx, pages, opt.Cluster); err == nil {
		out.LearnCost = res.Cost
		members, medoids := resultMembers(res)
		Place(sp, members, medoids)
	}
	learned := time.Now()
	ext, err := heuristics.ExtractSite(ctx, sp, opt.Extract)
	out.Learn, out.Extract = learned.Sub(start), time.Since(learned)
	for j, i := range idx {
		if err != nil {
			out.Errs[i] = fmt.Errorf("site %s: %w", site, err)
			continue
		}
		out.Results[i], out.Errs[i] = ext.Results[j], ext.Errs[j]
	}
	return out
}

// parseDocs parses docs, once for both stages: the pages to learn from
// (with their content hash, which lets a distance cache serve the
// distances of pages seen before) and to extract, and the index in docs of
// each. A page that cannot be parsed gets its error in errs.
func parseDocs(docs []Doc, errs []error) ([]cluster.Page, []heuristics.SitePage, []int) {
	pages := make([]cluster.Page, 0, len(docs))
	sp := make([]heuristics.SitePage, 0, len(docs))
	idx := make([]int, 0, len(docs))
	for i, d := range docs {
		t, err := treediff.Parse(d.Name, d.Src, treediff.ParseOptions{ContentType: d.ContentType})
		if err != nil {
			errs[i] = err
			continue
		}
		pages = append(pages, cluster.Page{Name: d.Name, Hash: store.ContentHash(d.Src), Tree: t.View(treediff.TagView)})
		sp = append(sp, heuristics.SitePage{Page: t, Src: d.Src, Cluster: -1, Medoid: -1})
		idx = append(idx, i)
	}
	return pages, sp, idx
}

// resultMembers returns the members and medoids of an in-memory learning
// result, by page index.
func resultMembers(res *cluster.Result) ([]Member, map[int]int) {
	members := make([]Member, len(res.Members))
	for i, m := range res.Members {
		members[i] = Member{Cluster: m.Cluster, Distance: m.Distance, Outlier: m.Outlier}
	}
	medoids := make(map[int]int, len(res.Clusters))
	for _, c := range res.Clusters {
		medoids[c.ID] = c.Medoid
	}
	return members, medoids
}
