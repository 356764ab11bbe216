package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"

	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/singlepage"
)

// fitter fits the two models on the records, with folds by site.
type fitter struct {
	recs  []record
	folds int
	// articleSources are the eras (sources) whose pages are all articles:
	// they train the page type classifier as such.
	articleSources []string
	articleWeight  float64
	// typeProbs are each record's page type probabilities from the
	// classifier of the fold that did not see its site (set by pageTypes).
	typeProbs [][]float64
	// held is each record's calibrated confidence from the fold that did
	// not see its site (set by calibration).
	held []float64
}

// Settings of the regressions: L2 penalty and gradient steps of the page
// type classifier and of the calibration, step size (features are
// standardized). Tried on the cross-validated results: (0.01, 600),
// (0.003, 1500) and (0.001, 2000) give page type accuracies 0.825, 0.820,
// 0.814 (wcxb-dev alone) and wcxb-dev shares of pages at calibrated
// confidence >= 0.9 with word F1 >= 0.8 of 94.9 %, 94.8 %, 95.0 %.
const (
	l2Type, stepsType = 0.01, 600
	l2Cal, stepsCal   = 0.001, 2000
	rate              = 0.5
)

// pageTypes fits the page type classifier, reports its cross-validated
// accuracy and confusion (and the types found on the records of other
// sets), and returns the model fitted on all typed records.
func (f *fitter) pageTypes(w io.Writer) (linearModel, error) {
	var xs [][]float64
	var ys, idx []int
	for i, r := range f.recs {
		if c := f.typeOf(r); c >= 0 && len(r.Ev.PageFeatures) > 0 {
			xs, ys, idx = append(xs, r.Ev.PageFeatures), append(ys, c), append(idx, i)
		}
	}
	if len(xs) == 0 {
		return linearModel{}, fmt.Errorf("no page of a known page type (era one of %v)", pagetype.Types)
	}
	k := len(pagetype.Types)
	pred := f.heldOutTypes(xs, ys, idx)
	conf := make([][]int, k)
	for i := range conf {
		conf[i] = make([]int, k)
	}
	for j, p := range pred {
		if slices.Contains(pagetype.Types, f.recs[idx[j]].Era) {
			conf[ys[j]][argmax(p)]++
		}
	}
	all := fitSoftmax(xs, ys, f.weights(idx), k)
	f.typeProbs = make([][]float64, len(f.recs))
	for i, r := range f.recs {
		if len(r.Ev.PageFeatures) > 0 {
			f.typeProbs[i] = all.probs(r.Ev.PageFeatures)
		}
	}
	for j, i := range idx {
		f.typeProbs[i] = pred[j]
	}
	writeConfusion(w, conf)
	f.writeArticleSources(w, idx, pred)
	f.writeOtherSets(w, idx)
	return all, nil
}

// weights are the weights of records idx in the page type fit: those of
// the article sources weigh articleWeight, so that they teach what old
// news pages look like without drowning the other types.
func (f *fitter) weights(idx []int) []float64 {
	ws := make([]float64, len(idx))
	for j, i := range idx {
		ws[j] = 1
		if !slices.Contains(pagetype.Types, f.recs[i].Era) {
			ws[j] = f.articleWeight
		}
	}
	return ws
}

// typeOf is the page type class of r: its era when that is a page type,
// article for a source of articles (articleSources), else -1.
func (f *fitter) typeOf(r record) int {
	if c := slices.Index(pagetype.Types, r.Era); c >= 0 {
		return c
	}
	if slices.Contains(f.articleSources, r.Era) {
		return slices.Index(pagetype.Types, pagetype.Article)
	}
	return -1
}

// writeArticleSources reports the held-out types of the pages of the
// article sources.
func (f *fitter) writeArticleSources(w io.Writer, idx []int, pred [][]float64) {
	for _, src := range f.articleSources {
		counts := make([]int, len(pagetype.Types))
		for j, i := range idx {
			if f.recs[i].Era == src {
				counts[argmax(pred[j])]++
			}
		}
		fmt.Fprintf(w, "%s (articles, held-out folds) page types:", src)
		for c, n := range counts {
			if n > 0 {
				fmt.Fprintf(w, " %s %d", pagetype.Types[c], n)
			}
		}
		fmt.Fprintln(w)
	}
}

// heldOutTypes returns the page type probabilities of each typed record
// (xs, ys; idx their records) from the classifier fitted on the other
// folds.
func (f *fitter) heldOutTypes(xs [][]float64, ys, idx []int) [][]float64 {
	pred := make([][]float64, len(xs))
	for fold := 0; fold < f.folds; fold++ {
		var tx [][]float64
		var ty, ti []int
		for j := range xs {
			if foldOf(f.recs[idx[j]].Site, f.folds) != fold {
				tx, ty, ti = append(tx, xs[j]), append(ty, ys[j]), append(ti, idx[j])
			}
		}
		m := fitSoftmax(tx, ty, f.weights(ti), len(pagetype.Types))
		for j := range xs {
			if foldOf(f.recs[idx[j]].Site, f.folds) == fold {
				pred[j] = m.probs(xs[j])
			}
		}
	}
	return pred
}

func writeConfusion(w io.Writer, conf [][]int) {
	right, total := 0, 0
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "gold \\ predicted\t")
	for _, t := range pagetype.Types {
		fmt.Fprintf(tw, "%.4s\t", t)
	}
	fmt.Fprintf(tw, "recall\t\n")
	for i, row := range conf {
		n := 0
		for _, c := range row {
			n += c
		}
		fmt.Fprintf(tw, "%s\t", pagetype.Types[i])
		for _, c := range row {
			fmt.Fprintf(tw, "%d\t", c)
		}
		fmt.Fprintf(tw, "%.2f\t\n", float64(row[i])/float64(max(n, 1)))
		right, total = right+row[i], total+n
	}
	tw.Flush()
	fmt.Fprintf(w, "page type accuracy (cross-validated by site): %.3f (%d of %d)\n\n", float64(right)/float64(max(total, 1)), right, total)
}

// writeOtherSets reports the types found on the pages of sets without a
// page type (all articles for news benchmarks: a sanity check).
func (f *fitter) writeOtherSets(w io.Writer, typed []int) {
	counts := map[string][]int{}
	var sets []string
	for i, r := range f.recs {
		if slices.Contains(typed, i) || f.typeProbs[i] == nil {
			continue
		}
		if counts[r.Set] == nil {
			counts[r.Set] = make([]int, len(pagetype.Types))
			sets = append(sets, r.Set)
		}
		counts[r.Set][argmax(f.typeProbs[i])]++
	}
	for _, s := range sets {
		fmt.Fprintf(w, "%s page types:", s)
		for c, n := range counts[s] {
			if n > 0 {
				fmt.Fprintf(w, " %s %d", pagetype.Types[c], n)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// vector is record i's evidence with the page type probabilities of the
// classifier that did not see it.
func (f *fitter) vector(i int) []float64 {
	ev := f.recs[i].Ev
	if f.typeProbs[i] != nil {
		ev.TypeProbs = f.typeProbs[i]
	}
	return ev.Vector()
}

// calibration fits the calibrated confidence, reports it per set before
// and after (held-out folds) and returns the model fitted on all records.
func (f *fitter) calibration(w io.Writer) calibrator {
	n := len(f.recs)
	xs, ys, folds := make([][]float64, n), make([]float64, n), make([]int, n)
	for i := range f.recs {
		xs[i], ys[i], folds[i] = f.vector(i), f.recs[i].F1, foldOf(f.recs[i].Site, f.folds)
	}
	held := make([]float64, n)
	for fold := 0; fold < f.folds; fold++ {
		var tx [][]float64
		var ty []float64
		var tf []int
		for i := range xs {
			if folds[i] != fold {
				tx, ty, tf = append(tx, xs[i]), append(ty, ys[i]), append(tf, folds[i])
			}
		}
		c := fitCalibrator(tx, ty, tf)
		for i := range xs {
			if foldOf(f.recs[i].Site, f.folds) == fold {
				held[i] = c.confidence(xs[i], f.recs[i].Ev.Raw)
			}
		}
	}
	f.held = held
	f.writeCalibration(w, held)
	return fitCalibrator(xs, ys, folds)
}

func (f *fitter) writeCalibration(w io.Writer, held []float64) {
	var sets []string
	for _, r := range f.recs {
		if !slices.Contains(sets, r.Set) {
			sets = append(sets, r.Set)
		}
	}
	for _, s := range sets {
		var before, after []eval.ConfidencePoint
		for i, r := range f.recs {
			if r.Set == s {
				raw := r.Ev.Raw
				if r.Err != "" {
					raw = 0
				}
				before = append(before, eval.ConfidencePoint{Confidence: raw, F1: r.F1})
				after = append(after, eval.ConfidencePoint{Confidence: held[i], F1: r.F1})
			}
		}
		fmt.Fprintf(w, "%s: calibration, methods' own confidence → calibrated (held-out folds by site)\n", s)
		eval.WriteCalibrationSideBySide(w, []string{"raw", "calibrated"}, eval.CalibrationTable(before), eval.CalibrationTable(after))
		fmt.Fprintln(w)
	}
}

// linearModel and calibrator mirror the types of pagetype and singlepage they are written
// as (see writeGo).
type linearModel struct {
	Mean, Std []float64
	W         [][]float64
	Bias      []float64
}

func (m linearModel) probs(x []float64) []float64 {
	z := pagetype.Standardize(x, m.Mean, m.Std)
	out := make([]float64, len(m.W))
	for c := range out {
		out[c] = m.Bias[c] + dot(m.W[c], z)
	}
	return pagetype.Softmax(out)
}

type calibrator struct {
	Mean, Std, W []float64
	Bias         float64
	X, Y         []float64
}

func (c calibrator) score(x []float64) float64 {
	return sigmoid(c.Bias + dot(c.W, pagetype.Standardize(x, c.Mean, c.Std)))
}

func (c calibrator) confidence(x []float64, _ float64) float64 {
	return singlepage.Isotonic{X: c.X, Y: c.Y}.At(c.score(x))
}

// fitCalibrator fits a logistic regression of y (in [0, 1]) on xs, then
// the isotonic map of scores to y. The map is fitted on the scores each
// example gets from the regression fitted without its fold (folds[i], by
// site), not on the regression's own, optimistic, scores of the examples
// it was fitted on: at the top of the scale those are the pages it fits
// best, and a map fitted on them promises unseen pages more than they get.
func fitCalibrator(xs [][]float64, ys []float64, folds []int) calibrator {
	c := fitLogistic(xs, ys)
	iso := singlepage.FitIsotonic(outOfFoldScores(xs, ys, folds, c), ys)
	c.X, c.Y = iso.X, iso.Y
	return c
}

// outOfFoldScores returns each example's score by the regression fitted
// on the examples of the other folds; all is the regression fitted on
// every example, whose scores stand in when there is one fold only.
func outOfFoldScores(xs [][]float64, ys []float64, folds []int, all calibrator) []float64 {
	scores := make([]float64, len(xs))
	for i, x := range xs {
		scores[i] = all.score(x)
	}
	seen := map[int]bool{}
	for _, f := range folds {
		seen[f] = true
	}
	if len(seen) < 2 {
		return scores
	}
	for fold := range seen {
		var tx [][]float64
		var ty []float64
		for i := range xs {
			if folds[i] != fold {
				tx, ty = append(tx, xs[i]), append(ty, ys[i])
			}
		}
		m := fitLogistic(tx, ty)
		for i, x := range xs {
			if folds[i] == fold {
				scores[i] = m.score(x)
			}
		}
	}
	return scores
}

// fitLogistic fits a logistic regression of y (in [0, 1]) on xs (the
// calibrator without its map).
func fitLogistic(xs [][]float64, ys []float64) calibrator {
	mean, std := moments(xs)
	zs := standardizeAll(xs, mean, std)
	d := len(mean)
	c := calibrator{Mean: mean, Std: std, W: make([]float64, d)}
	grad := make([]float64, d)
	for s := 0; s < stepsCal; s++ {
		clear(grad)
		gb := 0.0
		for i, z := range zs {
			e := sigmoid(c.Bias+dot(c.W, z)) - ys[i]
			gb += e
			for j := range z {
				grad[j] += e * z[j]
			}
		}
		nf := float64(len(zs))
		c.Bias -= rate * gb / nf
		for j := range c.W {
			c.W[j] -= rate * (grad[j]/nf + l2Cal*c.W[j])
		}
	}
	return c
}

// fitSoftmax fits a multinomial logistic regression of the classes ys
// (0..k-1) on xs.
// ws weighs each example (nil: all 1).
func fitSoftmax(xs [][]float64, ys []int, ws []float64, k int) linearModel {
	mean, std := moments(xs)
	zs := standardizeAll(xs, mean, std)
	d := len(mean)
	m := linearModel{Mean: mean, Std: std, W: make([][]float64, k), Bias: make([]float64, k)}
	grad := make([][]float64, k)
	for c := range m.W {
		m.W[c], grad[c] = make([]float64, d), make([]float64, d)
	}
	gb := make([]float64, k)
	p := make([]float64, k)
	for s := 0; s < stepsType; s++ {
		for c := range grad {
			clear(grad[c])
		}
		clear(gb)
		for i, z := range zs {
			for c := range p {
				p[c] = m.Bias[c] + dot(m.W[c], z)
			}
			pagetype.Softmax(p)
			for c := range p {
				e := p[c] - b2f(c == ys[i])
				if ws != nil {
					e *= ws[i]
				}
				gb[c] += e
				for j := range z {
					grad[c][j] += e * z[j]
				}
			}
		}
		nf := float64(len(zs))
		for c := range m.W {
			m.Bias[c] -= rate * gb[c] / nf
			for j := range m.W[c] {
				m.W[c][j] -= rate * (grad[c][j]/nf + l2Type*m.W[c][j])
			}
		}
	}
	return m
}

func moments(xs [][]float64) (mean, std []float64) {
	d := len(xs[0])
	mean, std = make([]float64, d), make([]float64, d)
	for _, x := range xs {
		for j, v := range x {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(len(xs))
	}
	for _, x := range xs {
		for j, v := range x {
			std[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	for j := range std {
		std[j] = math.Sqrt(std[j] / float64(len(xs)))
	}
	return mean, std
}

func standardizeAll(xs [][]float64, mean, std []float64) [][]float64 {
	zs := make([][]float64, len(xs))
	for i, x := range xs {
		zs[i] = pagetype.Standardize(x, mean, std)
	}
	return zs
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}
