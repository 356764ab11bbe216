package cluster

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/treediff"
)

// sitePages reads the tag trees of the shared dataset name, by manifest
// site, keeping the sites of at least minPages pages.
func sitePages(tb testing.TB, name string, minPages int) map[string][]Page {
	tb.Helper()
	dir := shareddata.Dir(tb, name)
	m, err := dataset.ReadManifest(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range m.Entries {
		count[e.Site]++
	}
	out := map[string][]Page{}
	for _, e := range m.Entries {
		if count[e.Site] < minPages {
			continue
		}
		src, err := dataset.ReadPage(m.HTMLFile(e), 1<<26)
		if err != nil {
			tb.Fatal(err)
		}
		out[e.Site] = append(out[e.Site], NewPage(e.ID, "", src, treediff.ParseOptions{}))
	}
	return out
}

// matrixOf computes every pair's distance with the oracle of opt.Distance.
func matrixOf(tb testing.TB, pages []Page, opt Options) *Matrix {
	tb.Helper()
	usable := make([]int, len(pages))
	for i := range usable {
		usable[i] = i
	}
	o, err := newDistanceOracle(context.Background(), pages, usable, opt.WithDefaults())
	if err != nil {
		tb.Fatal(err)
	}
	var pairs [][2]int
	for i := range pages {
		for j := i + 1; j < len(pages); j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	ds, err := o.distances(context.Background(), pairs)
	if err != nil {
		tb.Fatal(err)
	}
	m := NewMatrix(len(pages))
	for k, p := range pairs {
		m.Set(p[0], p[1], ds[k])
	}
	return m
}

// spearman is the rank correlation of the upper triangles of a and b.
func spearman(a, b *Matrix) float64 {
	var x, y []float64
	for i := 0; i < a.Len(); i++ {
		for j := i + 1; j < a.Len(); j++ {
			x, y = append(x, a.At(i, j)), append(y, b.At(i, j))
		}
	}
	rx, ry := ranks(x), ranks(y)
	n := float64(len(rx))
	var mx, my float64
	for i := range rx {
		mx, my = mx+rx[i]/n, my+ry[i]/n
	}
	var num, dx, dy float64
	for i := range rx {
		num += (rx[i] - mx) * (ry[i] - my)
		dx += (rx[i] - mx) * (rx[i] - mx)
		dy += (ry[i] - my) * (ry[i] - my)
	}
	if dx == 0 || dy == 0 {
		return 1
	}
	return num / math.Sqrt(dx*dy)
}

// ranks gives each value its rank, ties sharing their mean rank.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	out := make([]float64, len(v))
	for s := 0; s < len(idx); {
		e := s
		for e+1 < len(idx) && v[idx[e+1]] == v[idx[s]] {
			e++
		}
		for k := s; k <= e; k++ {
			out[idx[k]] = float64(s+e) / 2
		}
		s = e + 1
	}
	return out
}

// TestFastDistanceAgreesWithTED measures, per site of big9-dev, how well
// the fast distance tracks the exact tree edit distance between full tag
// trees: the rank correlation of the two distance matrices and the ARI of
// the clusters learned on each (same seed). With GLEANER_AGREEMENT_WCXB=1 it
// does the same on the wcxb-dev sites of three pages or more (exact TEDs of
// 5-8k-node pages: about half an hour).
func TestFastDistanceAgreesWithTED(t *testing.T) {
	if testing.Short() {
		t.Skip("computes every exact TED of big9-dev")
	}
	sets := []struct {
		name     string
		minPages int
		// goal is the least mean ARI against exact-TED clusters.
		goal float64
	}{{"big9-dev", 2, 0.9}}
	if os.Getenv("GLEANER_AGREEMENT_WCXB") == "1" {
		sets = append(sets, struct {
			name     string
			minPages int
			goal     float64
		}{"wcxb-dev", 3, 0})
	}
	for _, set := range sets {
		sites := sitePages(t, set.name, set.minPages)
		names := make([]string, 0, len(sites))
		for s := range sites {
			names = append(names, s)
		}
		slices.Sort(names)
		var b strings.Builder
		fmt.Fprintf(&b, "\n%s: %-24s %5s %8s %6s %6s %6s\n", set.name, "site", "pages", "spearman", "k-ted", "k-fast", "ARI")
		var sumARI, sumRho float64
		for _, s := range names {
			pages := sites[s]
			exact := matrixOf(t, pages, Options{Distance: ExactDistance})
			fast := matrixOf(t, pages, Options{})
			rho := spearman(exact, fast)
			re, err := LearnMatrix(context.Background(), exact, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			rf, err := LearnMatrix(context.Background(), fast, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			ari, _ := AdjustedRandIndex(labelsOf(re), labelsOf(rf))
			sumARI, sumRho = sumARI+ari, sumRho+rho
			fmt.Fprintf(&b, "%s: %-24s %5d %8.3f %6d %6d %6.3f\n", set.name, s, len(pages), rho, re.K, rf.K, ari)
		}
		n := float64(len(names))
		fmt.Fprintf(&b, "%s: mean Spearman %.3f, mean ARI %.3f over %d sites", set.name, sumRho/n, sumARI/n, len(names))
		t.Log(b.String())
		if sumARI/n < set.goal {
			t.Errorf("%s: mean ARI against exact-TED clusters %.3f, want at least %.2f", set.name, sumARI/n, set.goal)
		}
	}
}
