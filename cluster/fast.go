package cluster

import (
	"context"
	"fmt"
	"sync"

	"github.com/gleaner/gleaner/treediff"
)

// DistanceKind says which distance between pages Learn clusters on.
type DistanceKind uint8

const (
	// FastDistance, the default, is the pq-gram distance (treediff.Profile)
	// between the pages' tag trees: linear in the pages' size, where the
	// tree edit distance is quadratic or worse. On big9-dev its rank
	// correlation with the exact tree edit distance within a site is 0.85
	// to 0.99 (mean 0.93) and its mean over a site's pairs is on the same
	// scale (0.05 lower on average), so the thresholds (FarDistance,
	// MinSilhouette) keep their meaning. The exact tree edit distance between reduced trees
	// (treediff.Reduce, Options.Reduce) decides where the fast one cannot:
	// a page whose two nearest medoids are within Options.TieMargin of each
	// other.
	FastDistance DistanceKind = iota
	// ExactDistance is the seeds' method: the unit-cost tree edit distance
	// between full tag trees for every pair compared. It is kept to measure
	// the fast distance against; its distances are not cached.
	ExactDistance
)

func (k DistanceKind) String() string {
	switch k {
	case FastDistance:
		return "fast"
	case ExactDistance:
		return "exact"
	}
	return fmt.Sprintf("distance(%d)", uint8(k))
}

// measure names the distance in reports.
func (k DistanceKind) measure() string {
	if k == ExactDistance {
		return "TED"
	}
	return "pq-gram distance"
}

// NormalizeCached returns the distance a cached entry (CacheView) stands
// for: the pq-gram distance 1 − 2·|P1 ∩ P2| / (|P1| + |P2|) from the bag
// difference raw = |P1| + |P2| − 2·|P1 ∩ P2| and the profiles' sizes.
func NormalizeCached(raw float64, na, nb int) float64 {
	if na+nb <= 0 || raw <= 0 {
		return 0
	}
	return min(raw/float64(na+nb), 1)
}

// metric measures the raw distance between two usable pages (indices into
// the oracle's usable pages) and normalises it into [0, 1].
type metric interface {
	measure(i, j int) (raw float64, na, nb int, err error)
	normalize(raw float64, na, nb int) float64
	// cached reports whether the metric's distances go to Options.Cache.
	cached() bool
}

// tedMetric is the unit-cost tree edit distance between trees.
type tedMetric struct {
	trees func(i int) *treediff.Tree
	opt   treediff.Options
}

func (m tedMetric) measure(i, j int) (float64, int, int, error) {
	a, b := m.trees(i), m.trees(j)
	d, err := treediff.Distance(a, b, m.opt)
	return float64(d), a.Len(), b.Len(), err
}

func (tedMetric) normalize(raw float64, na, nb int) float64 { return Normalize(raw, na, nb) }
func (tedMetric) cached() bool                              { return false }

// pqMetric is the pq-gram distance between profiles.
type pqMetric struct{ prof []treediff.PQGrams }

func (m pqMetric) measure(i, j int) (float64, int, int, error) {
	a, b := m.prof[i], m.prof[j]
	common := a.Common(b)
	return float64(len(a) + len(b) - 2*common), len(a), len(b), nil
}

func (pqMetric) normalize(raw float64, na, nb int) float64 { return NormalizeCached(raw, na, nb) }
func (pqMetric) cached() bool                              { return true }

// profiles returns the pq-gram profile of each page's tag tree, computed on
// opt.Workers goroutines. The full tree is profiled, not the reduced one:
// on big9-dev the clusters learned on pq-grams of full trees agree with
// those learned on exact TEDs with a mean ARI of 0.978 (Spearman 0.931),
// against 0.899 (0.920) on reduced trees, and a profile is linear in the
// tree anyway; the reduction pays where the size costs, in exact TEDs.
func profiles(ctx context.Context, trees []*treediff.Tree, opt Options) ([]treediff.PQGrams, error) {
	out := make([]treediff.PQGrams, len(trees))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(opt.Workers, len(trees)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = treediff.Profile(trees[i])
			}
		}()
	}
feed:
	for i := range trees {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pq-gram profiles: %w", err)
	}
	return out, nil
}

// distanceOracle is Learn's oracle over the usable pages: the clustering
// distance (fast or exact, by Options.Distance) and the exact tree edit
// distance between reduced trees that breaks near ties.
type distanceOracle struct {
	*pageOracle
	exactO *pageOracle // nil with ExactDistance: the main oracle is exact
}

// newDistanceOracle prepares the pages for opt.Distance (their profiles for
// FastDistance).
func newDistanceOracle(ctx context.Context, pages []Page, usable []int, opt Options) (*distanceOracle, error) {
	tree := func(i int) *treediff.Tree { return pages[usable[i]].Tree }
	if opt.Distance == ExactDistance {
		return &distanceOracle{pageOracle: newPageOracle(pages, usable, opt, tedMetric{trees: tree, opt: opt.TED})}, nil
	}
	// Pages profiled before (a model's medoids) are not profiled again.
	var trees []*treediff.Tree
	var todo []int
	for i, p := range usable {
		if pages[p].prof == nil {
			trees = append(trees, tree(i))
			todo = append(todo, i)
		}
	}
	got, err := profiles(ctx, trees, opt)
	if err != nil {
		return nil, err
	}
	prof := make([]treediff.PQGrams, len(usable))
	for i, p := range usable {
		prof[i] = pages[p].prof
	}
	for x, i := range todo {
		prof[i] = got[x]
	}
	var mu sync.Mutex
	reduced := map[int]*treediff.Tree{} // reduced again on demand: ties are rare
	reducedTree := func(i int) *treediff.Tree {
		mu.Lock()
		defer mu.Unlock()
		if t, ok := reduced[i]; ok {
			return t
		}
		t := treediff.Reduce(tree(i), opt.Reduce)
		reduced[i] = t
		return t
	}
	return &distanceOracle{
		pageOracle: newPageOracle(pages, usable, opt, pqMetric{prof: prof}),
		exactO:     newPageOracle(pages, usable, opt, tedMetric{trees: reducedTree, opt: opt.TED}),
	}, nil
}

// exact returns exact distances for pairs: the tree edit distance between
// reduced trees (or the main oracle's, when it is exact).
func (o *distanceOracle) exact(ctx context.Context, pairs [][2]int) ([]float64, error) {
	if o.exactO == nil {
		return o.distances(ctx, pairs)
	}
	return o.exactO.distances(ctx, pairs)
}

// counts returns the fast distances and the exact tree edit distances
// computed (not read from the cache).
func (o *distanceOracle) counts() (fast, exact int) {
	if o.exactO == nil {
		return 0, o.computed
	}
	return o.computed, o.exactO.computed
}

// overBudgetPairs lists the pairs over the tree edit distance budget.
func (o *distanceOracle) overBudgetPairs() []string {
	out := append([]string(nil), o.overBudget...)
	if o.exactO != nil {
		out = append(out, o.exactO.overBudget...)
	}
	return out
}
