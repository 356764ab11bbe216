package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"text/tabwriter"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/pagemeta"
)

// Fitting constants: gradient steps, their rate and the L2 penalty.
const (
	steps = 600
	rate  = 1.0
	l2    = 0.003
	folds = 5
)

// right is the index of r's candidate that is the gold title, -1 when
// none is.
func (r record) right() int {
	for i, c := range r.Cands {
		if pagemeta.SameTitle(r.Gold, c.Text) {
			return i
		}
	}
	return -1
}

// ruleIndex is the hand rules' candidate (feature 0 set).
func (r record) ruleIndex() int {
	for i, c := range r.Cands {
		if len(c.Features) > 0 && c.Features[0] == 1 {
			return i
		}
	}
	return -1
}

// alsoChosen are page types the chooser is tried on besides those it
// decides (--choose, to weigh a wider chooser held out before changing
// pagemeta.ChoosesTitle).
var alsoChosen listFlag

// chosen reports whether the chooser decides r's title: a page of a
// type other than article (pagemeta.HeadlineOf keeps the hand rules'
// headline on articles, where the model gains nothing over them), or
// of a type tried with --choose.
func (r record) chosen() bool {
	return pagemeta.ChoosesTitle(r.PageType) || slices.Contains(alsoChosen, r.PageType)
}

// pick is the candidate weights w score highest, the rules' on a page
// the chooser does not decide.
func pick(w []float64, r record) int {
	if !r.chosen() {
		return r.ruleIndex()
	}
	best, bestS := -1, math.Inf(-1)
	for i, c := range r.Cands {
		if s := dot(w, c.Features); s > bestS {
			best, bestS = i, s
		}
	}
	return best
}

func dot(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		if j < len(b) {
			s += a[j] * b[j]
		}
	}
	return s
}

// fit fits the conditional logit on recs' pages that have a right
// candidate and more than one.
func fit(recs []record) []float64 {
	d := 0
	for _, r := range recs {
		for _, c := range r.Cands {
			d = max(d, len(c.Features))
		}
	}
	w := make([]float64, d)
	grad := make([]float64, d)
	for s := 0; s < steps; s++ {
		clear(grad)
		n := 0
		for _, r := range recs {
			if y := r.right(); y >= 0 && len(r.Cands) > 1 {
				addGrad(grad, w, r, y)
				n++
			}
		}
		for j := range w {
			w[j] -= rate * (grad[j]/float64(max(n, 1)) + l2*w[j])
		}
	}
	return w
}

// addGrad adds the gradient of one page's negative log-likelihood.
func addGrad(grad, w []float64, r record, y int) {
	ps := make([]float64, len(r.Cands))
	top := math.Inf(-1)
	for i, c := range r.Cands {
		ps[i] = dot(w, c.Features)
		top = math.Max(top, ps[i])
	}
	sum := 0.0
	for i := range ps {
		ps[i] = math.Exp(ps[i] - top)
		sum += ps[i]
	}
	for i, c := range r.Cands {
		e := ps[i] / sum
		if i == y {
			e--
		}
		for j, x := range c.Features {
			grad[j] += e * x
		}
	}
}

func fitAll(recs []record) []float64 { return fit(recs) }

// foldOf is a site's fold (dataset.SiteFold).
func foldOf(site string) int { return dataset.SiteFold(site, folds) }

// heldOut is each page's pick by the model fitted without its fold.
func heldOut(recs []record) []int {
	picks := make([]int, len(recs))
	for f := 0; f < folds; f++ {
		var train []record
		for _, r := range recs {
			if foldOf(r.Site) != f {
				train = append(train, r)
			}
		}
		w := fit(train)
		for i, r := range recs {
			if foldOf(r.Site) == f {
				picks[i] = pick(w, r)
			}
		}
	}
	return picks
}

// tallyRow counts one group's exact titles.
type tallyRow struct{ pages, rule, held, in, best int }

// report writes per set and page type the exact titles of the rules,
// the chooser (held out, in sample) and the best candidate, then the
// weights.
func report(w io.Writer, recs []record, held []int, weights []float64) {
	rows := map[string]*tallyRow{}
	var keys []string
	for i, r := range recs {
		for _, k := range []string{r.Set + " all", r.Set + " " + r.Era} {
			if rows[k] == nil {
				rows[k] = &tallyRow{}
				keys = append(keys, k)
			}
			t, y := rows[k], r.right()
			t.pages++
			t.rule += b2i(y >= 0 && r.ruleIndex() == y)
			t.held += b2i(y >= 0 && held[i] == y)
			t.in += b2i(y >= 0 && pick(weights, r) == y)
			t.best += b2i(y >= 0)
		}
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "set page type\tpages\trules\theld out\tin sample\tbest candidate\t\n")
	for _, k := range keys {
		t := rows[k]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t\n", k, t.pages, pct(t.rule, t.pages), pct(t.held, t.pages), pct(t.in, t.pages), pct(t.best, t.pages))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nweights:")
	for j, x := range weights {
		fmt.Fprintf(w, "  %s %.3f\n", featureName(j), x)
	}
}

func pct(n, d int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(max(d, 1))) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
