package terms

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gleaner/gleaner/chain/segment"
	"github.com/gleaner/gleaner/chain/tagger"
)

// maxLen bounds a candidate's length in tokens.
const maxLen = 6

// patterns over one letter per token (N noun, A adjective, P de/of/à, D
// determiner, other letters never match).
var patterns = map[string]*regexp.Regexp{
	"en": regexp.MustCompile(`^[AN]*N$`),
	"fr": regexp.MustCompile(`^NA*(?:PD?NA*)?$`),
	"de": regexp.MustCompile(`^A*N$`),
}

// linkPreps are the prepositions a French noun phrase may contain.
var linkPreps = map[string]bool{"de": true, "d'": true, "à": true, "du": true, "des": true, "de+le": true, "à+le": true}

// letter is token i of sent's letter in the candidate patterns: N noun,
// A adjective, D determiner and P linking preposition (French), '.' any
// other.
func letter(sent []tagger.Token, i int, lang string) byte {
	t := &sent[i]
	if lang == "de" && untaggedNoun(t, i) {
		return 'N'
	}
	switch t.UPOS {
	case "NOUN":
		return 'N'
	case "ADJ":
		return 'A'
	}
	if lang == "fr" {
		return frenchLetter(t)
	}
	return '.'
}

// frenchLetter is the letter of a French token other than a noun or an
// adjective: D determiner, P linking preposition, '.' any other.
func frenchLetter(t *tagger.Token) byte {
	switch {
	case t.UPOS == "DET":
		return 'D'
	case t.UPOS == "ADP" && (linkPreps[strings.ToLower(t.Lemma)] || linkPreps[strings.ToLower(t.Text)]):
		return 'P'
	}
	return '.'
}

// untaggedNoun reports whether t, token i of a German sentence no tagger
// read, is a noun: a capitalised word inside the sentence.
func untaggedNoun(t *tagger.Token, i int) bool {
	if t.UPOS != "_" || i == 0 || t.Kind != segment.Word {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t.Text)
	return unicode.IsUpper(r)
}

// Occurrence is one candidate occurrence in a sentence.
type Occurrence struct {
	Term       string // lemmas joined by spaces
	Start, End int    // token range in the sentence
}

// Candidates returns every candidate occurrence of a sentence in lang
// (nested ones included: "banque centrale" inside "banque centrale
// européenne"). Languages without a pattern give none.
func Candidates(sent []tagger.Token, lang string) []Occurrence {
	re, ok := patterns[lang]
	if !ok {
		return nil
	}
	letters := make([]byte, len(sent))
	for i := range sent {
		letters[i] = letter(sent, i, lang)
	}
	var out []Occurrence
	for i := range sent {
		out = appendOccurrences(out, sent, letters, i, re)
	}
	return out
}

// appendOccurrences appends the candidate occurrences starting at token i
// of sent: the spans of at most maxLen tokens with letters, none '.', that
// re matches.
func appendOccurrences(out []Occurrence, sent []tagger.Token, letters []byte, i int, re *regexp.Regexp) []Occurrence {
	for j := i + 1; j <= len(sent) && j-i <= maxLen; j++ {
		if letters[j-1] == '.' {
			break
		}
		if re.Match(letters[i:j]) {
			out = append(out, Occurrence{Term: key(sent[i:j]), Start: i, End: j})
		}
	}
	return out
}

