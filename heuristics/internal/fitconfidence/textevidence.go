package main

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/singlepage"
)

// --text-evidence measures, held out, evidence the chooser could read
// from the two bodies alone (textEvidence), recomputed from the records'
// bodies: no extraction, so an idea is tried in seconds. Its models are
// not written (singlepage's Candidate.Features do not hold it). Session
// 12, held out by site (5 folds), mean word F1, before: wcxb-dev 0.852
// (articles 0.947, listing 0.721, products 0.679), wide-dev 0.914,
// big9-dev 0.994. "plain": wcxb-dev 0.851 (articles 0.949, listing
// 0.687), wide-dev 0.916, big9-dev 0.993. "article" (the evidence times
// the article probability): 0.850, 0.915, 0.993; with an L2 ten times
// stronger (0.03) 0.852 (products 0.673), 0.917 (dragnet and l3s-gn1
// +0.002 to +0.003, the same with 10 folds), 0.993. None raised every
// set and page type: not taken; nor in one candidate's model only (the
// fusion's, "article": wcxb-dev 0.853, wide-dev 0.914 with dragnet
// -0.001, big9-dev 0.994; go-trafilatura's: 0.849 to 0.851). The L2 alone (0.003 -> 0.03), per-type
// bars tuned on the training folds and the examples weighed by the F1
// difference squared or its root instead of itself did not either.

// textEvidenceNames names the values of textEvidence, in order.
var textEvidenceNames = []string{
	"added prose share", "removed prose share", "added line share", "removed line share",
	"added runs", "removed runs", "added line words", "removed line words",
	"base repeat share", "base figure share", "candidate repeat share", "candidate figure share",
	"log base lines", "log candidate lines",
	"base prose share", "candidate prose share", "base line words", "candidate line words",
}

// textEvidence is the evidence the two bodies give by their lines
// alone: what the candidate adds (its lines the base does not hold) and
// what it removes (the base's lines it does not hold), each by the share
// of its words in prose (long lines ending a sentence: content, where
// boilerplate is menus, captions and short link lines), by its share of
// the body's words, by how scattered it is (runs per line: one run is a
// region, a fragment of the article or a block of links; many runs are
// lines cut here and there) and by its mean line length; then each
// body's shape (singlepage.ReadShape: repeated lines, short lines of figures), its
// share of prose and its mean line length.
// Linear in the two bodies' length.
func textEvidence(base, cand string) []float64 {
	bl, cl := bodyLines(base), bodyLines(cand)
	bg, cg := lineGrams(bl), lineGrams(cl)
	add, rem := diffLines(cl, bg), diffLines(bl, cg)
	// Each body whole: its lines none of an empty map holds.
	bw, cw := diffLines(bl, nil), diffLines(cl, nil)
	bs, cs := singlepage.ReadShape(base), singlepage.ReadShape(cand)
	return []float64{
		add.proseShare(), rem.proseShare(), add.lineShare(), rem.lineShare(),
		add.runShare(), rem.runShare(), add.lineWords(), rem.lineWords(),
		bs.RepeatShare, bs.FigureShare, cs.RepeatShare, cs.FigureShare,
		math.Log1p(float64(bs.Lines)) / 10, math.Log1p(float64(cs.Lines)) / 10,
		bw.proseShare(), cw.proseShare(), bw.lineWords(), cw.lineWords(),
	}
}

// textLine is a body's line: its normalized words, and whether it reads
// as prose (at least proseLineWords words, ending with a sentence's mark).
type textLine struct {
	ws    []string
	prose bool
}

// bodyLines returns the non-blank lines of body.
func bodyLines(body string) []textLine {
	var out []textLine
	for _, line := range strings.Split(body, "\n") {
		ws := strings.Fields(singlepage.NormWords(line))
		if len(ws) == 0 {
			continue
		}
		r, _ := utf8.DecodeLastRuneInString(strings.TrimSpace(line))
		out = append(out, textLine{ws: ws, prose: len(ws) >= proseLineWords && strings.ContainsRune(".!?…:;\"”»)。！？", r)})
	}
	return out
}

// proseLineWords is the length from which a line ending a sentence is
// prose rather than a caption or a link.
const proseLineWords = 10

// lineGrams returns the word 3-grams of lines (a line of fewer words
// whole).
func lineGrams(lines []textLine) map[string]bool {
	g := map[string]bool{}
	for _, l := range lines {
		for _, k := range grams3(l.ws) {
			g[k] = true
		}
	}
	return g
}

// grams3 returns the word 3-grams of ws, ws joined when shorter.
func grams3(ws []string) []string {
	if len(ws) < 3 {
		return []string{strings.Join(ws, " ")}
	}
	out := make([]string, 0, len(ws)-2)
	for j := 0; j+3 <= len(ws); j++ {
		out = append(out, strings.Join(ws[j:j+3], " "))
	}
	return out
}

// lineDiff sums the lines of one body the other does not hold.
type lineDiff struct {
	lines, words, prose, runs, total int
}

// diffLines returns the lines of lines that other's 3-grams (og) do not
// hold (fewer than half of their 3-grams).
func diffLines(lines []textLine, og map[string]bool) lineDiff {
	var d lineDiff
	prev := false
	for _, l := range lines {
		n := len(l.ws)
		d.total += n
		gs := grams3(l.ws)
		hits := 0
		for _, k := range gs {
			if og[k] {
				hits++
			}
		}
		out := 2*hits < len(gs)
		if out {
			d.lines++
			d.words += n
			d.prose += n * b2i(l.prose)
			d.runs += b2i(!prev)
		}
		prev = out
	}
	return d
}

func (d lineDiff) proseShare() float64 { return float64(d.prose) / float64(max(d.words, 1)) }
func (d lineDiff) lineShare() float64  { return float64(d.words) / float64(max(d.total, 1)) }
func (d lineDiff) runShare() float64   { return float64(d.runs) / float64(max(d.lines, 1)) }
func (d lineDiff) lineWords() float64 {
	return math.Log1p(float64(d.words)/float64(max(d.lines, 1))) / 5
}

// withTextEvidence appends to the recorded features of each candidate of
// recs textEvidence of its body against the base's (mode "plain"), or
// that times the page's article probability (mode "article"); "" leaves
// them. The records must hold the bodies (written since session 12).
func withTextEvidence(recs []choiceRecord, mode string) error {
	if mode != "" && mode != "plain" && mode != "article" {
		return fmt.Errorf("--text-evidence %q: want plain or article", mode)
	}
	art := len(singlepage.ChoiceFeatureNames) - 2*len(pagetype.Types) - len(pagetype.Types)
	for i := range recs {
		r := &recs[i]
		for j := range r.Cands {
			c := &r.Cands[j]
			if mode == "" || len(c.Features) != len(singlepage.ChoiceFeatureNames) {
				continue
			}
			v := textEvidence(r.BaseBody, c.Body)
			for k := range v {
				if mode == "article" {
					v[k] *= c.Features[art]
				}
			}
			c.Features = append(c.Features[:len(c.Features):len(c.Features)], v...)
		}
	}
	return nil
}
