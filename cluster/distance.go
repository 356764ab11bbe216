package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gleaner/gleaner/treediff"
)

// CacheView is the view name under which tree edit distances between tag
// trees are cached. The cache holds raw unit-cost distances with node
// counts; the number changes whenever parsing or the tag view changes what
// trees a page yields, so that stale distances are never read.
const CacheView = "tag-ted/1"

// Pair is an unordered pair of page content hashes, A <= B (MakePair).
type Pair struct{ A, B string }

// MakePair returns the canonical pair of hashes a and b.
func MakePair(a, b string) Pair {
	if b < a {
		a, b = b, a
	}
	return Pair{a, b}
}

// CachedDistance is the raw unit-cost tree edit distance between the tag
// trees of two page contents (Pair, canonical), with the node counts of
// both trees: NodesA for Pair.A's tree, NodesB for Pair.B's.
type CachedDistance struct {
	Pair
	Distance       float64
	NodesA, NodesB int
}

// DistanceCache keeps tree edit distances by page content hash across runs
// (view CacheView). Get returns those of pairs it holds, keyed by the
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

// tedOracle computes the distances between usable pages: memoised, looked
// up in the cache by content hash, the rest computed on opt.Workers
// goroutines and written back to the cache.
type tedOracle struct {
	pages  []Page
	usable []int
	opt    Options
	memo   map[[2]int]float64
	// asked counts distinct pairs requested, computed those that needed a
	// tree edit distance.
	asked, computed int
	// overBudget lists the pairs too large to compare.
	overBudget []string
}

func newTEDOracle(pages []Page, usable []int, opt Options) *tedOracle {
	return &tedOracle{pages: pages, usable: usable, opt: opt, memo: map[[2]int]float64{}}
}

func (o *tedOracle) len() int          { return len(o.usable) }
func (o *tedOracle) page(i int) Page   { return o.pages[o.usable[i]] }
func (o *tedOracle) name(i int) string { return o.page(i).Name }

func key(i, j int) [2]int {
	if j < i {
		i, j = j, i
	}
	return [2]int{i, j}
}

func (o *tedOracle) distances(ctx context.Context, pairs [][2]int) ([]float64, error) {
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
func (o *tedOracle) fromCache(ctx context.Context, todo [][2]int) ([][2]int, error) {
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
			o.memo[k] = Normalize(d.Distance, d.NodesA, d.NodesB)
		}
	}
	return missing, nil
}

// compute runs the tree edit distances of todo in parallel and caches them.
func (o *tedOracle) compute(ctx context.Context, todo [][2]int) error {
	if len(todo) == 0 {
		return nil
	}
	raw := make([]int, len(todo))
	errs := make([]error, len(todo))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(o.opt.Workers, len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for x := range jobs {
				if err := ctx.Err(); err != nil {
					errs[x] = err
					continue
				}
				a, b := o.page(todo[x][0]), o.page(todo[x][1])
				raw[x], errs[x] = treediff.Distance(a.Tree, b.Tree, o.opt.TED)
				if errs[x] != nil {
					errs[x] = fmt.Errorf("distance between %s and %s: %w", a.Name, b.Name, errs[x])
				}
			}
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
		return fmt.Errorf("tree edit distances: %w", err)
	}
	var put []CachedDistance
	for x, k := range todo {
		a, b := o.page(k[0]), o.page(k[1])
		if errs[x] != nil {
			if errors.Is(errs[x], treediff.ErrBudget) {
				// Trees too large to compare count as unrelated: they still
				// get a place, far from everything, rather than failing
				// the whole site.
				o.memo[k] = 1
				o.overBudget = append(o.overBudget, a.Name+" / "+b.Name)
				continue
			}
			return errs[x]
		}
		o.computed++
		o.memo[k] = Normalize(float64(raw[x]), a.Tree.Len(), b.Tree.Len())
		if a.Hash != "" && b.Hash != "" {
			d := CachedDistance{Pair: Pair{A: a.Hash, B: b.Hash},
				Distance: float64(raw[x]), NodesA: a.Tree.Len(), NodesB: b.Tree.Len()}
			if d.B < d.A {
				d.A, d.B, d.NodesA, d.NodesB = d.B, d.A, d.NodesB, d.NodesA
			}
			put = append(put, d)
		}
	}
	if o.opt.Cache != nil && len(put) > 0 {
		if err := o.opt.Cache.Put(ctx, put); err != nil {
			return fmt.Errorf("distance cache: %w", err)
		}
	}
	return nil
}
