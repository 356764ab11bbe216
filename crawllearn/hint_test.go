package crawllearn

import (
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/store"
)

func TestBodySelectors(t *testing.T) {
	rule := func(sel string, support float64) heuristics.Rules {
		return heuristics.Rules{Body: heuristics.Rule{Field: heuristics.FieldBody, Selector: sel, Support: support},
			Title: heuristics.Rule{Field: heuristics.FieldTitle, Selector: "h1", Support: 1}}
	}
	tests := []struct {
		name  string
		rules map[int]heuristics.Rules
		want  []string
	}{
		{"none", nil, nil},
		{"by support, repeats once, weak rules out", map[int]heuristics.Rules{
			0: rule("div.a", 0.6), 1: rule("div.b", 0.9), 2: rule("div.a", 0.8), 3: rule("div.weak", 0.3), 4: rule("", 1)},
			[]string{"div.b", "div.a"}},
		{"a handful at most, ties by selector", map[int]heuristics.Rules{
			0: rule("e", 1), 1: rule("d", 1), 2: rule("c", 1), 3: rule("b", 1), 4: rule("a", 1)},
			[]string{"a", "b", "c", "d"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := bodySelectors(tc.rules); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestExtractedRules: before a run's rules are stored, the hint is voted
// from the latest extraction of each member page (outliers and pages the
// run does not know have no say; a page under the confidence floor counts
// but votes for nothing), and the least region length is half the median
// body extracted with the chosen selectors.
func TestExtractedRules(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	x := func(page int64, sel string, conf float64, body string, age int) store.Extraction {
		return store.Extraction{PageID: page, Selector: sel, Confidence: conf, Body: body, CreatedAt: t0.Add(time.Duration(age) * time.Hour)}
	}
	tpl := &siteextract.Templates{Members: map[int64]store.Membership{
		1: {Cluster: 0}, 2: {Cluster: 0}, 3: {Cluster: 0}, 4: {Cluster: 0, Outlier: true},
		5: {Cluster: 1}, 6: {Cluster: 1}, 7: {Cluster: 1},
	}}
	xs := []store.Extraction{
		x(1, "div.old", 0.9, "older", 0), x(1, "article", 0.9, strings.Repeat("a", 100), 1),
		x(2, "article", 0.9, strings.Repeat("b", 300), 0),
		x(3, "main", 0.2, strings.Repeat("c", 50), 0), // not confident
		x(4, "aside", 0.9, "outlier", 0), x(8, "aside", 0.9, "unknown page", 0),
		x(5, "div.story", 0.9, "s", 0), x(6, "div.other", 0.9, "o", 0), x(7, "main", 0.1, "m", 0),
	}
	rules := extractedRules(xs, tpl)
	if len(rules) != 1 || rules[0].Body.Selector != "article" || rules[0].Body.Votes != 2 || rules[0].Body.Pages != 3 {
		t.Fatalf("rules %+v, want cluster 0 only: article, 2 of 3 votes (cluster 1 never agrees)", rules)
	}
	sels := bodySelectors(rules)
	if got := regionMinChars(xs, sels); got != 150 {
		t.Errorf("least region length %d, want 150 (half of the median of 100 and 300 chars)", got)
	}
	if got := regionMinChars(xs, []string{"nav"}); got != 0 {
		t.Errorf("least region length %d for a selector no body was extracted with, want 0", got)
	}
}
