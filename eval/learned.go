package eval

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
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
}

func (t *Timing) add(learn, extract time.Duration) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.Learn += learn
	t.Extract += extract
	t.mu.Unlock()
}

// Learned returns Gleaner's full method as a SiteExtractor: parse the
// site's pages, learn its templates (cluster.Learn: tree edit distances,
// MDS, k-means, medoids, outliers), then locate each page's content against
// its template medoid with the cluster vote and the single-page fallback
// (heuristics.ExtractSite).
func Learned(opt LearnOptions) SiteExtractor {
	return func(ctx context.Context, site string, docs []Doc) []Outcome {
		out := make([]Outcome, len(docs))
		pages := make([]cluster.Page, len(docs))
		trees := make([]*treediff.Tree, len(docs))
		for i, d := range docs {
			t, err := treediff.Parse(d.ID, d.Src, treediff.ParseOptions{})
			if err != nil {
				out[i].Err = err
				pages[i] = cluster.Page{Name: d.ID, Err: err}
				continue
			}
			trees[i] = t
			// The content hash lets a distance cache (LearnOptions.Cluster.Cache)
			// serve the distances of pages seen before; the page is parsed once,
			// here, for both the templates and the extraction.
			pages[i] = cluster.Page{Name: d.ID, Hash: store.ContentHash(d.Src), Tree: t.View(treediff.TagView)}
		}
		sp := make([]heuristics.SitePage, 0, len(docs))
		idx := make([]int, 0, len(docs)) // sp index -> docs index
		for i := range docs {
			if trees[i] != nil {
				sp = append(sp, heuristics.SitePage{Page: trees[i], Src: docs[i].Src, Cluster: -1, Medoid: -1})
				idx = append(idx, i)
			}
		}
		if len(sp) == 0 {
			return out
		}
		start := time.Now()
		res, err := cluster.Learn(ctx, pages, opt.Cluster)
		if err == nil {
			assignMedoids(res, sp, idx)
		}
		learned := time.Now()
		defer func() { opt.Timing.add(learned.Sub(start), time.Since(learned)) }()
		// Without templates (learning failed) every page is extracted
		// alone: ExtractSite falls back to the single-page method.
		ext, err := heuristics.ExtractSite(ctx, sp, opt.Extract)
		if err != nil {
			for _, i := range idx {
				out[i].Err = fmt.Errorf("site %s: %w", site, err)
			}
			return out
		}
		for j, i := range idx {
			out[i] = Outcome{Result: ext.Results[j], Err: ext.Errs[j]}
		}
		return out
	}
}

// assignMedoids sets each site page's cluster and medoid from a learning
// result; a medoid is paired with the nearest other member of its cluster
// in the embedding.
func assignMedoids(res *cluster.Result, sp []heuristics.SitePage, idx []int) {
	pos := make(map[int]int, len(idx)) // docs index -> sp index
	for j, i := range idx {
		pos[i] = j
	}
	for _, c := range res.Clusters {
		mj, ok := pos[c.Medoid]
		if !ok || len(c.Members) < 2 {
			continue
		}
		nearest, best := -1, math.Inf(1)
		for _, m := range c.Members {
			j, ok := pos[m]
			if !ok || m == c.Medoid || res.Members[m].Outlier {
				continue
			}
			d := dist(res.Members[m].Point, res.Members[c.Medoid].Point)
			if d < best {
				nearest, best = j, d
			}
			sp[j].Cluster, sp[j].Medoid = c.ID, mj
		}
		if nearest >= 0 {
			sp[mj].Cluster, sp[mj].Medoid = c.ID, nearest
		}
	}
}

func dist(a, b cluster.Point) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }
