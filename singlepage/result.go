package singlepage

import (
	"github.com/gleaner/gleaner/treediff"
)

// Methods that can decide a Result.
const (
	MethodSingle  = "single-page"
	MethodPair    = "pair-diff"
	MethodCluster = "cluster-rule"
)

// Result is the content located in one page.
type Result struct {
	// Title is the page's headline (one line).
	Title string
	// Body is the article text, paragraphs separated by blank lines.
	Body string
	// Node is the element chosen as holding the body (in the full tree), nil
	// when no element was found.
	Node *treediff.Node
	// Selector is a CSS selector of Node (see selector.Of).
	Selector string
	// Confidence in [0, 1]: the word F1 the body is expected to reach,
	// calibrated on annotated pages (see Evidence); the method's own
	// confidence where no calibration ran (e.g. PairDiff alone).
	Confidence float64
	// RawConfidence is the method's own confidence in its choice.
	RawConfidence float64
	// PageType is the page's kind, one of PageTypes ("" when not
	// classified).
	PageType string
	// Evidence is what Confidence was calibrated from, nil when it was not.
	Evidence *Evidence

	// agreement is the word F1 of the block model's body against
	// go-trafilatura's (-1 when go-trafilatura failed), measured when the
	// single-page method asked for its body (secondAsked): calibration
	// uses it without running go-trafilatura a second time.
	agreement   float64
	secondAsked bool
	// chooser is the chooser's highest probability that another
	// extractor's body beats the block model's (chooserKnown: a fitted
	// chooser weighed one); block is the word F1 of a compared method's
	// body against the block model's (blockKnown: both had a body). The
	// calibration reads both (Evidence).
	chooser, block           float64
	chooserKnown, blockKnown bool
	// lineWords are the words of Body's lines the block model keeps
	// between its paragraphs (spanLine), not its prose.
	lineWords int
	// Method says which method decided: MethodSingle, MethodPair or
	// MethodCluster.
	Method string
	// Date is the publication date as stated by the page (ISO 8601 when the
	// page gives a machine-readable one), empty when absent.
	Date string
	// Author is the stated author, empty when absent.
	Author string
}

// proseWords is the number of words of the body outside the lines the
// block model keeps between its paragraphs (lineWords).
func (r Result) proseWords() int {
	return max(len(treediff.Words(r.Body))-r.lineWords, 0)
}

// Text returns what is scored against a gold that holds the headline: the
// title line, a blank line, then the body. Either part may be empty.
func (r Result) Text() string {
	switch {
	case r.Title == "":
		return r.Body
	case r.Body == "":
		return r.Title
	}
	return r.Title + "\n\n" + r.Body
}
