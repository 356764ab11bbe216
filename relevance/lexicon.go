package relevance

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Lexicon is a weighted list of lower-cased terms describing a topic: the
// categorizer of Babouk (seeds 001/003). A document's score is
//
//	score(d) = Σ_t w_t · (1 + ln tf(t,d)) / ln(e + |d|/100)
//
// over the lexicon terms t present in d, |d| its word count: each term counts
// with diminishing returns for repetition, and the mild length damping keeps a
// long off-topic page that mentions a term in passing below a short on-topic
// one. Seed terms weigh 1; expanded terms weigh their log-odds relative to the
// strongest (see Expand).
type Lexicon struct {
	weights map[string]float64
}

// NewLexicon returns a lexicon of seed terms, each of weight 1.
func NewLexicon(seeds []string) *Lexicon {
	l := &Lexicon{weights: map[string]float64{}}
	for _, s := range seeds {
		for _, w := range treediff.Words(s) {
			l.weights[strings.ToLower(w.Text)] = 1
		}
	}
	return l
}

// LexiconOf returns the lexicon of the given term weights (as Weights
// returns them; the map is the lexicon's from then on).
func LexiconOf(weights map[string]float64) *Lexicon {
	if weights == nil {
		weights = map[string]float64{}
	}
	return &Lexicon{weights: weights}
}

// Weights returns a copy of the term weights, to store the lexicon.
func (l *Lexicon) Weights() map[string]float64 {
	out := make(map[string]float64, len(l.weights))
	for t, w := range l.weights {
		out[t] = w
	}
	return out
}

// Len is the number of terms.
func (l *Lexicon) Len() int { return len(l.weights) }

// Weight returns a term's weight (0 if absent).
func (l *Lexicon) Weight(term string) float64 { return l.weights[strings.ToLower(term)] }

// Terms returns the terms, heaviest first (ties in alphabetical order).
func (l *Lexicon) Terms() []WeightedTerm {
	out := make([]WeightedTerm, 0, len(l.weights))
	for t, w := range l.weights {
		out = append(out, WeightedTerm{t, w})
	}
	sortTerms(out)
	return out
}

// WeightedTerm is a lexicon entry.
type WeightedTerm struct {
	Term   string
	Weight float64
}

// Counts returns the lower-cased word counts of a text and its word total.
func Counts(text string) (map[string]int, int) {
	c := map[string]int{}
	n := 0
	for _, w := range treediff.Words(text) {
		c[strings.ToLower(w.Text)]++
		n++
	}
	return c, n
}

// Score returns the relevance score of a text (see Lexicon).
func (l *Lexicon) Score(text string) float64 {
	c, n := Counts(text)
	return l.ScoreCounts(c, n)
}

// ScoreCounts is Score on precomputed word counts.
func (l *Lexicon) ScoreCounts(counts map[string]int, total int) float64 {
	if total == 0 {
		return 0
	}
	s := 0.0
	for t, w := range l.weights {
		if tf := counts[t]; tf > 0 {
			s += w * (1 + math.Log(float64(tf)))
		}
	}
	return s / math.Log(math.E+float64(total)/100)
}

// ExpandOptions tunes Expand.
type ExpandOptions struct {
	// MaxTerms is how many new terms to add at most (default 30).
	MaxTerms int
	// MinDocs is how many relevant documents a term must occur in (default 2).
	MinDocs int
	// MinLen is the shortest term kept, in runes (default 3): shorter words are
	// mostly function words.
	MinLen int
	// MaxWeight is the weight of the strongest added term (default 1, the
	// weight of a seed term); the others are scaled alike.
	MaxWeight float64
}

