package singlepage

import (
	"github.com/gleaner/gleaner/treediff"
)

// Settled returns the body the single-page method ends with on page t
// when it takes candidate i of c (-1: the base): an article's closing bio
// and the site's sections below it left out (withoutTail, as
// withSecondOpinion does), then a body barely found read
// again (afterChoice: from <noscript>, with hidden boxes shown, from a
// thread's description). fitconfidence --chooser scores these bodies,
// the ones a page gets, so that the chooser learns what its choice
// changes: a base of a few words that a later reading replaces is not a
// loss the candidate saves the page from.
func (c *Choice) Settled(t *treediff.Tree, i int, opt Options) string {
	r := c.Base
	if i >= 0 && i < len(c.Candidates) {
		r = c.take(i)
	}
	r.Body = c.withoutTail(r.Body)
	r, err := afterChoice(t, r, nil, opt)
	if err != nil {
		return ""
	}
	return r.Body
}

// afterChoice is what Alone does once the body is chosen, to a body the
// block model and the candidates barely found: read from <noscript>
// (withNoscript) or with hidden boxes shown (withRevealed); a forum
// thread's shell with no body at all, from its description
// (withDescription).
func afterChoice(t *treediff.Tree, r Result, err error, opt Options) (Result, error) {
	r, err = withNoscript(t, r, err, opt)
	r, err = withRevealed(t, r, err, opt)
	return withDescription(t, r, err, opt)
}