// key is the term's canonical form: lower-case lemmas of the content
// words, function words as written (taux d'intérêt, porte-parole de la
// ville), no space after an elision.
func key(toks []tagger.Token) string {
	var b strings.Builder
	for i, t := range toks {
		w := t.Lemma
		if w == "" || t.UPOS == "DET" || t.UPOS == "ADP" {
			w = t.Text
		}
		w = strings.ToLower(w)
		if i > 0 && !strings.HasSuffix(b.String(), "'") && !strings.HasSuffix(b.String(), "’") {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// Term is a ranked candidate.
type Term struct {
	Term   string
	Len    int // words
	Freq   int
	CValue float64
}

// CValue ranks the candidates of freq (term -> frequency), best first
// (ties by term).
func CValue(freq map[string]int) []Term {
	cands := map[string]candidate{}
	for t, f := range freq {
		cands[t] = candidate{strings.Fields(t), f}
	}
	nestSum, nestN := nesting(cands)
	out := make([]Term, 0, len(cands))
	for t, c := range cands {
		w := math.Log2(float64(len(c.words)) + 1)
		v := float64(c.f)
		if n := nestN[t]; n > 0 {
			v -= float64(nestSum[t]) / float64(n)
		}
		out = append(out, Term{Term: t, Len: len(c.words), Freq: c.f, CValue: w * v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CValue != out[j].CValue {
			return out[i].CValue > out[j].CValue
		}
		return out[i].Term < out[j].Term
	})
	return out
}

// candidate is a term's words and frequency.
type candidate struct {
	words []string
	f     int
}

// nesting returns, for each candidate, the total frequency and the number
// of the longer candidates that contain it.
func nesting(cands map[string]candidate) (nestSum, nestN map[string]int) {
	nestSum, nestN = map[string]int{}, map[string]int{}
	for _, c := range cands {
		for n := 1; n < len(c.words); n++ {
			for i := 0; i+n <= len(c.words); i++ {
				sub := strings.Join(c.words[i:i+n], " ")
				if _, ok := cands[sub]; ok {
					nestSum[sub] += c.f
					nestN[sub]++
				}
			}
		}
	}
	return nestSum, nestN
}

// Contexts returns the syntactic contexts of the occurrence o in sent, as
// "(governor, RELATION)" strings in Upery's notation.
func Contexts(sent []tagger.Token, o Occurrence) []string {
	var out []string
	if c := leftContext(sent, o.Start-1); c != "" {
		out = append(out, c)
	}
	if c := rightContext(sent, o.End); c != "" {
		out = append(out, c)
	}
	return out
}

// leftContext is the context left of an occurrence ending before sent[i],
// determiners skipped: a verb (object), or noun + preposition
// (complement); "" if none.
func leftContext(sent []tagger.Token, i int) string {
	i = skipLeft(sent, i, "DET")
	if i < 0 {
		return ""
	}
	switch sent[i].UPOS {
	case "VERB":
		return "(" + contextLemma(&sent[i]) + ", OBJ)"
	case "ADP":
		if i > 0 && (sent[i-1].UPOS == "NOUN" || sent[i-1].UPOS == "VERB") {
			return "(" + contextLemma(&sent[i-1]) + ", " + strings.ToUpper(contextLemma(&sent[i])) + ")"
		}
	}
	return ""
}

// rightContext is the context right of an occurrence followed by sent[j],
// minor words skipped: a verb (subject), or preposition + noun
// (expansion); "" if none.
func rightContext(sent []tagger.Token, j int) string {
	for j < len(sent) && minorWord(&sent[j]) {
		j++
	}
	if j >= len(sent) {
		return ""
	}
	switch sent[j].UPOS {
	case "VERB":
		return "(" + contextLemma(&sent[j]) + ", SUJ)"
	case "ADP":
		return expansion(sent, j)
	}
	return ""
}

// expansion is the context of the preposition sent[j] followed by a noun
// (determiners skipped), "" if no noun follows.
func expansion(sent []tagger.Token, j int) string {
	k := skipRight(sent, j+1, "DET")
	if k < len(sent) && sent[k].UPOS == "NOUN" {
		return "(" + strings.ToUpper(contextLemma(&sent[j])) + ", " + contextLemma(&sent[k]) + ")"
	}
	return ""
}

// skipLeft returns the index of the first token at or before sent[i]
// whose UPOS is not upos, -1 if none.
func skipLeft(sent []tagger.Token, i int, upos string) int {
	for i >= 0 && sent[i].UPOS == upos {
		i--
	}
	return i
}

// skipRight returns the index of the first token at or after sent[j]
// whose UPOS is not upos, len(sent) if none.
func skipRight(sent []tagger.Token, j int, upos string) int {
	for j < len(sent) && sent[j].UPOS == upos {
		j++
	}
	return j
}

// minorWord reports a word skipped between an occurrence and its right
// context: a determiner, adverb, auxiliary, particle or short pronoun.
func minorWord(t *tagger.Token) bool {
	return t.UPOS == "DET" || t.UPOS == "ADV" || t.UPOS == "AUX" || t.UPOS == "PART" || t.UPOS == "PRON" && len(t.Text) <= 3
}

// contextLemma is t's lemma as contexts write it.
func contextLemma(t *tagger.Token) string { return strings.ToLower(t.Lemma) }

// Distrib holds which terms occur in which contexts.
type Distrib struct {
	termCtx map[string]map[string]bool
	ctxTerm map[string]map[string]bool
}

// NewDistrib returns an empty analysis.
func NewDistrib() *Distrib {
	return &Distrib{termCtx: map[string]map[string]bool{}, ctxTerm: map[string]map[string]bool{}}
}

// Add records that term occurs in context.
func (d *Distrib) Add(term, context string) {
	if d.termCtx[term] == nil {
		d.termCtx[term] = map[string]bool{}
	}
	if d.ctxTerm[context] == nil {
		d.ctxTerm[context] = map[string]bool{}
	}
	d.termCtx[term][context] = true
	d.ctxTerm[context][term] = true
}

// AddSentence records the contexts of every candidate of a tagged sentence.
func (d *Distrib) AddSentence(sent []tagger.Token, lang string) {
	for _, o := range Candidates(sent, lang) {
		for _, c := range Contexts(sent, o) {
			d.Add(o.Term, c)
		}
	}
}

// ContextProductivity is the number of distinct terms seen in context.
func (d *Distrib) ContextProductivity(context string) int { return len(d.ctxTerm[context]) }

// TermProductivity is the number of distinct contexts of term.
func (d *Distrib) TermProductivity(term string) int { return len(d.termCtx[term]) }

// Proximity is Upery's measure between two terms.
type Proximity struct {
	T1, T2 string
	A      int     // shared contexts
	Prox   float64 // Σ 1/√prod(c) over shared contexts
	J1, J2 float64 // a/prod(t1), a/prod(t2)
	Shared []string
}

// Proximity measures t1 against t2.
func (d *Distrib) Proximity(t1, t2 string) Proximity {
	p := Proximity{T1: t1, T2: t2}
	for c := range d.termCtx[t1] {
		if d.termCtx[t2][c] {
			p.Shared = append(p.Shared, c)
		}
	}
	sort.Strings(p.Shared)
	for _, c := range p.Shared {
		p.Prox += 1 / math.Sqrt(float64(d.ContextProductivity(c)))
	}
	p.A = len(p.Shared)
	if n := d.TermProductivity(t1); n > 0 {
		p.J1 = float64(p.A) / float64(n)
	}
	if n := d.TermProductivity(t2); n > 0 {
		p.J2 = float64(p.A) / float64(n)
	}
	return p
}

// Neighbours returns the n terms closest to term by prox (ties by term),
// sharing at least minShared contexts.
func (d *Distrib) Neighbours(term string, n, minShared int) []Proximity {
	cands := map[string]bool{}
	for c := range d.termCtx[term] {
		for t := range d.ctxTerm[c] {
			if t != term {
				cands[t] = true
			}
		}
	}
	var out []Proximity
	for t := range cands {
		if p := d.Proximity(term, t); p.A >= max(minShared, 1) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Prox != out[j].Prox {
			return out[i].Prox > out[j].Prox
		}
		return out[i].T2 < out[j].T2
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// Terms lists the analysed terms, sorted.
func (d *Distrib) Terms() []string {
	out := make([]string, 0, len(d.termCtx))
	for t := range d.termCtx {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
