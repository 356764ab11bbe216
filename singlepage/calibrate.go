package singlepage

import (
	"math"
	"sort"
	"strings"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/treediff"
)

// A method's own confidence (the single-page method's share of the page's
// article-like words, the pair diff's share of differing words) says how
// clear its choice was, not whether the choice was right: on pages of the
// web of 2025 (WCXB's dev split) single-page results at 1.0 included word
// F1 0.01. The confidence a Result reports is therefore calibrated: a
// logistic regression over the evidence of the extraction (Evidence: the
// method and its own confidence, the agreement of the body with
// go-trafilatura's, the chooser's probability that go-trafilatura's body
// is the better, a compared body's agreement with the block model's, the
// body's length, lines and link density, the page's type),
// then an isotonic map of its score to the word F1 met on annotated pages
// of that score. Both are fitted with cross-validation by site by
// heuristics/internal/fitconfidence (calibrate_model.go), so that
// Result.Confidence estimates the word F1 of the body on an unseen page.

// Evidence is what a Result's confidence is calibrated from.
type Evidence struct {
	// Raw is the method's own confidence (Result.RawConfidence).
	Raw    float64
	Method string
	// Agreement is the word F1 of the block model's body (with its units
	// or main region) against go-trafilatura's body of the same page
	// (WordOverlap), whichever was taken; -1 when not measured (a page
	// without source, the second opinion turned off, a method that
	// compared pages).
	Agreement float64
	// BodyWords and PageWords count the words of the body and of the page.
	BodyWords, PageWords int
	// PageLinkShare and BodyLinkShare are the shares of words in links, of
	// the page and of the chosen element (the page's without one).
	PageLinkShare, BodyLinkShare float64
	// TypeProbs are the page type's probabilities, in pagetype.Types order.
	TypeProbs []float64
	// PageFeatures are the page type classifier's inputs
	// (PageTypeFeatures), kept for refitting it.
	PageFeatures []float64
	// Chooser is the single-page chooser's highest probability that
	// another extractor's body beats the block model's (choose.go), -1
	// when no fitted chooser weighed one.
	Chooser float64
	// Block is the word F1 of a compared method's body (pair diff,
	// cluster rule) against the block model's body of the same page, -1
	// when not measured.
	Block float64
	// Shape is the body's line structure (ReadShape).
	Shape
}

// Shape describes a body by its lines: the pages whose body both
// extractors take too wide (an article with its comments, a page with
// its related stories) have long bodies of many lines, some repeated
// ("Reply", "Share"), many of them short lines with figures (dates,
// counts, prices).
type Shape struct {
	// Lines counts the body's non-empty lines.
	Lines int
	// RepeatShare is the share of lines whose words another line repeats.
	RepeatShare float64
	// FigureShare is the share of lines of fewer than shortLineWords words
	// holding a digit.
	FigureShare float64
}

// shortLineWords is the length under which a line with a digit is a
// date, a count or a price rather than a sentence.
const shortLineWords = 8

// ReadShape returns the shape of body.
func ReadShape(body string) Shape {
	seen := map[string]int{}
	var keys []string
	figures := 0
	for _, line := range strings.Split(body, "\n") {
		k := NormWords(line)
		if k == "" {
			continue
		}
		seen[k]++
		keys = append(keys, k)
		if strings.Count(k, " ")+1 < shortLineWords && strings.ContainsAny(line, "0123456789") {
			figures++
		}
	}
	if len(keys) == 0 {
		return Shape{}
	}
	repeated := 0
	for _, k := range keys {
		if seen[k] > 1 {
			repeated++
		}
	}
	n := float64(len(keys))
	return Shape{Lines: len(keys), RepeatShare: float64(repeated) / n, FigureShare: float64(figures) / n}
}

// chooserProb returns the fitted chooser's highest probability that one
// of c's candidates beats the base, and whether it weighed one.
func (c *Choice) chooserProb() (float64, bool) {
	p, ok := 0.0, false
	for _, cand := range c.Candidates {
		if m := choiceModels[cand.Name]; m.fitted(len(cand.Features)) {
			p, ok = max(p, m.Prob(cand.Features)), true
		}
	}
	return p, ok
}

// WithBlockBody returns r, located by comparing pages (pair diff or
// cluster rule), with its agreement with block, the block model's body of
// the same page, kept as evidence for its calibration (Evidence.Block).
func WithBlockBody(r Result, block string) Result {
	if r.Body != "" && block != "" {
		r.block, r.blockKnown = WordOverlap(r.Body, block), true
	}
	return r
}

