package heuristics

import (
	"errors"
	"fmt"
	"strings"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/treediff"
)

// The single-page method takes a second opinion when it is unsure of its
// own choice: go-trafilatura, a well-kept single-page extractor, reads the
// same page and its body is taken instead. Gleaner's block model is sure of
// pages whose article-like text sits in one element (Result.Confidence, the
// share of those words the chosen element holds, is high); where that text
// is scattered its pick is a guess, and on pages of sites it was never
// tuned on trafilatura guesses better there. The title, date and author stay
// Gleaner's. A page compared with its template medoid needs no second
// opinion: the pair diff decides, and the single-page blocks judge its
// short lines (see refine).

// MethodSecondOpinion marks a single-page result whose body is
// go-trafilatura's.
const MethodSecondOpinion = "single-page+trafilatura"

// DefaultSecondOpinionBelow is the single-page confidence under which the
// second opinion is asked for. On wide-dev the F1 of the combination is flat
// from 0.7 to 0.9 (0.905-0.907); the middle is taken.
const DefaultSecondOpinionBelow = 0.8

// maxSecondOpinionBytes bounds the pages handed to the second extractor,
// which builds its own DOM of the whole page.
const maxSecondOpinionBytes = 8 << 20

// errSecondOpinion is wrapped by the failures of the second extractor.
var errSecondOpinion = errors.New("second opinion")

// withSecondOpinion returns r with go-trafilatura's body when r, a
// single-page result on page t of source src, is less confident than
// below and trafilatura finds a body. r is returned unchanged otherwise.
// Trafilatura reads the source, so its paragraphs are kept only where the
// page's tree shows their words in a row: t may lack elements the browser
// hid (VisibleTree), and the body is drawn from the page's own text.
func withSecondOpinion(r Result, t *treediff.Tree, src []byte, below float64) Result {
	if r.Confidence >= below || len(src) == 0 || len(src) > maxSecondOpinionBytes || t == nil || t.Root == nil {
		return r
	}
	body, err := secondOpinion(src)
	if err != nil {
		return r
	}
	if body = shownIn(t, body); body == "" || !articleLike(newPage(t, SingleOptions{}.withDefaults()), body) {
		return r
	}
	r.Body, r.Method = body, MethodSecondOpinion
	// The body no longer comes from one element of the page.
	r.Node, r.Selector = nil, ""
	return r
}

// articleLike reports whether the blocks of p that body holds have few of
// their words in links: a second opinion that returns a list of teasers
// (an archive, a section page: a linked headline each) is not taken for an
// article. A block is held when most of its word 4-grams stand in body
// (the two extractors cut paragraphs differently).
func articleLike(p *page, body string) bool {
	words := strings.Fields(normWords(body))
	grams := make(map[string]bool, len(words))
	for i := 0; i+4 <= len(words); i++ {
		grams[strings.Join(words[i:i+4], " ")] = true
	}
	held, linked := 0, 0
	for _, b := range p.blocks {
		ws := strings.Fields(normWords(b.text))
		if len(ws) < 4 || !shown(ws, "", grams) {
			continue
		}
		held += b.words
		linked += b.linkWords
	}
	return float64(linked) <= maxSecondOpinionLinks*float64(held)
}

// maxSecondOpinionLinks is the share of a second opinion's words that may
// sit in links: a list of linked headlines is navigation.
const maxSecondOpinionLinks = 0.25

// secondOpinion returns the body go-trafilatura extracts from src,
// paragraphs separated by blank lines. A panic of the library on a hostile
// page is an error, not a crash.
func secondOpinion(src []byte) (body string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: trafilatura panicked: %v", errSecondOpinion, p)
		}
	}()
	text, _, err := treediff.Decode(src, "")
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSecondOpinion, err)
	}
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSecondOpinion, err)
	}
	res, err := trafilatura.ExtractDocument(doc, trafilatura.Options{EnableFallback: true})
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSecondOpinion, err)
	}
	var paras []string
	for _, l := range strings.Split(res.ContentText, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			paras = append(paras, l)
		}
	}
	return strings.Join(paras, "\n\n"), nil
}

// shownIn returns the paragraphs of body that t shows: those whose word
// 4-grams stand in t's text for the most part (minShown), the short ones
// whole; a word t does not show at all is left out of a kept paragraph.
func shownIn(t *treediff.Tree, body string) string {
	words := strings.Fields(normWords(t.Root.Text()))
	text := " " + strings.Join(words, " ") + " "
	grams := make(map[string]bool, len(words))
	vocab := make(map[string]bool, len(words))
	for i, w := range words {
		vocab[w] = true
		if i+4 <= len(words) {
			grams[strings.Join(words[i:i+4], " ")] = true
		}
	}
	var kept []string
	for _, p := range strings.Split(body, "\n\n") {
		ws := strings.Fields(normWords(p))
		if !shown(ws, text, grams) {
			continue
		}
		var out []string
		for _, w := range treediff.Words(p) {
			if vocab[strings.ToLower(w.Text)] {
				out = append(out, w.Text)
			}
		}
		if len(out) > 0 {
			kept = append(kept, keepPunctuation(p, vocab))
		}
	}
	return strings.Join(kept, "\n\n")
}

// minShown is the share of a paragraph's word 4-grams the page must show.
const minShown = 0.9

func shown(ws []string, text string, grams map[string]bool) bool {
	if len(ws) == 0 {
		return false
	}
	if len(ws) < 4 {
		return strings.Contains(text, " "+strings.Join(ws, " ")+" ")
	}
	hits := 0
	for i := 0; i+4 <= len(ws); i++ {
		if grams[strings.Join(ws[i:i+4], " ")] {
			hits++
		}
	}
	return float64(hits) >= minShown*float64(len(ws)-3)
}

// keepPunctuation returns p without the words vocab lacks, its other
// characters as they are.
func keepPunctuation(p string, vocab map[string]bool) string {
	var b strings.Builder
	last := 0
	for _, w := range treediff.Words(p) {
		if vocab[strings.ToLower(w.Text)] {
			continue
		}
		b.WriteString(p[last:w.Offset])
		last = w.Offset + len(w.Text)
	}
	b.WriteString(p[last:])
	return strings.Join(strings.Fields(b.String()), " ")
}
