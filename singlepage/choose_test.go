package singlepage

import (
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// TestChooseWith checks how a Choice picks a candidate: by its own
// model's probability over that model's bar, the furthest over winning;
// without a model, by the fixed rule, on go-trafilatura's body only.
func TestChooseWith(t *testing.T) {
	feats := func(rule, x float64) []float64 { return []float64{rule, x, 0} }
	// The model's probability rises with the second feature alone.
	m := chooser{Mean: []float64{0, 0, 0}, Std: []float64{1, 1, 1}, W: []float64{0, 4, 0}}
	high := chooser{Mean: m.Mean, Std: m.Std, W: m.W, Above: 0.99}
	both := map[string]chooser{CandidateTrafilatura: m, "other": m}
	tests := []struct {
		name   string
		models map[string]chooser
		cands  []Candidate
		want   int
	}{
		{"no candidate", both, nil, -1},
		{"model: none likely", both, []Candidate{{Name: CandidateTrafilatura, Features: feats(1, -1)}}, -1},
		{"model: one likely", both, []Candidate{{Name: CandidateTrafilatura, Features: feats(0, 1)}}, 0},
		{"model: the likelier of two", both, []Candidate{
			{Name: CandidateTrafilatura, Features: feats(1, 0.5)}, {Name: "other", Features: feats(0, 1)}}, 1},
		{"model: under its bar", map[string]chooser{CandidateTrafilatura: high}, []Candidate{{Name: CandidateTrafilatura, Features: feats(0, 1)}}, -1},
		{"each its own bar: the further over its own", map[string]chooser{CandidateTrafilatura: m, "other": high}, []Candidate{
			{Name: CandidateTrafilatura, Features: feats(0, 0.5)}, {Name: "other", Features: feats(0, 2)}}, 0},
		{"model of other features: rule", both, []Candidate{{Name: CandidateTrafilatura, Features: []float64{1, 0}}}, 0},
		{"no model: rule takes trafilatura", nil, []Candidate{{Name: CandidateTrafilatura, Features: feats(1, -1)}}, 0},
		{"no model: rule declines", nil, []Candidate{{Name: CandidateTrafilatura, Features: feats(0, 1)}}, -1},
		{"no model: another candidate never", map[string]chooser{CandidateTrafilatura: m}, []Candidate{{Name: "other", Features: feats(1, 1)}}, -1},
	}
	for _, tt := range tests {
		c := Choice{Candidates: tt.cands}
		if got := c.chooseWith(tt.models); got != tt.want {
			t.Errorf("%s: chooseWith = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestChoices reads the candidates of a real page: a short article and a
// long comment thread under it, where the block model and the other
// extractors see different bodies.
func TestChoices(t *testing.T) {
	src := []byte(`<html><head><title>Bridge to be rebuilt</title></head><body>
<nav><a href="/">Home</a> <a href="/w">World</a> <a href="/b">Business</a></nav>
<article><h1>Bridge to be rebuilt</h1>` + proseArticle + `</article>
<footer><p>Copyright 2025 The Town Paper. All rights reserved.</p></footer></body></html>`)
	tr, err := treediff.Parse("choices", src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		below float64
		want  []string
	}{
		{"asked", DefaultSecondOpinionBelow, []string{CandidateTrafilatura}},
		{"not asked", -1, nil},
	}
	for _, tt := range tests {
		c, err := Choices(tr, Options{Source: src, SecondOpinionBelow: tt.below}.WithDefaults())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, cand := range c.Candidates {
			got = append(got, cand.Name)
			if len(cand.Features) != len(ChoiceFeatureNames) {
				t.Errorf("%s: %s has %d features, want %d", tt.name, cand.Name, len(cand.Features), len(ChoiceFeatureNames))
			}
			if !strings.Contains(cand.Body, "rebuild the old stone bridge") || strings.Contains(cand.Body, "Copyright") {
				t.Errorf("%s: %s body %q", tt.name, cand.Name, cand.Body)
			}
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s: candidates %v, want %v", tt.name, got, tt.want)
		}
		if !strings.Contains(c.Block, "rebuild the old stone bridge") {
			t.Errorf("%s: block body %q", tt.name, c.Block)
		}
	}
}

// TestTake checks the result a taken candidate gives: its body, the
// second opinion's method, no element; title and metadata stay.
func TestTake(t *testing.T) {
	base := Result{Title: "T", Body: "mine", Selector: "article", Node: &treediff.Node{}, Method: MethodSingle, Date: "2025-01-02"}
	c := Choice{Base: base, Candidates: []Candidate{{Name: CandidateTrafilatura, Body: "theirs"}}}
	r := c.take(0)
	if r.Body != "theirs" || r.Method != MethodSecondOpinion || r.Node != nil || r.Selector != "" || r.Title != "T" || r.Date != base.Date {
		t.Errorf("take = %+v", r)
	}
}