// EvidenceNames names the values of Evidence.Vector, in order.
var EvidenceNames = append([]string{"raw", "single", "second opinion", "pair", "cluster",
	"agreement known", "agreement", "agreement×single", "raw×single", "raw×pair",
	"log body words", "body share", "log page words", "page link share", "body link share", "empty body",
	"log body words²", "log lines", "repeat share", "figure share", "chooser known", "chooser", "block known", "block",
	"agreement×second opinion", "block disagrees"},
	append(prefixed("type ", pagetype.Types), typeInteractions("template", "agreement")...)...)

// typeInteractions names the products of two values (a, b) with each page
// type's probability, in the order the feature vectors hold them.
func typeInteractions(a, b string) []string {
	var out []string
	for _, t := range pagetype.Types {
		out = append(out, a+"×"+t, b+"×"+t)
	}
	return out
}

func prefixed(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

// Vector returns the evidence as the calibration model's inputs, in
// EvidenceNames order.
func (e Evidence) Vector() []float64 {
	single, second := b2f(e.Method == MethodSingle), b2f(e.Method == MethodSecondOpinion)
	pair, clus := b2f(e.Method == MethodPair), b2f(e.Method == MethodCluster)
	known, agree := 0.0, 0.0
	if e.Agreement >= 0 {
		known, agree = 1, e.Agreement
	}
	v := []float64{e.Raw, single, second, pair, clus, known, agree, agree * single, e.Raw * single, e.Raw * pair,
		math.Log1p(float64(e.BodyWords)) / 10, min(float64(e.BodyWords)/float64(max(e.PageWords, 1)), 1),
		math.Log1p(float64(e.PageWords)) / 10, e.PageLinkShare, e.BodyLinkShare, b2f(e.BodyWords == 0)}
	lw := math.Log1p(float64(e.BodyWords)) / 10
	v = append(v, lw*lw, math.Log1p(float64(e.Lines))/10, e.RepeatShare, e.FigureShare)
	v = append(v, known01(e.Chooser)...)
	v = append(v, known01(e.Block)...)
	v = append(v, agree*second, measuredUnder(e.Block, blockAgrees))
	probs := e.TypeProbs
	if len(probs) != len(pagetype.Types) {
		probs = make([]float64, len(pagetype.Types))
	}
	v = append(v, probs...)
	// The same evidence weighs differently by method and page type: a
	// template's diff or an agreement means more on an article than on a
	// listing.
	for _, p := range probs {
		v = append(v, p*(pair+clus), p*agree)
	}
	return v
}

// blockAgrees is the block model's agreement with a template's body (pair
// diff, cluster rule) under which the two took different parts of the
// page: a third of the words or more apart, one of them is wrong, and
// the template's body is often the one (wide-dev's pair-diff pages at
// agreement 0.5-0.7 score word F1 0.5-0.65 at confidence 0.96-0.98 with
// the agreement weighed linearly: 1 and 0.97 weigh alike, 0.6 not
// enough apart).
const blockAgrees = 0.7

// measuredUnder reports, for a measure in [0, 1] that is negative when not
// measured, whether it was and fell under bar.
func measuredUnder(x, bar float64) float64 { return b2f(x >= 0 && x < bar) }

// known01 returns, for a measure in [0, 1] that is negative when not
// measured, whether it was and its value (0 when not).
func known01(x float64) []float64 {
	if x < 0 {
		return []float64{0, 0}
	}
	return []float64{1, x}
}

// calibrator maps Evidence to an estimated word F1: a logistic
// regression's score over the standardized evidence, then an isotonic
// (non-decreasing, piecewise linear) map of that score through the knots
// (X[i], Y[i]).
type calibrator struct {
	Mean, Std, W []float64
	Bias         float64
	X, Y         []float64
}

// Score is the logistic regression's output for e, in (0, 1).
func (c calibrator) score(v []float64) float64 {
	z := pagetype.Standardize(v, c.Mean, c.Std)
	return 1 / (1 + math.Exp(-(c.Bias + pagetype.Dot(c.W, z))))
}

// confidence returns the calibrated confidence of evidence vector v, or
// raw when no model is fitted (or it does not match v).
func (c calibrator) confidence(v []float64, raw float64) float64 {
	if len(c.W) != len(v) || len(c.X) == 0 {
		return raw
	}
	return Isotonic{X: c.X, Y: c.Y}.At(c.score(v))
}

// Isotonic is a non-decreasing piecewise linear map through the knots
// (X[i], Y[i]), X increasing; flat beyond the ends.
type Isotonic struct{ X, Y []float64 }

// At returns the map's value at x.
func (m Isotonic) At(x float64) float64 {
	n := len(m.X)
	if n == 0 {
		return 0
	}
	i := sort.SearchFloat64s(m.X, x)
	switch {
	case i == 0:
		return m.Y[0]
	case i == n:
		return m.Y[n-1]
	}
	x0, x1 := m.X[i-1], m.X[i]
	if x1 == x0 {
		return m.Y[i]
	}
	return m.Y[i-1] + (m.Y[i]-m.Y[i-1])*(x-x0)/(x1-x0)
}

// FitIsotonic fits the non-decreasing map of y on x minimizing squared
// error (pool adjacent violators); each pooled block becomes a knot at its
// mean x and mean y. len(x) == len(y).
func FitIsotonic(x, y []float64) Isotonic {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	type block struct{ sx, sy, n float64 }
	var bs []block
	for _, i := range idx {
		bs = append(bs, block{x[i], y[i], 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sy/a.n < b.sy/b.n {
				break
			}
			bs = append(bs[:len(bs)-2], block{a.sx + b.sx, a.sy + b.sy, a.n + b.n})
		}
	}
	m := Isotonic{X: make([]float64, len(bs)), Y: make([]float64, len(bs))}
	for i, b := range bs {
		m.X[i], m.Y[i] = b.sx/b.n, b.sy/b.n
	}
	return m
}

// Calibrate sets r's page type, keeps its method's confidence as
// RawConfidence and sets Confidence to the calibrated one. t is the page
// (as extracted: after VisibleTree), src its source (optional); second
// says whether go-trafilatura may be asked for its body to measure the
// agreement.
func Calibrate(r Result, t *treediff.Tree, src []byte, second bool) Result {
	if t == nil || t.Root == nil {
		return r
	}
	e := evidenceOf(r, t, src, second)
	r.PageType = pagetype.Types[pagetype.Argmax(e.TypeProbs)]
	r.RawConfidence = r.Confidence
	r.Evidence = &e
	r.Confidence = confidenceModel.confidence(e.Vector(), r.Confidence)
	return r
}

// evidenceOf gathers the evidence of r on page t.
func evidenceOf(r Result, t *treediff.Tree, src []byte, second bool) Evidence {
	rd := pagetype.Read(t, src)
	e := Evidence{Raw: r.Confidence, Method: r.Method, Agreement: -1, Chooser: -1, Block: -1,
		BodyWords: len(treediff.Words(r.Body)), PageWords: rd.Words(),
		PageLinkShare: rd.LinkShare(), PageFeatures: rd.Features,
		TypeProbs: rd.Probs, Shape: ReadShape(r.Body)}
	e.BodyLinkShare = e.PageLinkShare
	if share, ok := rd.ElementLinkShare(r.Node); ok {
		e.BodyLinkShare = share
	}
	if r.chooserKnown {
		e.Chooser = r.chooser
	}
	if r.blockKnown {
		e.Block = r.block
	}
	if r.Method != MethodSingle && r.Method != MethodSecondOpinion {
		return e
	}
	switch {
	case r.secondAsked:
		e.Agreement = r.agreement
	case second && len(src) > 0 && len(src) <= maxSecondOpinionBytes:
		if body, err := secondOpinion(src); err == nil {
			e.Agreement = WordOverlap(r.Body, body)
		}
	}
	return e
}

// b2f is 1 for true, 0 for false.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// WordOverlap is the F1 of the bags of lower-cased words of a and b
// (WCXB's word F1, a being the extraction and b the reference): 1 when
// both are empty, 0 when one is.
func WordOverlap(a, b string) float64 {
	bag := map[string]int{}
	na := 0
	for _, w := range treediff.Words(a) {
		bag[strings.ToLower(w.Text)]++
		na++
	}
	nb, common := 0, 0
	for _, w := range treediff.Words(b) {
		nb++
		k := strings.ToLower(w.Text)
		if bag[k] > 0 {
			bag[k]--
			common++
		}
	}
	switch {
	case na == 0 && nb == 0:
		return 1
	case common == 0:
		return 0
	}
	p, r := float64(common)/float64(na), float64(common)/float64(nb)
	return 2 * p * r / (p + r)
}
