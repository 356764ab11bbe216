package singlepage

import (
	"math"

	"github.com/gleaner/gleaner/pagetype"
)

// chooser weighs a candidate against the page's own body: a logistic
// regression over the standardized evidence (Candidate.Features) of the
// probability that the candidate's body scores the better word F1 on the
// page, fitted on annotated pages with folds by site by
// heuristics/internal/fitconfidence --chooser (choose_model.go).
type chooser struct {
	Mean, Std, W []float64
	Bias         float64
	// Above is the probability over which a candidate is taken.
	Above float64
}

// fitted reports whether the model takes n features.
func (m chooser) fitted(n int) bool { return len(m.W) == n && n > 0 }

// Prob is the probability that a candidate of features v beats the base.
func (m chooser) Prob(v []float64) float64 {
	z := pagetype.Standardize(v, m.Mean, m.Std)
	return 1 / (1 + math.Exp(-(m.Bias + pagetype.Dot(m.W, z))))
}

// choose returns the index of the candidate that replaces the base, -1
// for none (see chooseWith).
func (c *Choice) choose() int {
	return c.chooseWith(choiceModels)
}

// Chosen returns the index of the candidate the fitted chooser
// (choose_model.go) takes over the base, -1 for none: fitconfidence
// reports it beside a refit, as the chooser before.
func (c *Choice) Chosen() int { return c.choose() }

// chooseWith returns the candidate whose model (ms, by candidate name)
// gives it the highest probability of beating the base over that
// model's bar (Above): each kind of candidate has its own model, as the
// evidence weighs differently for another extractor's body and for a
// fusion. Without a fitted model, the fixed rule decides on
// go-trafilatura's body (the feature "rule takes it", see fuse).
func (c *Choice) chooseWith(ms map[string]chooser) int {
	best, bestMargin := -1, 0.0
	for i, cand := range c.Candidates {
		if cand.same {
			continue
		}
		p, bar := 0.0, 0.5
		switch m := ms[cand.Name]; {
		case m.fitted(len(cand.Features)):
			p, bar = m.Prob(cand.Features), max(m.Above, 0.5)
		case cand.Name == CandidateTrafilatura && len(cand.Features) > ruleFeature:
			p = cand.Features[ruleFeature]
		}
		if p-bar > bestMargin {
			best, bestMargin = i, p-bar
		}
	}
	return best
}

// ruleFeature is the index of the fixed rule's verdict in the features.
const ruleFeature = 0

// take returns the base with candidate i's body.
func (c *Choice) take(i int) Result {
	r := c.Base
	r.Body, r.Method, r.lineWords = c.Candidates[i].Body, MethodSecondOpinion, 0
	// The body no longer comes from one element of the page.
	r.Node, r.Selector = nil, ""
	return r
}
