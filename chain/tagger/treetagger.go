package tagger

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// TreeTagger drives an installed TreeTagger binary kept running: tokens go
// in one a line between numbered SGML sentinels; padding after the closing
// sentinel pushes the answer through TreeTagger's look-ahead and output
// buffer. The padding's output is skipped at the next request.
type TreeTagger struct {
	lang string
	p    *pipeline
	seq  atomic.Int64
}

// treeTaggerPadding is how many padding tokens follow each request: enough
// output (about 20 KB) to fill TreeTagger's stdio buffer.
const treeTaggerPadding = 2048

// NewTreeTagger prepares a TreeTagger for lang: bin is the tree-tagger
// executable, par its parameter file (e.g. french.par).
func NewTreeTagger(lang, bin, par string) (*TreeTagger, error) {
	for _, f := range []string{bin, par} {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("treetagger for %s: %w", lang, err)
		}
	}
	return &TreeTagger{lang: lang, p: newPipeline([]string{bin, "-token", "-lemma", "-sgml", par})}, nil
}

// Name is "treetagger:" and the language.
func (t *TreeTagger) Name() string { return "treetagger:" + t.lang }

// Close stops the process.
func (t *TreeTagger) Close() error { return t.p.close() }

// Tag implements Tagger.
func (t *TreeTagger) Tag(ctx context.Context, sents [][]Token) error {
	n := strconv.FormatInt(t.seq.Add(1), 10)
	start, end := "<gleaner-start "+n+">", "<gleaner-end "+n+">"
	req, toks := treeTaggerRequest(sents, start, end)
	ctx, cancel := context.WithTimeout(ctx, requestTimeout(len(req)))
	defer cancel()
	var lines []string
	err := retryOnce(ctx, func() error {
		lines = lines[:0]
		return t.p.roundTrip(ctx, []byte(req), t.reader(start, end, &lines))
	})
	if err != nil {
		return fmt.Errorf("treetagger %s: %w", t.lang, err)
	}
	if len(lines) != len(toks) {
		return fmt.Errorf("treetagger %s: %d tokens sent, %d analyses back", t.lang, len(toks), len(lines))
	}
	for i, line := range lines {
		if !byKind(toks[i]) {
			t.apply(toks[i], line)
		}
	}
	return nil
}

// treeTaggerRequest writes the sentences' tokens one a line, between the
// sentinels start and end, then the padding; it returns the request and
// its tokens in order.
func treeTaggerRequest(sents [][]Token, start, end string) (string, []*Token) {
	var req strings.Builder
	var toks []*Token
	req.WriteString(start + "\n")
	for si := range sents {
		for ti := range sents[si] {
			tok := &sents[si][ti]
			// A token is one line: inner white space (dates, money) would
			// make TreeTagger see several.
			req.WriteString(strings.Join(strings.Fields(tok.Text), "_") + "\n")
			toks = append(toks, tok)
		}
		req.WriteString("<s/>\n")
	}
	req.WriteString(end + "\n")
	for range treeTaggerPadding {
		req.WriteString(".\n")
	}
	return req.String(), toks
}

// apply gives tok the analysis of its answer line (word, tag, lemma): of
// ambiguous lemmas the first; an unknown lemma is guessed.
func (t *TreeTagger) apply(tok *Token, line string) {
	f := strings.Split(line, "\t")
	if len(f) < 3 {
		guess(tok)
		return
	}
	tag, lemma := f[1], f[2]
	if j := strings.IndexByte(lemma, '|'); j > 0 {
		lemma = lemma[:j]
	}
	if lemma == "<unknown>" || lemma == "" {
		guess(tok)
		tok.XPOS = tag
		return
	}
	tok.Lemma, tok.XPOS = lemma, tag
	tok.UPOS = treeTaggerUD(t.lang, tag)
}

// reader returns the function that reads one answer: the lines between
// the request's sentinels, skipping the padding of earlier requests.
func (t *TreeTagger) reader(start, end string, lines *[]string) func(*bufio.Reader) error {
	return func(r *bufio.Reader) error {
		inside := false
		size := 0
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return fmt.Errorf("reading answer: %w", err)
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == start:
				inside = true
			case line == end && inside:
				return nil
			case inside && !strings.HasPrefix(line, "<"):
				size += len(line)
				if size > maxAnswer {
					return errors.New("answer too large")
				}
				*lines = append(*lines, line)
			}
		}
	}
}

