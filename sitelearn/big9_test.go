package sitelearn

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/store"
)

// TestBig9 learns every site of big9-dev imported as-is (both eras under each
// site's domain) and measures how well the clusters separate the eras'
// templates; then checks that a second run is identical and computes no
// distance, and that a site whose template changes midway is relearned.
func TestBig9(t *testing.T) {
	dir := shareddata.Dir(t, "big9-dev")
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "big9.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := dataset.ReadManifest(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	imp, err := dataset.Import(ctx, st, m, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Options: cluster.Options{Seed: 1}}
	runs := map[string]*SiteRun{}
	var ariSum float64
	good := 0
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-16s %5s %2s %6s  %s\n", "site", "pages", "k", "ARI", "mean silhouette for k = 2..8")
	for _, site := range imp.Sites {
		sr, err := Site(ctx, st, site, opt)
		if err != nil {
			t.Fatal(err)
		}
		runs[site] = sr
		ari := ariAgainstLabels(t, ctx, st, sr)
		ariSum += ari
		if ari >= 0.9 {
			good++
		}
		fmt.Fprintf(&table, "%-16s %5d %2d %6.3f  %s\n", site, sr.Run.Pages, sr.Run.K, ari, curve(sr.Run.Silhouette))
		// Measured with seed 1 (pq-gram distance): no site below 0.602
		// (nymag.com, whose eras each hold two templates, e.g. columns and
		// features; 0.447 with the exact tree edit distance).
		if ari < 0.4 {
			t.Errorf("%s: ARI %.3f below 0.4", site, ari)
		}
	}
	mean := ariSum / float64(len(imp.Sites))
	fmt.Fprintf(&table, "sites with ARI >= 0.9: %d of %d; mean ARI %.3f", good, len(imp.Sites), mean)
	t.Log(table.String())
	// Measured: 6 of 9 sites at 1.0, mean 0.897 (0.880 with the exact tree
	// edit distance).
	if good < 6 || mean < 0.85 {
		t.Errorf("ARI against site+era: %d sites >= 0.9 (want 6), mean %.3f (want 0.85)", good, mean)
	}

	t.Run("deterministic and cached", func(t *testing.T) {
		for _, site := range imp.Sites {
			again, err := Site(ctx, st, site, Options{Options: opt.Options, Relearn: true})
			if err != nil {
				t.Fatal(err)
			}
			if again.Result.Computed != 0 {
				t.Errorf("%s: second run computed %d distances, want all from the cache", site, again.Result.Computed)
			}
			first := runs[site]
			if !reflect.DeepEqual(strip(first.Members), strip(again.Members)) || !reflect.DeepEqual(stripC(first.Clusters), stripC(again.Clusters)) ||
				!reflect.DeepEqual(first.Run.Silhouette, again.Run.Silhouette) {
				t.Errorf("%s: same pages and seed, different clusters", site)
			}
		}
	})

	t.Run("landmarks", func(t *testing.T) {
		// The landmark path on real pages: 8 landmarks out of 20 pages per
		// site (every distance is in the cache by now). Measured with seed
		// 1: the same 6 of 9 sites at 1.0, none below 0.6.
		good := 0
		for _, site := range imp.Sites {
			sr, err := Site(ctx, st, site, Options{Options: cluster.Options{Seed: 1, LandmarkThreshold: 16}, Relearn: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(sr.Result.Landmarks) != 8 {
				t.Fatalf("%s: %d landmarks, want 8", site, len(sr.Result.Landmarks))
			}
			ari := ariAgainstLabels(t, ctx, st, sr)
			t.Logf("%-16s k=%d ARI %.3f (landmarks)", site, sr.Run.K, ari)
			if ari >= 0.9 {
				good++
			}
			if ari < 0.6 {
				t.Errorf("%s: ARI %.3f with landmarks", site, ari)
			}
		}
		if good < 6 {
			t.Errorf("with landmarks %d sites at ARI >= 0.9, want 6", good)
		}
	})

	t.Run("drift", func(t *testing.T) {
		// A site whose template changes midway: its first ten pages are one
		// era of a big9 site, then ten pages of the other era arrive.
		src := ""
		for _, s := range imp.Sites {
			if runs[s].Run.K == 2 {
				src = s
				break
			}
		}
		pages, err := st.Pages(ctx, store.PageQuery{Site: src, WithContent: true})
		if err != nil {
			t.Fatal(err)
		}
		sort.SliceStable(pages, func(i, j int) bool { return pages[i].Label < pages[j].Label })
		put := func(ps []*store.Page) {
			var copies []*store.Page
			for _, p := range ps {
				copies = append(copies, &store.Page{Site: "drift.test", Dataset: "drift", ManifestID: p.ManifestID,
					URL: "http://drift.test/" + p.ManifestID, Label: p.Label, RawHTML: p.RawHTML})
			}
			if err := st.PutPages(ctx, copies); err != nil {
				t.Fatal(err)
			}
		}
		put(pages[:10])
		first, err := Site(ctx, st, "drift.test", opt)
		if err != nil {
			t.Fatal(err)
		}
		if first.Mode != ModeLearned {
			t.Fatalf("first run mode %s", first.Mode)
		}
		// Two more pages of the same template: assigned, no relearning.
		put(pages[:2])
		if same, _ := Site(ctx, st, "drift.test", opt); same.Mode != ModeUnchanged {
			t.Errorf("re-importing the same pages: mode %s, want %s", same.Mode, ModeUnchanged)
		}
		put(pages[10:13])
		few, err := Site(ctx, st, "drift.test", opt)
		if err != nil {
			t.Fatal(err)
		}
		if few.Mode != ModeAssigned || len(few.Outliers()) < 3 {
			t.Errorf("three pages of a new template: mode %s with %d outliers, want %s with the three as outliers (%s)",
				few.Mode, len(few.Outliers()), ModeAssigned, few.Note)
		}
		put(pages[13:])
		after, err := Site(ctx, st, "drift.test", opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s", after.Mode, after.Note)
		if after.Mode != ModeRelearned || after.Run.K != 2 {
			t.Errorf("after the template change: mode %s k %d, want %s with k = 2 (%s)", after.Mode, after.Run.K, ModeRelearned, after.Note)
		}
		if ari := ariAgainstLabels(t, ctx, st, after); ari < 1 {
			t.Errorf("relearned drift site: ARI %.3f against eras", ari)
		}
	})
}

func ariAgainstLabels(t *testing.T, ctx context.Context, st store.Store, sr *SiteRun) float64 {
	t.Helper()
	pages, err := st.Pages(ctx, store.PageQuery{Site: sr.Site})
	if err != nil {
		t.Fatal(err)
	}
	label := map[int64]string{}
	for _, p := range pages {
		label[p.ID] = p.Label
	}
	var got []int
	var want []string
	for _, m := range sr.Members {
		got = append(got, m.Cluster)
		want = append(want, label[m.PageID])
	}
	ari, err := cluster.AdjustedRandIndex(got, want)
	if err != nil {
		t.Fatal(err)
	}
	return ari
}

func curve(s map[int]float64) string {
	var ks []int
	for k := range s {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	var b strings.Builder
	for _, k := range ks {
		fmt.Fprintf(&b, " %.3f", s[k])
	}
	return strings.TrimSpace(b.String())
}

func strip(ms []store.Membership) []store.Membership {
	out := make([]store.Membership, len(ms))
	for i, m := range ms {
		m.RunID = 0
		out[i] = m
	}
	return out
}

func stripC(cs []store.Cluster) []store.Cluster {
	out := make([]store.Cluster, len(cs))
	for i, c := range cs {
		c.RunID = 0
		out[i] = c
	}
	return out
}
