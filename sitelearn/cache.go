package sitelearn

import (
	"context"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/store"
)

// Cache returns st as the cluster distance cache: the distances are kept in
// st under view cluster.CacheView. Site and LoadModel use it when their
// options set no cache.
func Cache(st store.Store) cluster.DistanceCache { return storeCache{st} }

type storeCache struct{ st store.Store }

func (c storeCache) Get(ctx context.Context, pairs []cluster.Pair) (map[cluster.Pair]cluster.CachedDistance, error) {
	sp := make([]store.Pair, len(pairs))
	for i, p := range pairs {
		sp[i] = store.Pair{A: p.A, B: p.B}
	}
	got, err := c.st.Distances(ctx, cluster.CacheView, sp)
	if err != nil {
		return nil, err
	}
	out := make(map[cluster.Pair]cluster.CachedDistance, len(got))
	for k, d := range got {
		p := cluster.Pair{A: k.A, B: k.B}
		out[p] = cluster.CachedDistance{Pair: p, Distance: d.Distance, NodesA: d.NodesA, NodesB: d.NodesB}
	}
	return out, nil
}

func (c storeCache) Put(ctx context.Context, ds []cluster.CachedDistance) error {
	sd := make([]store.Distance, len(ds))
	for i, d := range ds {
		sd[i] = store.Distance{Pair: store.Pair{A: d.A, B: d.B}, View: cluster.CacheView,
			Distance: d.Distance, NodesA: d.NodesA, NodesB: d.NodesB}
	}
	return c.st.PutDistances(ctx, sd)
}
