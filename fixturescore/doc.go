// Package fixturescore scores what Gleaner's crawls and monitor rounds did
// on the fixture web (package fixtures) against its ground truth: harvest
// rate, the relevance judgement's precision and recall, the extraction's
// shingle F1 against the gold texts, the new articles a round found; and
// the harvest-rate comparison of the crawl strategies.
package fixturescore
