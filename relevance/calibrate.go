package relevance

import (
	"math"
	"sort"
)

// DefaultThreshold is the lexicon score from which a text is relevant
// before any calibration.
const DefaultThreshold = 1.0

// Expansion keeps words of 4 letters or more: in a sample of a few dozen
// pages, 3-letter function words of one language ("and", "les", "den")
// pass the log-odds test when the relevant pages lean towards it.
//
// ExpandedWeight is the weight of the strongest term added by the first
// iteration: half a seed term, since the sample it comes from is small and
// skewed towards the sites and languages crawled first.
const ExpandedWeight = 0.5

// Sample is a text scored during the first iteration, kept to calibrate.
type Sample struct {
	Text  string
	Score float64
	Match bool // the formula holds (or there is none)
}

// Calibration is what Calibrate changed.
type Calibration struct {
	// Threshold is the new threshold (the old one when no cut was found).
	Threshold float64
	// Added are the terms the lexicon was expanded with.
	Added []WeightedTerm
	// Relevant is how many texts of the sample the old model found
	// relevant.
	Relevant int
}

// Calibrate is the first iteration over a sample of scored texts: when
// expand, lex is expanded with the terms most specific to the texts found
// relevant at threshold (log-odds against the others), and the threshold
// is set by Otsu's method on the sample's new scores (see calibrateScores),
// never above the score of most texts the old model found relevant.
func Calibrate(lex *Lexicon, sample []Sample, threshold float64, expand bool) Calibration {
	var rel, ref []string
	for _, s := range sample {
		if s.Match && s.Score >= threshold {
			rel = append(rel, s.Text)
		} else {
			ref = append(ref, s.Text)
		}
	}
	out := Calibration{Threshold: threshold, Relevant: len(rel)}
	if expand && len(rel) >= 2 && len(ref) >= 2 {
		out.Added = lex.Expand(rel, ref, ExpandOptions{MaxWeight: ExpandedWeight, MinLen: 4})
	}
	scores := make([]float64, len(sample))
	for i, s := range sample {
		scores[i] = lex.Score(s.Text)
	}
	if t, ok := calibrateScores(scores); ok {
		out.Threshold = min(t, keptScore(sample, scores, threshold))
	}
	return out
}

// keptScore is the new score under which the cut would lose more than a
// tenth of the texts the old model found relevant: a sample of nearly only
// relevant texts has no valley to find. +Inf when there were none.
func keptScore(sample []Sample, scores []float64, threshold float64) float64 {
	var pos []float64
	for i, s := range sample {
		if s.Match && s.Score >= threshold {
			pos = append(pos, scores[i])
		}
	}
	if len(pos) == 0 {
		return math.Inf(1)
	}
	sort.Float64s(pos)
	return pos[len(pos)/10]
}

// calibrateScores is the threshold of a sample of scores: Otsu's cut on the
// scores and on their logarithms, whichever is lower. Scores are heavy-tailed
// (an expanded lexicon adds up on pages of the sample's majority language,
// far above equally relevant pages in other languages); the log scale
// keeps those from pulling the cut above the minority's relevant pages.
func calibrateScores(scores []float64) (float64, bool) {
	t, err := CalibrateThreshold(scores)
	if err != nil || t <= 0 {
		return 0, false
	}
	logs := make([]float64, len(scores))
	for i, s := range scores {
		logs[i] = math.Log1p(s)
	}
	if lt, err := CalibrateThreshold(logs); err == nil && math.Expm1(lt) < t {
		t = math.Expm1(lt)
	}
	return t, true
}
