package cluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/gleaner/gleaner/treediff"
)

// leaf matches an element without children in bracket notation.
var leaf = regexp.MustCompile(`\{[^{}]*\}`)

// perturbedSite returns n tag trees of one site: the testdata templates
// (two layouts, twelve pages) replicated, each copy with a few leaf elements
// deleted or duplicated at random, as pages of one template differ.
func perturbedSite(tb testing.TB, n int) []Page {
	tb.Helper()
	files, err := filepath.Glob("testdata/sites/[ab]-*.html")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no template pages in testdata/sites: %v", err)
	}
	sort.Strings(files)
	var base []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		t, err := treediff.Parse(f, src, treediff.ParseOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		base = append(base, t.View(treediff.TagView).Bracket())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pages := make([]Page, n)
	for i := range pages {
		s := base[i%len(base)]
		for e := 0; e < 1+rng.IntN(4); e++ {
			locs := leaf.FindAllStringIndex(s, -1)
			l := locs[rng.IntN(len(locs))]
			if rng.IntN(2) == 0 {
				s = s[:l[0]] + s[l[1]:]
			} else {
				s = s[:l[1]] + s[l[0]:l[1]] + s[l[1]:]
			}
		}
		name := fmt.Sprintf("page-%d", i)
		t, err := treediff.ParseBracket(name, s)
		if err != nil {
			tb.Fatal(err)
		}
		pages[i] = Page{Name: name, Tree: t}
	}
	return pages
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLearn learns one site of n pages from scratch (no cache). The
// TEDs/op metric counts tree edit distances: n(n-1)/2 up to the landmark
// threshold, then about (Landmarks + k)·n.
func BenchmarkLearn(b *testing.B) {
	for _, n := range []int{20, 50, 200, 1000} {
		pages := perturbedSite(b, n)
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			var teds int
			cpu0 := cpuTime()
			for b.Loop() {
				res, err := Learn(context.Background(), pages, Options{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				if res.K != 2 {
					b.Fatalf("k = %d, want the 2 layouts", res.K)
				}
				teds = res.Computed
			}
			b.ReportMetric(float64(teds), "TEDs/op")
			// Process CPU time: meaningful on a shared machine where wall
			// time depends on the other load.
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

func TestPerturbedSiteTwoTemplates(t *testing.T) {
	// The benchmark's pages keep their two templates, above and below the
	// landmark threshold.
	for _, n := range []int{24, 90} {
		pages := perturbedSite(t, n)
		res, err := Learn(context.Background(), pages, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		truth := make([]int, n)
		for i := range truth {
			if i%12 >= 6 {
				truth[i] = 1
			}
		}
		if ari, _ := AdjustedRandIndex(labelsOf(res), truth); res.K != 2 || ari < 1 {
			t.Errorf("%d pages: k %d ARI %.3f, want 2 and 1", n, res.K, ari)
		}
		if n > 60 && (len(res.Landmarks) == 0 || res.Computed > 35*n) {
			t.Errorf("%d pages: %d landmarks, %d distances", n, len(res.Landmarks), res.Computed)
		}
	}
}
