package singlepage

import (
	"slices"
	"strings"
)

// CandidateFused names the candidate fused from the base and
// go-trafilatura's body: every paragraph of the base, with the paragraphs
// of the other body the base lacks put in at their place. Where each
// extractor holds a part of the content (a listing's items and its
// introduction, a thread's first post and its replies, a product's
// description and its specifications) the union holds both; the chooser
// weighs it against the base like any candidate, with the same evidence
// (what it adds, how much of that the page marks as boilerplate, its link
// density), so it is taken only where that evidence favours it.
const CandidateFused = "fused"

// fusedBody returns base's paragraphs (blank-line separated) with
// other's paragraphs that base does not hold, each put after the base
// paragraph holding the last paragraph of other they both hold before it
// (in front of the base when none does), "" when base or other is empty
// or other adds nothing. Linear in the two bodies' words.
func fusedBody(base, other string) string {
	bp, op := splitParas(base), splitParas(other)
	if len(bp) == 0 || len(op) == 0 {
		return ""
	}
	where := gramIndex(bp)
	// after[i+1] are other's paragraphs put after base paragraph i,
	// after[0] those put in front.
	after := make([][]string, len(bp)+1)
	anchor, added := 0, false
	for _, para := range op {
		if at, ok := heldAt(para, where); ok {
			if at > 0 {
				anchor = at
			}
			continue
		}
		after[anchor], added = append(after[anchor], para), true
	}
	if !added {
		return ""
	}
	out := append([]string(nil), after[0]...)
	for i, para := range bp {
		out = append(out, para)
		out = append(out, after[i+1]...)
	}
	return strings.Join(out, "\n\n")
}

// heldAt reports whether the base holds para (at least fusedHeld of its
// word 4-grams; a short paragraph whole, anywhere) by where (see
// fusedBody), and the base paragraph (counted from 1) holding its last
// shared 4-gram: where the shared text ends (0 for a short paragraph).
func heldAt(para string, where map[string]int) (int, bool) {
	ws := strings.Fields(NormWords(para))
	if len(ws) < 4 {
		// Held anywhere in the base, a few words place nothing.
		return 0, where[strings.Join(ws, " ")] > 0
	}
	hits, at := 0, 0
	for j := 0; j+4 <= len(ws); j++ {
		if i := where[strings.Join(ws[j:j+4], " ")]; i > 0 {
			hits, at = hits+1, i
		}
	}
	return at, float64(hits) >= fusedHeld*float64(len(ws)-3)
}

// fusedHeld is the share of a paragraph's word 4-grams the base must hold
// for the paragraph to be the base's: the two extractors cut paragraphs
// differently (one's paragraph may be two of the other's, or a part of
// one), and a paragraph half held would come twice.
const fusedHeld = 0.5

// gramIndex maps each word n-gram (n up to 4) of paras to the first of
// them holding it, counted from 1.
func gramIndex(paras []string) map[string]int {
	where := map[string]int{}
	for i, para := range paras {
		ws := strings.Fields(NormWords(para))
		for n := 1; n <= 4; n++ {
			for j := 0; j+n <= len(ws); j++ {
				if k := strings.Join(ws[j:j+n], " "); where[k] == 0 {
					where[k] = i + 1
				}
			}
		}
	}
	return where
}

// splitParas returns s's non-blank paragraphs.
func splitParas(s string) []string {
	var out []string
	for _, para := range strings.Split(s, "\n\n") {
		if strings.TrimSpace(para) != "" {
			out = append(out, para)
		}
	}
	return out
}

// addFused adds to c's candidates the base fused with go-trafilatura's
// body (fusedBody), when it differs from both. A union of the two and
// go-trafilatura's body filled with the base's paragraphs between two it
// holds were both tried as candidates: the second raised no held-out
// figure beside the first (fitconfidence --chooser, session 10). Their
// intersection (the base's paragraphs go-trafilatura's body holds) would
// raise even the best of each page's bodies by 0.003 word F1 on
// wcxb-dev's pages where the base is kept (session 11): not tried.
func (c *Choice) addFused() {
	i := slices.IndexFunc(c.Candidates, func(cand Candidate) bool { return cand.Name == CandidateTrafilatura })
	if i < 0 {
		return
	}
	if body := fusedBody(c.Base.Body, c.Candidates[i].Body); body != "" && body != c.Candidates[i].Body {
		c.Candidates = append(c.Candidates, Candidate{Name: CandidateFused, Body: body})
	}
}
