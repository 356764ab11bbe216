package siteextract

import (
	"reflect"
	"testing"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/store"
)

// TestStoreRules checks that only rules with a selector are kept, in cluster
// order, body before title.
func TestStoreRules(t *testing.T) {
	rules := map[int]heuristics.Rules{
		7: {Body: heuristics.Rule{Field: "body", Selector: "div.b", Votes: 3, Pages: 4, Support: 0.75}},
		2: {Body: heuristics.Rule{Field: "body", Selector: "article", Votes: 2, Pages: 2, Support: 1},
			Title: heuristics.Rule{Field: "title", Selector: "h1", Votes: 1, Pages: 2, Support: 0.5}},
		5: {},
	}
	want := []store.Rule{
		{Site: "s", RunID: 9, Cluster: 2, Field: "body", Selector: "article", Support: 1},
		{Site: "s", RunID: 9, Cluster: 2, Field: "title", Selector: "h1", Support: 0.5},
		{Site: "s", RunID: 9, Cluster: 7, Field: "body", Selector: "div.b", Support: 0.75},
	}
	if got := StoreRules("s", 9, rules); !reflect.DeepEqual(got, want) {
		t.Errorf("StoreRules = %+v, want %+v", got, want)
	}
	if got := StoreRules("s", 9, nil); len(got) != 0 {
		t.Errorf("StoreRules(nil) = %+v, want none", got)
	}
}
