// Package relevance is the topic model of a focused crawl or a monitor:
// the weighted Lexicon a text is scored with, an optional Boolean Formula
// it must satisfy, its expansion and the threshold calibrated on the first
// texts scored (Calibrate, Babouk's first iteration), and SimHash
// fingerprints that tell near-duplicate texts apart.
package relevance
