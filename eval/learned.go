package eval

import (
	"context"
	"sync"
	"time"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/siteextract"
)

// LearnOptions tune Learned.
type LearnOptions struct {
	// Cluster tunes template learning (seed, medoid rule, distance cache).
	Cluster cluster.Options
	// Extract tunes content location.
	Extract heuristics.ExtractOptions
	// Timing, when set, accumulates the time spent learning templates and
	// locating content, apart.
	Timing *Timing
}

// Timing splits the wall time of Learned between its two stages: learning
// a site's templates is done once per site, locating content once per
// page.
type Timing struct {
	mu             sync.Mutex
	Learn, Extract time.Duration
	// LearnCost sums what learning spent (pages, distances, CPU, peak RSS).
	LearnCost cluster.Cost
}

func (t *Timing) add(learn, extract time.Duration, cost cluster.Cost) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.Learn += learn
	t.Extract += extract
	t.LearnCost.Add(cost)
	t.mu.Unlock()
}

// Learned returns Gleaner's full method as a SiteExtractor: the site
// pipeline of package siteextract on pages held in memory (siteextract.Docs:
// learn the templates, place each page on its template, extract) — the
// pipeline `gleaner extract` and the crawler run on stored pages.
func Learned(opt LearnOptions) SiteExtractor {
	return func(ctx context.Context, site string, docs []Doc) []Outcome {
		sd := make([]siteextract.Doc, len(docs))
		for i, d := range docs {
			sd[i] = siteextract.Doc{Name: d.ID, Src: d.Src}
		}
		res := siteextract.Docs(ctx, site, sd, siteextract.DocsOptions{Cluster: opt.Cluster, Extract: opt.Extract})
		opt.Timing.add(res.Learn, res.Extract, res.LearnCost)
		out := make([]Outcome, len(docs))
		for i := range docs {
			out[i] = Outcome{Result: res.Results[i], Err: res.Errs[i]}
		}
		return out
	}
}
