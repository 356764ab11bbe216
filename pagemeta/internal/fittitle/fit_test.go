package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/pagemeta"
)

// synthetic are pages of two candidates each: the rules' (feature 0)
// is right on the odd pages, the other, which feature 1 marks, on the
// even ones, and feature 1 is set only on those.
func synthetic(n int) []record {
	var recs []record
	for i := 0; i < n; i++ {
		ruleRight := i%2 == 1
		other := pagemeta.TitleCandidate{Text: fmt.Sprint("other ", i), Features: []float64{0, b2f(!ruleRight)}}
		rule := pagemeta.TitleCandidate{Text: fmt.Sprint("rule ", i), Features: []float64{1, 0}}
		gold := rule.Text
		if !ruleRight {
			gold = other.Text
		}
		recs = append(recs, record{Set: "s", ID: fmt.Sprint(i), Era: "service", PageType: "service", Site: fmt.Sprint("site", i%7), Gold: gold,
			Cands: []pagemeta.TitleCandidate{rule, other}})
	}
	return recs
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestFitChooses(t *testing.T) {
	recs := synthetic(60)
	w := fitAll(recs)
	for _, r := range recs {
		if got := pick(w, r); got != r.right() {
			t.Fatalf("page %s: picked %d, right %d (weights %v)", r.ID, got, r.right(), w)
		}
	}
	held := heldOut(recs)
	var b strings.Builder
	report(&b, recs, held, w)
	if !strings.Contains(b.String(), "s all") || !strings.Contains(b.String(), "100.0%") {
		t.Errorf("report:\n%s", b.String())
	}
	src := goSource(w)
	if !strings.Contains(src, "var titleWeights = []float64{") || !strings.Contains(src, "fittitle") {
		t.Errorf("source:\n%s", src)
	}
}

func TestFoldKeepsSites(t *testing.T) {
	if foldOf("a.example") != foldOf("a.example") {
		t.Fatal("fold not deterministic")
	}
}

// TestChooseFlag: --choose makes the chooser decide a page type it
// leaves to the hand rules, for the report; without it, an article's
// pick is the rules' candidate.
func TestChooseFlag(t *testing.T) {
	defer func() { alsoChosen = nil }()
	w := []float64{0, 1} // the other candidate scores highest
	r := synthetic(2)[0] // the other candidate is right
	tests := []struct {
		pageType string
		also     []string
		want     int
	}{
		{"service", nil, 1},
		{"article", nil, 0},
		{"article", []string{"article"}, 1},
		{"product", []string{"article"}, 0},
	}
	for _, tt := range tests {
		alsoChosen = tt.also
		r.PageType = tt.pageType
		if got := pick(w, r); got != tt.want {
			t.Errorf("%s with --choose %v: picked %d, want %d", tt.pageType, tt.also, got, tt.want)
		}
	}
}
