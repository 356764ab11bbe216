package siteextract

import (
	"sort"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/store"
)

// Conversions of extraction results to store rows: heuristics stays free of
// the store (and of cgo SQLite), so they live here.

// StoreExtraction returns r as the stored extraction of page pageID made with
// the templates of learning run runID (0 for none).
func StoreExtraction(r singlepage.Result, pageID, runID int64) store.Extraction {
	return store.Extraction{PageID: pageID, RunID: runID, Title: r.Title, Body: r.Body,
		Selector: r.Selector, Confidence: r.Confidence, Method: r.Method, Date: r.Date, Author: r.Author, PageType: r.PageType}
}

// VotedRules returns the rules of a site's clusters (SiteExtraction.Rules)
// that selected something, in cluster order, body before title, each with
// its cluster: the order they are stored and reported in.
func VotedRules(rules map[int]heuristics.Rules) (cluster []int, voted []heuristics.Rule) {
	cids := make([]int, 0, len(rules))
	for c := range rules {
		cids = append(cids, c)
	}
	sort.Ints(cids)
	for _, c := range cids {
		for _, r := range []heuristics.Rule{rules[c].Body, rules[c].Title} {
			if r.Selector != "" {
				cluster = append(cluster, c)
				voted = append(voted, r)
			}
		}
	}
	return cluster, voted
}

// StoreRules returns the voted rules of a site's clusters as the store rules
// of learning run runID, in the order of VotedRules.
func StoreRules(site string, runID int64, rules map[int]heuristics.Rules) []store.Rule {
	cluster, voted := VotedRules(rules)
	out := make([]store.Rule, len(voted))
	for i, r := range voted {
		out[i] = store.Rule{Site: site, RunID: runID, Cluster: cluster[i], Field: r.Field, Selector: r.Selector, Support: r.Support}
	}
	return out
}