// treeTaggerUD maps a TreeTagger tag (Penn tagset for English, TreeTagger's
// French tagset, STTS for German) to UPOS.
func treeTaggerUD(lang, tag string) string {
	base, _, _ := strings.Cut(tag, ":")
	var m map[string]string
	switch lang {
	case "fr":
		m = ttFrench
	case "de":
		m = ttGerman
	default:
		m = ttPenn
	}
	if u, ok := m[tag]; ok {
		return u
	}
	if u, ok := m[base]; ok {
		return u
	}
	// Penn's tags share prefixes: VBZ, VBD -> VB; NNS, NNP -> NN.
	for n := len(tag) - 1; n >= 2; n-- {
		if u, ok := m[tag[:n]]; ok {
			return u
		}
	}
	return "X"
}

var ttPenn = map[string]string{
	"NN": "NOUN", "NNS": "NOUN", "NP": "PROPN", "NPS": "PROPN", "NNP": "PROPN", "NNPS": "PROPN",
	"VB": "VERB", "VH": "AUX", "VD": "AUX", "MD": "AUX", "JJ": "ADJ", "RB": "ADV", "WRB": "ADV",
	"DT": "DET", "PDT": "DET", "WDT": "DET", "PP": "PRON", "PP$": "PRON", "PRP": "PRON", "PRP$": "PRON",
	"WP": "PRON", "WP$": "PRON", "EX": "PRON", "IN": "ADP", "TO": "PART", "CC": "CCONJ", "CD": "NUM",
	"UH": "INTJ", "SENT": "PUNCT", ",": "PUNCT", ":": "PUNCT", "``": "PUNCT", "''": "PUNCT",
	"(": "PUNCT", ")": "PUNCT", "POS": "PART", "RP": "ADP", "SYM": "SYM", "FW": "X", "LS": "X",
	"IN/that": "SCONJ",
}

var ttFrench = map[string]string{
	"NOM": "NOUN", "NAM": "PROPN", "VER": "VERB", "ADJ": "ADJ", "ADV": "ADV", "DET": "DET",
	"PRO": "PRON", "PRP": "ADP", "PRP:det": "ADP", "KON": "CCONJ", "NUM": "NUM", "INT": "INTJ",
	"PUN": "PUNCT", "SENT": "PUNCT", "PUN:cit": "PUNCT", "SYM": "SYM", "ABR": "NOUN",
}

var ttGerman = map[string]string{
	"NN": "NOUN", "NE": "PROPN", "VVFIN": "VERB", "VVINF": "VERB", "VVPP": "VERB", "VVIZU": "VERB",
	"VVIMP": "VERB", "VAFIN": "AUX", "VAINF": "AUX", "VAPP": "AUX", "VMFIN": "AUX", "VMINF": "AUX",
	"ADJA": "ADJ", "ADJD": "ADJ", "ADV": "ADV", "ART": "DET", "PDAT": "DET", "PIAT": "DET",
	"PPOSAT": "DET", "PWAT": "DET", "PPER": "PRON", "PRF": "PRON", "PDS": "PRON", "PIS": "PRON",
	"PPOSS": "PRON", "PRELS": "PRON", "PRELAT": "DET", "PWS": "PRON", "PWAV": "ADV", "PAV": "ADV",
	"APPR": "ADP", "APPRART": "ADP", "APPO": "ADP", "APZR": "ADP", "KON": "CCONJ", "KOUS": "SCONJ",
	"KOUI": "SCONJ", "KOKOM": "CCONJ", "CARD": "NUM", "ITJ": "INTJ", "PTKZU": "PART", "PTKNEG": "PART",
	"PTKVZ": "ADP", "PTKANT": "PART", "PTKA": "PART", "$.": "PUNCT", "$,": "PUNCT", "$(": "PUNCT",
	"FM": "X", "XY": "X", "TRUNC": "X",
}
