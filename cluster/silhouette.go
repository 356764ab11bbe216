package cluster

// silhouette returns the mean silhouette of a labelling (Rousseeuw 1987):
// s(i) = (b(i) − a(i)) / max(a(i), b(i)), a(i) the mean distance of page i to
// the other members of its cluster, b(i) the least mean distance to the
// members of another cluster; a page alone in its cluster scores 0.
//
// Distances come from dist(i, r) for page i and reference page ref[r]:
// with every page as a reference this is the exact silhouette; with a sample
// of landmark pages each mean is estimated over the landmarks in a cluster
// (clusters holding no landmark are left out of b). It reports ok = false
// when no page could be scored.
func silhouette(labels []int, k int, ref []int, dist func(i, r int) float64) (mean float64, ok bool) {
	sum := make([]float64, k)
	cnt := make([]int, k)
	scored := 0
	total := 0.0
	for i, li := range labels {
		clear(sum)
		clear(cnt)
		for r, p := range ref {
			if p == i {
				continue
			}
			sum[labels[p]] += dist(i, r)
			cnt[labels[p]]++
		}
		if cnt[li] == 0 {
			// Alone in its cluster (or no landmark to compare with): s = 0,
			// counted, as Rousseeuw does for singletons.
			scored++
			continue
		}
		a := sum[li] / float64(cnt[li])
		b := -1.0
		for c := 0; c < k; c++ {
			if c == li || cnt[c] == 0 {
				continue
			}
			if m := sum[c] / float64(cnt[c]); b < 0 || m < b {
				b = m
			}
		}
		if b < 0 {
			continue
		}
		scored++
		if mx := max(a, b); mx > 0 {
			total += (b - a) / mx
		}
	}
	if scored == 0 {
		return 0, false
	}
	return total / float64(scored), true
}
