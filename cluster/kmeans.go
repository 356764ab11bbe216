package cluster

import (
	"math/rand/v2"

	"github.com/muesli/clusters"
)

// kmeans partitions points into at most k groups with Lloyd's algorithm from
// k-means++ seeds, keeping the best of restarts runs (least sum of squared
// distances to the centres). rng drives every random choice, so the same rng
// state gives the same partition. Labels are compacted: groups that end up
// empty are dropped and the rest are numbered from 0 in order of their first
// member, so the labelling does not depend on which seed came first.
func kmeans(points []Point, k, restarts int, rng *rand.Rand) (labels []int, groups int) {
	obs := make(clusters.Observations, len(points))
	for i, p := range points {
		obs[i] = clusters.Coordinates{p[0], p[1]}
	}
	if restarts < 1 {
		restarts = 1
	}
	best, bestSSE := []int(nil), -1.0
	for r := 0; r < restarts; r++ {
		cs := seedPlusPlus(obs, k, rng)
		lab := lloyd(obs, cs)
		sse := 0.0
		for i, o := range obs {
			sse += o.Distance(cs[lab[i]].Center)
		}
		if bestSSE < 0 || sse < bestSSE-1e-12 {
			best, bestSSE = lab, sse
		}
	}
	return compact(best)
}

// seedPlusPlus picks k initial centres by k-means++ (Arthur & Vassilvitskii):
// the first uniformly, each next one with probability proportional to its
// squared distance to the nearest centre already chosen. When fewer than k
// distinct points exist it returns fewer centres.
func seedPlusPlus(obs clusters.Observations, k int, rng *rand.Rand) clusters.Clusters {
	n := len(obs)
	cs := clusters.Clusters{{Center: obs[rng.IntN(n)].Coordinates()}}
	d2 := make([]float64, n)
	for len(cs) < k {
		total := 0.0
		for i, o := range obs {
			d2[i] = o.Distance(cs[cs.Nearest(o)].Center)
			total += d2[i]
		}
		if total <= 0 {
			break
		}
		u := rng.Float64() * total
		pick := n - 1
		for i, w := range d2 {
			if u < w {
				pick = i
				break
			}
			u -= w
		}
		cs = append(cs, clusters.Cluster{Center: obs[pick].Coordinates()})
	}
	return cs
}

// lloyd alternates assignment and re-centring until no point moves.
func lloyd(obs clusters.Observations, cs clusters.Clusters) []int {
	lab := make([]int, len(obs))
	for i := range lab {
		lab[i] = -1
	}
	for it := 0; it < 300; it++ {
		cs.Reset()
		moved := false
		for i, o := range obs {
			c := cs.Nearest(o)
			if c != lab[i] {
				lab[i], moved = c, true
			}
			cs[c].Append(o)
		}
		if !moved {
			break
		}
		cs.Recenter() // an empty cluster keeps its centre
	}
	return lab
}

func compact(lab []int) ([]int, int) {
	ids := map[int]int{}
	out := make([]int, len(lab))
	for i, l := range lab {
		id, ok := ids[l]
		if !ok {
			id = len(ids)
			ids[l] = id
		}
		out[i] = id
	}
	return out, len(ids)
}