// Expand adds to the lexicon the terms most specific to the relevant texts
// against the reference (non-relevant) texts, by the log-odds ratio of de
// Groc's thesis with add-one smoothing:
//
//	lo(t) = ln(tf(t,E)+1) + ln(N_R − tf(t,R)+1) − ln(tf(t,R)+1) − ln(N_E − tf(t,E)+1)
//
// where E is the relevant corpus, R the reference, tf a term's count and N a
// corpus' word total. Kept terms have lo > 0, occur in MinDocs relevant texts,
// and weigh MaxWeight · lo / max lo of the kept terms (so ≤ 1, the weight of
// a seed term).
// It returns the added terms.
func (l *Lexicon) Expand(relevant, reference []string, opt ExpandOptions) []WeightedTerm {
	opt = opt.withDefaults()
	e, r := corpusCounts(relevant), corpusCounts(reference)
	var cand []WeightedTerm
	for t, tf := range e.tf {
		if _, ok := l.weights[t]; ok || e.docs[t] < opt.MinDocs || len([]rune(t)) < opt.MinLen || isNumber(t) {
			continue
		}
		rf := r.tf[t]
		lo := math.Log(float64(tf)+1) + math.Log(float64(r.n-rf)+1) - math.Log(float64(rf)+1) - math.Log(float64(e.n-tf)+1)
		if lo > 0 {
			cand = append(cand, WeightedTerm{t, lo})
		}
	}
	sortTerms(cand)
	if len(cand) > opt.MaxTerms {
		cand = cand[:opt.MaxTerms]
	}
	if len(cand) == 0 {
		return nil
	}
	top := cand[0].Weight
	for i := range cand {
		cand[i].Weight = cand[i].Weight / top * opt.MaxWeight
		l.weights[cand[i].Term] = cand[i].Weight
	}
	return cand
}

func (opt ExpandOptions) withDefaults() ExpandOptions {
	if opt.MaxTerms <= 0 {
		opt.MaxTerms = 30
	}
	if opt.MinDocs <= 0 {
		opt.MinDocs = 2
	}
	if opt.MinLen <= 0 {
		opt.MinLen = 3
	}
	if opt.MaxWeight <= 0 || opt.MaxWeight > 1 {
		opt.MaxWeight = 1
	}
	return opt
}

// corpus is what Expand counts of a set of texts: each term's count and
// number of texts, and the word total.
type corpus struct {
	tf, docs map[string]int
	n        int
}

func corpusCounts(texts []string) corpus {
	c := corpus{tf: map[string]int{}, docs: map[string]int{}}
	for _, d := range texts {
		counts, n := Counts(d)
		c.n += n
		for t, k := range counts {
			c.tf[t] += k
			c.docs[t]++
		}
	}
	return c
}

// sortTerms sorts terms heaviest first, ties in alphabetical order.
func sortTerms(ts []WeightedTerm) {
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].Weight != ts[j].Weight {
			return ts[i].Weight > ts[j].Weight
		}
		return ts[i].Term < ts[j].Term
	})
}

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// CalibrateThreshold picks the relevance threshold from a sample of document
// scores by Otsu's method: the cut that maximises the between-class variance
// of the scores below and above it. Scores of a focused crawl's first pages
// are bimodal (on-topic pages and the rest); Otsu finds the valley without a
// hand-set constant. It needs at least 4 scores and two distinct values.
func CalibrateThreshold(scores []float64) (float64, error) {
	if len(scores) < 4 {
		return 0, fmt.Errorf("calibrate threshold: %d scores, need at least 4", len(scores))
	}
	s := append([]float64(nil), scores...)
	sort.Float64s(s)
	if s[0] == s[len(s)-1] {
		return 0, fmt.Errorf("calibrate threshold: all %d scores equal %.3g", len(s), s[0])
	}
	total := 0.0
	for _, v := range s {
		total += v
	}
	best, cut := -1.0, 0.0
	sumLow := 0.0
	for i := 0; i < len(s)-1; i++ {
		sumLow += s[i]
		if s[i] == s[i+1] {
			continue
		}
		wl := float64(i + 1)
		wh := float64(len(s)) - wl
		ml := sumLow / wl
		mh := (total - sumLow) / wh
		v := wl * wh * (ml - mh) * (ml - mh)
		if v > best {
			best, cut = v, (s[i]+s[i+1])/2
		}
	}
	return cut, nil
}
