package eval

import (
	"math"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// ExactThreshold is the cosine from which a page counts as exactly extracted
// (the thesis's exactitude).
const ExactThreshold = 0.9

// ShingleSize is the number of words of a shingle (evaluate.py's ngram_n).
const ShingleSize = 4

// Relation says how an extracted text T stands to the gold text T* once
// whitespace is normalized.
type Relation uint8

const (
	// Unrelated: neither text contains the other.
	Unrelated Relation = iota
	// Equal: T = T*.
	Equal
	// Inside: T is a proper part of T* (the extraction cut too low).
	Inside
	// Contains: T* is a proper part of T (the extraction cut too high).
	Contains
)

func (r Relation) String() string {
	switch r {
	case Equal:
		return "T=T*"
	case Inside:
		return "T⊂T*"
	case Contains:
		return "T*⊂T"
	}
	return "other"
}

// MarshalText writes the relation as its table heading.
func (r Relation) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Tokens returns the \w+ words of s, case kept (evaluate.py's _tokenize).
func Tokens(s string) []string {
	ws := treediff.Words(s)
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}

// Cosine returns the cosine similarity of the lower-cased word-count vectors
// of a and b; 1 when neither has a word, 0 when only one has none.
func Cosine(a, b string) float64 {
	ca, cb := wordCounts(a), wordCounts(b)
	if len(ca) == 0 && len(cb) == 0 {
		return 1
	}
	if len(ca) == 0 || len(cb) == 0 {
		return 0
	}
	var dot, na, nb float64
	for w, x := range ca {
		na += x * x
		if y, ok := cb[w]; ok {
			dot += x * y
		}
	}
	for _, y := range cb {
		nb += y * y
	}
	c := dot / (math.Sqrt(na) * math.Sqrt(nb))
	if c > 1 { // rounding on identical vectors
		c = 1
	}
	return c
}

func wordCounts(s string) map[string]float64 {
	m := map[string]float64{}
	for _, w := range treediff.Words(s) {
		m[strings.ToLower(w.Text)]++
	}
	return m
}

// NormalizeSpace collapses every run of whitespace to one space and trims
// the ends.
func NormalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// Relate returns how the extracted text t stands to the gold text gold after
// whitespace normalization.
func Relate(t, gold string) Relation {
	t, gold = NormalizeSpace(t), NormalizeSpace(gold)
	switch {
	case t == gold:
		return Equal
	case t == "":
		return Unrelated // nothing extracted is a failure, not a cut
	case strings.Contains(gold, t):
		return Inside
	case strings.Contains(t, gold):
		return Contains
	}
	return Unrelated
}

// Counts are a page's shingle true positives, false positives and false
// negatives, normalized to sum 1 when any is non-zero (evaluate.py's
// string_shingle_matching, so that long texts do not weigh more).
type Counts struct {
	TP, FP, FN float64
}

// ShingleCounts compares the word 4-gram shingles of the gold and the
// predicted text.
func ShingleCounts(gold, pred string) Counts {
	g, p := shingles(gold), shingles(pred)
	var c Counts
	for k, gc := range g {
		pc := p[k]
		c.TP += float64(min(gc, pc))
		c.FN += float64(max(0, gc-pc))
	}
	for k, pc := range p {
		c.FP += float64(max(0, pc-g[k]))
	}
	if s := c.TP + c.FP + c.FN; s > 0 {
		c.TP, c.FP, c.FN = c.TP/s, c.FP/s, c.FN/s
	}
	return c
}

// shingles counts the ShingleSize-word shingles of s; a text of fewer words
// has a single shorter shingle, an empty text none (evaluate.py's _ngrams).
func shingles(s string) map[string]int {
	toks := Tokens(s)
	m := map[string]int{}
	if len(toks) == 0 {
		return m
	}
	for i := 0; i < max(1, len(toks)-ShingleSize+1); i++ {
		// "\x00" cannot occur in a token, so joined keys are unambiguous.
		m[strings.Join(toks[i:min(i+ShingleSize, len(toks))], "\x00")]++
	}
	return m
}

// precision is evaluate.py's precision_score.
func (c Counts) precision() float64 {
	switch {
	case c.FP == 0 && c.FN == 0:
		return 1
	case c.TP == 0 && c.FP == 0:
		return 0
	}
	return c.TP / (c.TP + c.FP)
}

// recall is evaluate.py's recall_score.
func (c Counts) recall() float64 {
	switch {
	case c.FP == 0 && c.FN == 0:
		return 1
	case c.TP == 0 && c.FN == 0:
		return 0
	}
	return c.TP / (c.TP + c.FN)
}

// SameTokens reports whether the two texts have exactly the same token
// sequence (evaluate.py's get_accuracy).
func SameTokens(gold, pred string) bool {
	a, b := Tokens(gold), Tokens(pred)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// PageScore is one page's scores.
type PageScore struct {
	ID   string `json:"id"`
	Site string `json:"site,omitempty"`
	// Cos is cos(T, T*) on lower-cased word counts.
	Cos      float64  `json:"cos"`
	Relation Relation `json:"relation"`
	Shingles Counts   `json:"shingles"`
	// Precision, Recall and F1 are this page's own shingle scores, for
	// listing pages; the summary does not average them.
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	// WordPrecision, WordRecall and WordF1 are WCXB's word-level scores
	// (WordPRF): bags of lower-cased words.
	WordPrecision float64 `json:"word_precision"`
	WordRecall    float64 `json:"word_recall"`
	WordF1        float64 `json:"word_f1"`
	// Accurate: same token sequence as the gold.
	Accurate bool `json:"accurate"`
	// Err is why the page could not be extracted ("" when it was); such a
	// page is scored with an empty text.
	Err string `json:"error,omitempty"`
}

// Exact reports whether the page counts for exactitude.
func (p PageScore) Exact() bool { return p.Cos >= ExactThreshold }

// ScorePage scores a predicted text against the gold text.
func ScorePage(id, site, gold, pred string) PageScore {
	c := ShingleCounts(gold, pred)
	p := PageScore{
		ID: id, Site: site,
		Cos:       Cosine(pred, gold),
		Relation:  Relate(pred, gold),
		Shingles:  c,
		Precision: c.precision(),
		Recall:    c.recall(),
		Accurate:  SameTokens(gold, pred),
	}
	p.F1 = harmonic(p.Precision, p.Recall)
	p.WordPrecision, p.WordRecall, p.WordF1 = WordPRF(gold, pred)
	return p
}

func harmonic(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Summary is the table row of a set of pages.
type Summary struct {
	Pages int `json:"pages"`
	// Exact is the number of pages with cos >= ExactThreshold and Exactitude
	// their share of Pages.
	Exact      int     `json:"exact"`
	Exactitude float64 `json:"exactitude"`
	MeanCos    float64 `json:"mean_cos"`
	Equal      int     `json:"equal"`
	Inside     int     `json:"inside"`
	Contains   int     `json:"contains"`
	Precision  float64 `json:"precision"`
	Recall     float64 `json:"recall"`
	F1         float64 `json:"f1"`
	Accuracy   float64 `json:"accuracy"`
	Errors     int     `json:"errors"`
	// WordPrecision, WordRecall and WordF1 are the means over pages of the
	// pages' own word scores, as WCXB averages them.
	WordPrecision float64 `json:"word_precision"`
	WordRecall    float64 `json:"word_recall"`
	WordF1        float64 `json:"word_f1"`
}

// Summarize aggregates page scores as the thesis's table and evaluate.py's
// metrics do.
func Summarize(pages []PageScore) Summary {
	s := Summary{Pages: len(pages)}
	if len(pages) == 0 {
		return s
	}
	var sumP, sumR, sumCos float64
	var nP, nR, acc int
	for _, p := range pages {
		sumCos += p.Cos
		if p.Exact() {
			s.Exact++
		}
		switch p.Relation {
		case Equal:
			s.Equal++
		case Inside:
			s.Inside++
		case Contains:
			s.Contains++
		}
		if p.Err != "" {
			s.Errors++
		}
		if p.Accurate {
			acc++
		}
		s.WordPrecision += p.WordPrecision
		s.WordRecall += p.WordRecall
		s.WordF1 += p.WordF1
		c := p.Shingles
		if c.TP+c.FP > 0 {
			sumP += c.precision()
			nP++
		}
		if c.TP+c.FN > 0 {
			sumR += c.recall()
			nR++
		}
	}
	n := float64(len(pages))
	s.Exactitude = float64(s.Exact) / n
	s.MeanCos = sumCos / n
	s.Accuracy = float64(acc) / n
	s.WordPrecision, s.WordRecall, s.WordF1 = s.WordPrecision/n, s.WordRecall/n, s.WordF1/n
	if nP > 0 {
		s.Precision = sumP / float64(nP)
	}
	if nR > 0 {
		s.Recall = sumR / float64(nR)
	}
	s.F1 = harmonic(s.Precision, s.Recall)
	return s
}

// WordTokens returns the lower-cased words of s as WCXB's evaluate.py
// tokenizes them (re.findall(r'\w+', text.lower())): maximal runs of
// letters, digits and underscores, a run of Han or kana characters being
// one word as Python's \w makes it (treediff.Words counts those one per
// character).
func WordTokens(s string) []string {
	s = strings.ToLower(s)
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case treediff.IsWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			out = append(out, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// WordPRF is WCXB's word-level precision, recall and F1 of pred against
// gold: the words (WordTokens) both hold, counted with their repeats, over
// pred's and gold's word counts. An empty gold scores 1 with an empty pred
// and 0 otherwise; an empty pred scores 0.
func WordPRF(gold, pred string) (p, r, f1 float64) {
	g, q := WordTokens(gold), WordTokens(pred)
	switch {
	case len(g) == 0 && len(q) == 0:
		return 1, 1, 1
	case len(g) == 0 || len(q) == 0:
		return 0, 0, 0
	}
	counts := make(map[string]int, len(g))
	for _, w := range g {
		counts[w]++
	}
	overlap := 0
	for _, w := range q {
		if counts[w] > 0 {
			counts[w]--
			overlap++
		}
	}
	p, r = float64(overlap)/float64(len(q)), float64(overlap)/float64(len(g))
	return p, r, harmonic(p, r)
}

// Snippets are the phrases a correct extraction of a page must contain
// (With) and must not contain (Without), WCXB's "with" and "without".
type Snippets struct {
	With    []string `json:"with,omitempty"`
	Without []string `json:"without,omitempty"`
}

// SnippetRates returns the share of s.With found in text and the share of
// s.Without absent from it, both compared lower-cased as WCXB does; ok
// reports, for each, whether there was any phrase to look for (a rate
// without phrases is 1 and says nothing).
func SnippetRates(text string, s Snippets) (found, absent float64, okWith, okWithout bool) {
	low := strings.ToLower(text)
	share := func(phrases []string) (float64, bool) {
		if len(phrases) == 0 {
			return 1, false
		}
		n := 0
		for _, ph := range phrases {
			if strings.Contains(low, strings.ToLower(ph)) {
				n++
			}
		}
		return float64(n) / float64(len(phrases)), true
	}
	found, okWith = share(s.With)
	in, okWithout := share(s.Without)
	if !okWithout {
		return found, 1, okWith, false
	}
	return found, 1 - in, okWith, true
}
