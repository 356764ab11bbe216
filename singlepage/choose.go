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
// for none: the one the model gives the highest probability of beating
// the base, when that is over the model's bar (Above). Without a fitted model, the
// fixed rule decides on go-trafilatura's body (the feature "rule takes
// it", see fuse).
func (c *Choice) choose() int {
	return c.chooseWith(choiceModel)
}

func (c *Choice) chooseWith(m chooser) int {
	best, bestP := -1, max(m.Above, 0.5)
	for i, cand := range c.Candidates {
		if cand.same {
			continue
		}
		p := 0.0
		switch {
		case m.fitted(len(cand.Features)):
			p = m.Prob(cand.Features)
		case cand.Name == CandidateTrafilatura && len(cand.Features) > ruleFeature:
			p = cand.Features[ruleFeature]
		}
		if p > bestP {
			best, bestP = i, p
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
