package heuristics_test

import (
	"context"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// TestExtractSiteBig9 extracts the big9-dev pages site by site with
// ExtractSite, one template per era (the first page of the era is its
// medoid: a stand-in for learned clusters, which take minutes), and scores
// them with package eval. It checks the goals: F1 above
// go-trafilatura's 0.941, exactitude at least 99 %, no site under 0.93.
func TestExtractSiteBig9(t *testing.T) {
	ds, err := eval.LoadDataset(filepath.Join(shareddata.Dir(t, "big9-dev"), "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	bySite := map[string][]int{}
	for i, p := range ds.Pages {
		if ds.Errs[i] != nil {
			t.Fatal(ds.Errs[i])
		}
		bySite[p.Site] = append(bySite[p.Site], i)
	}
	var sites []string
	for s := range bySite {
		sites = append(sites, s)
	}
	sort.Strings(sites)
	var all []eval.PageScore
	methods := map[string]int{}
	for _, s := range sites {
		var sps []heuristics.SitePage
		var golds []string
		first := map[string]int{} // era -> index of its medoid
		for _, i := range bySite[s] {
			p := ds.Pages[i]
			tree, err := treediff.Parse(p.ID, ds.Src[i], treediff.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sp := heuristics.SitePage{Page: tree, Src: ds.Src[i], Cluster: len(first), Medoid: -1}
			if m, ok := first[p.Label]; ok {
				sp.Cluster, sp.Medoid = sps[m].Cluster, m
				if sps[m].Medoid < 0 {
					sps[m].Medoid = len(sps) // the medoid's partner
				}
			} else {
				first[p.Label] = len(sps)
			}
			sps = append(sps, sp)
			golds = append(golds, p.Gold)
		}
		out, err := heuristics.ExtractSite(context.Background(), sps, heuristics.ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var scores []eval.PageScore
		for i, r := range out.Results {
			if out.Errs[i] != nil {
				t.Errorf("%s: %v", sps[i].Page.Name, out.Errs[i])
			}
			methods[r.Method]++
			scores = append(scores, eval.ScorePage(sps[i].Page.Name, s, golds[i], r.Text()))
		}
		sum := eval.Summarize(scores)
		t.Logf("%-12s F1 %.3f P %.3f R %.3f exactitude %.2f rules %d", s, sum.F1, sum.Precision, sum.Recall, sum.Exactitude, len(out.Rules))
		if sum.F1 < 0.93 {
			t.Errorf("site %s: F1 %.3f under 0.93", s, sum.F1)
		}
		all = append(all, scores...)
	}
	sum := eval.Summarize(all)
	t.Logf("all: F1 %.3f P %.3f R %.3f exactitude %.3f; methods %v", sum.F1, sum.Precision, sum.Recall, sum.Exactitude, methods)
	if sum.F1 <= 0.941 || sum.Exactitude < 0.99 {
		t.Errorf("overall F1 %.3f (want > 0.941), exactitude %.3f (want >= 0.99)", sum.F1, sum.Exactitude)
	}
	if methods[singlepage.MethodPair] < len(all)/2 {
		t.Errorf("pair diff decided only %d of %d pages: %v", methods[singlepage.MethodPair], len(all), methods)
	}
}
