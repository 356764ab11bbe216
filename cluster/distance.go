package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gleaner/gleaner/treediff"
)

// CacheView is the view name under which the distances Learn clusters on
// are cached: pq-gram distances between tag trees (FastDistance),
// kept raw (the size of the two profiles' bag difference) with the sizes of
// both profiles, from which pqMetric.normalize recomputes the distance.
// The name changes whenever parsing, the tag view, the reduction or the
// profile changes what a page yields, so that stale distances are never
// read. Exact tree edit distances are not cached.
const CacheView = "tag-pqgram/1"

// Pair is an unordered pair of page content hashes, A <= B (MakePair).
type Pair struct{ A, B string }

// MakePair returns the canonical pair of hashes a and b.
func MakePair(a, b string) Pair {
	if b < a {
		a, b = b, a
	}
	return Pair{a, b}
}

// CachedDistance is the raw distance between two page contents (Pair,
// canonical) in the cached view (CacheView), with the sizes that normalise
// it: NodesA for Pair.A's, NodesB for Pair.B's.
type CachedDistance struct {
	Pair
	Distance       float64
	NodesA, NodesB int
}

// DistanceCache keeps Learn's clustering distances by page content hash
// across runs (view CacheView). Get returns those of pairs it holds, keyed by the
// canonical pair; Put keeps ds. Package sitelearn backs one with the store.
type DistanceCache interface {
	Get(ctx context.Context, pairs []Pair) (map[Pair]CachedDistance, error)
	Put(ctx context.Context, ds []CachedDistance) error
}

// Page is one page to learn from.
type Page struct {
	// Name identifies the page in reports: the manifest id of an imported
	// page, else its URL.
	Name string
	// Hash identifies the page's content (store.Page.Hash) for the distance
	// cache; pages without a hash are never cached.
	Hash string
	// Tree is the page's tag tree (treediff.TagView).
	Tree *treediff.Tree
	// Err says why the page cannot be used (it failed to parse); Learn
	// reports such pages as outliers.
	Err error

	prof treediff.PQGrams // the tag tree's pq-grams, once computed
}

// NewPage parses src and keeps its tag tree. A page that fails to parse is
// returned with Err set, so that Learn reports it instead of dropping it.
func NewPage(name, hash string, src []byte, opt treediff.ParseOptions) Page {
	p := Page{Name: name, Hash: hash}
	t, err := treediff.Parse(name, src, opt)
	if err != nil {
		p.Err = fmt.Errorf("parse: %w", err)
		return p
	}
	p.Tree = t.View(treediff.TagView)
	return p
}

// Compact returns p as FastDistance needs it, in less memory: its pq-gram
// profile computed from its tag tree, and the tree replaced by its
// reduction (treediff.Reduce), all that exact tie-breaks read. A caller
// holding many pages (sitelearn) keeps them compact; ExactDistance on
// compact pages compares the reduced trees. A page without a tree is
// returned as it is.
func (p Page) Compact(opt treediff.ReduceOptions) Page {
	if p.Err != nil || p.Tree == nil || p.Tree.Root == nil {
		return p
	}
	if p.prof == nil {
		p.prof = treediff.Profile(p.Tree)
	}
	p.Tree = treediff.Reduce(p.Tree, opt)
	return p
}

// PageDistance returns the normalised tree edit distance between the tag
// trees of a and b (see the package doc).
func PageDistance(a, b Page, opt treediff.Options) (float64, error) {
	if a.Err != nil || b.Err != nil || a.Tree == nil || b.Tree == nil {
		return 0, fmt.Errorf("distance between %s and %s: a page has no tree", a.Name, b.Name)
	}
	d, err := treediff.Distance(a.Tree, b.Tree, opt)
	if err != nil {
		return 0, fmt.Errorf("distance between %s and %s: %w", a.Name, b.Name, err)
	}
	return Normalize(float64(d), a.Tree.Len(), b.Tree.Len()), nil
}

// pageOracle gives the distances between usable pages under one metric:
// memoised, looked up in the cache by content hash when the metric is the
// cached one, the rest computed on opt.Workers goroutines and written back
// to the cache.
type pageOracle struct {
	pages  []Page
	usable []int
	opt    Options
	metric metric
	memo   map[[2]int]float64
	// asked counts distinct pairs requested, computed those that were not
	// in the cache and had to be measured.
	asked, computed int
	// overBudget lists the pairs too large to compare.
	overBudget []string
}

func newPageOracle(pages []Page, usable []int, opt Options, m metric) *pageOracle {
	if !m.cached() {
		opt.Cache = nil
	}
	return &pageOracle{pages: pages, usable: usable, opt: opt, metric: m, memo: map[[2]int]float64{}}
}

func (o *pageOracle) len() int          { return len(o.usable) }
func (o *pageOracle) page(i int) Page   { return o.pages[o.usable[i]] }
func (o *pageOracle) name(i int) string { return o.page(i).Name }

func key(i, j int) [2]int {
	if j < i {
		i, j = j, i
	}
	return [2]int{i, j}
}

