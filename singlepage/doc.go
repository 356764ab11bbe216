// Package singlepage locates the useful content of a page (title, body,
// date, author) from the page alone, and defines the Result every
// extraction method of Gleaner returns.
//
// Extract cuts the page into blocks of text and judges them (its block
// model: text and link density, cues, coherent runs of blocks), gathers a
// page's repeated units (a listing's items, a thread's posts) where they
// outweigh that body, and takes go-trafilatura's body, or the union of
// the two at paragraph level, instead where the evidence favours it. Hidden text and overlays are not content. Every
// result's confidence is calibrated (Calibrate: a logistic regression and
// an isotonic map over the extraction's Evidence, fitted by
// heuristics/internal/fitconfidence) to estimate the body's word F1, and
// carries the page's type (package pagetype).
package singlepage
