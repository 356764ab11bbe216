package heuristics_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/treediff"
)

// learnedPage is a big9-dev page with the medoid of its learned template.
type learnedPage struct {
	src    []byte
	medoid *treediff.Tree // nil: no template partner
}

// learnedBig9 learns the templates of each big9-dev site once and pairs
// every page with its cluster's medoid (a medoid with the next member).
func learnedBig9(b *testing.B) []learnedPage {
	ds, err := eval.LoadDataset(filepath.Join(shareddata.Dir(b, "big9-dev"), "manifest.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	bySite := map[string][]int{}
	for i, p := range ds.Pages {
		bySite[p.Site] = append(bySite[p.Site], i)
	}
	var out []learnedPage
	for _, idx := range bySite {
		trees := make([]*treediff.Tree, len(idx))
		pages := make([]cluster.Page, len(idx))
		for j, i := range idx {
			if trees[j], err = treediff.Parse(ds.Pages[i].ID, ds.Src[i], treediff.ParseOptions{}); err != nil {
				b.Fatal(err)
			}
			pages[j] = cluster.Page{Name: ds.Pages[i].ID, Tree: trees[j].View(treediff.TagView)}
		}
		res, err := cluster.Learn(context.Background(), pages, cluster.Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		for j, i := range idx {
			lp := learnedPage{src: ds.Src[i]}
			if c := res.Members[j].Cluster; c >= 0 && !res.Members[j].Outlier {
				cl := res.Clusters[c]
				for _, m := range append([]int{cl.Medoid}, cl.Members...) {
					if m != j {
						lp.medoid = trees[m]
						break
					}
				}
			}
			out = append(out, lp)
		}
	}
	return out
}

// BenchmarkLearnedSite measures extraction on big9-dev pages of sites whose
// templates are learned (parsing the page included; the medoids are parsed
// once, with the templates) against go-trafilatura on the same pages in the
// same run, as configured by evalcmp. Both report pages/s.
//
//	go test ./heuristics -run '^$' -bench LearnedSite -count 5 | benchstat -
func BenchmarkLearnedSite(b *testing.B) {
	pages := learnedBig9(b)
	b.Run("gleaner", func(b *testing.B) {
		for b.Loop() {
			for _, p := range pages {
				t, err := treediff.Parse("page", p.src, treediff.ParseOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := heuristics.Extract(heuristics.Input{Page: t, Medoid: p.medoid, Src: p.src}, heuristics.ExtractOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "pages/s")
	})
	b.Run("trafilatura", func(b *testing.B) {
		for b.Loop() {
			for _, p := range pages {
				text, _, err := treediff.Decode(p.src, "")
				if err != nil {
					b.Fatal(err)
				}
				doc, err := html.Parse(strings.NewReader(text))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := trafilatura.ExtractDocument(doc, trafilatura.Options{EnableFallback: true}); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "pages/s")
	})
}