func (o *pageOracle) distances(ctx context.Context, pairs [][2]int) ([]float64, error) {
	var todo [][2]int
	seen := map[[2]int]bool{}
	for _, p := range pairs {
		k := key(p[0], p[1])
		if _, ok := o.memo[k]; ok || seen[k] {
			continue
		}
		seen[k] = true
		a, b := o.page(k[0]), o.page(k[1])
		if a.Hash != "" && a.Hash == b.Hash || k[0] == k[1] {
			o.memo[k] = 0 // same content, same tree
			o.asked++
			continue
		}
		todo = append(todo, k)
	}
	o.asked += len(todo)
	todo, err := o.fromCache(ctx, todo)
	if err != nil {
		return nil, err
	}
	if err := o.compute(ctx, todo); err != nil {
		return nil, err
	}
	out := make([]float64, len(pairs))
	for x, p := range pairs {
		out[x] = o.memo[key(p[0], p[1])]
	}
	return out, nil
}

// cacheChunk bounds the pairs of one cache query.
const cacheChunk = 400

// fromCache fills the memo from the cache and returns the pairs still missing.
func (o *pageOracle) fromCache(ctx context.Context, todo [][2]int) ([][2]int, error) {
	if o.opt.Cache == nil || len(todo) == 0 {
		return todo, nil
	}
	var missing [][2]int
	for start := 0; start < len(todo); start += cacheChunk {
		chunk := todo[start:min(start+cacheChunk, len(todo))]
		var sp []Pair
		for _, k := range chunk {
			a, b := o.page(k[0]), o.page(k[1])
			if a.Hash != "" && b.Hash != "" {
				sp = append(sp, MakePair(a.Hash, b.Hash))
			}
		}
		got, err := o.opt.Cache.Get(ctx, sp)
		if err != nil {
			return nil, fmt.Errorf("distance cache: %w", err)
		}
		for _, k := range chunk {
			a, b := o.page(k[0]), o.page(k[1])
			if a.Hash == "" || b.Hash == "" {
				missing = append(missing, k)
				continue
			}
			d, ok := got[MakePair(a.Hash, b.Hash)]
			if !ok {
				missing = append(missing, k)
				continue
			}
			o.memo[k] = o.metric.normalize(d.Distance, d.NodesA, d.NodesB)
		}
	}
	return missing, nil
}

// measured is one pair's raw distance with the sizes that normalise it.
type measured struct {
	raw    float64
	na, nb int
	err    error
}

// compute measures the pairs of todo in parallel and caches them.
func (o *pageOracle) compute(ctx context.Context, todo [][2]int) error {
	if len(todo) == 0 {
		return nil
	}
	res, err := o.measureAll(ctx, todo)
	if err != nil {
		return err
	}
	put, err := o.record(todo, res)
	if err != nil {
		return err
	}
	if o.opt.Cache != nil && len(put) > 0 {
		if err := o.opt.Cache.Put(ctx, put); err != nil {
			return fmt.Errorf("distance cache: %w", err)
		}
	}
	return nil
}

// measureAll measures the pairs of todo on opt.Workers goroutines, until
// ctx ends.
func (o *pageOracle) measureAll(ctx context.Context, todo [][2]int) ([]measured, error) {
	res := make([]measured, len(todo))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(o.opt.Workers, len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.measureJobs(ctx, jobs, todo, res)
		}()
	}
feed:
	for x := range todo {
		select {
		case jobs <- x:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("tree distances: %w", err)
	}
	return res, nil
}

// measureJobs measures the pairs of todo whose indexes come from jobs into
// res, one worker's share.
func (o *pageOracle) measureJobs(ctx context.Context, jobs <-chan int, todo [][2]int, res []measured) {
	for x := range jobs {
		if err := ctx.Err(); err != nil {
			res[x].err = err
			continue
		}
		i, j := todo[x][0], todo[x][1]
		m := &res[x]
		m.raw, m.na, m.nb, m.err = o.metric.measure(i, j)
		if m.err != nil {
			m.err = fmt.Errorf("distance between %s and %s: %w", o.name(i), o.name(j), m.err)
		}
	}
}

// record memoises the measured distances res of the pairs todo and
// returns those to cache: the pairs of pages with a content hash.
func (o *pageOracle) record(todo [][2]int, res []measured) ([]CachedDistance, error) {
	var put []CachedDistance
	for x, k := range todo {
		a, b := o.page(k[0]), o.page(k[1])
		m := res[x]
		if m.err != nil {
			if !errors.Is(m.err, treediff.ErrBudget) {
				return nil, m.err
			}
			// Trees too large to compare count as unrelated: they still
			// get a place, far from everything, rather than failing
			// the whole site.
			o.memo[k] = 1
			o.overBudget = append(o.overBudget, a.Name+" / "+b.Name)
			continue
		}
		o.computed++
		o.memo[k] = o.metric.normalize(m.raw, m.na, m.nb)
		if a.Hash != "" && b.Hash != "" {
			put = append(put, cachedDistance(a.Hash, b.Hash, m))
		}
	}
	return put, nil
}

// cachedDistance is m as the cache stores it: the pair of hashes in order,
// the sizes following them.
func cachedDistance(hashA, hashB string, m measured) CachedDistance {
	d := CachedDistance{Pair: Pair{A: hashA, B: hashB}, Distance: m.raw, NodesA: m.na, NodesB: m.nb}
	if d.B < d.A {
		d.A, d.B, d.NodesA, d.NodesB = d.B, d.A, d.NodesB, d.NodesA
	}
	return d
}
