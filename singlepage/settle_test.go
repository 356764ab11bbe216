package singlepage

import (
	"strings"
	"testing"
)

// TestSettled checks that a choice's bodies are read as the page ends
// with them: a script shell's base of a few words is replaced by the
// page's <noscript> text, which the chooser's fit must score instead of
// the shell's line; a base found whole stays as it is.
func TestSettled(t *testing.T) {
	tests := []struct {
		file    string
		want    []string
		notWant []string
		same    bool // the settled base is the base's body
	}{
		{"script-shell.html", []string{"winter timetable", "shuttle bus waits"}, []string{"Please wait"}, false},
		{"plain-article.html", []string{"through-stones", "coping stones"}, []string{"Home", "a journal of country skills"}, true},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, "settle", tt.file)
		opt := Options{Source: src}.WithDefaults()
		c, err := Choices(tr, opt)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		got := c.Settled(tr, -1, opt)
		checkBody(t, tt.file, got, tt.want, tt.notWant)
		if (got == c.Base.Body) != tt.same {
			t.Errorf("%s: settled base same as the base: %v, want %v (base %q)", tt.file, got == c.Base.Body, tt.same, c.Base.Body)
		}
		for i := range c.Candidates {
			if s := c.Settled(tr, i, opt); strings.TrimSpace(s) == "" {
				t.Errorf("%s: candidate %s settled empty", tt.file, c.Candidates[i].Name)
			}
		}
		// Out of range: the base.
		if s := c.Settled(tr, len(c.Candidates), opt); s != got {
			t.Errorf("%s: candidate out of range settled %q, want the base's %q", tt.file, s, got)
		}
	}
}

// TestChosen checks that Chosen follows the fitted models: without a
// model fitted to the candidates' features (here, too few of them) the
// fixed rule's verdict decides on go-trafilatura's body.
func TestChosen(t *testing.T) {
	tests := []struct {
		name  string
		cands []Candidate
		want  int
	}{
		{"none", nil, -1},
		{"rule takes", []Candidate{{Name: CandidateTrafilatura, Features: []float64{1, 0}}}, 0},
		{"rule keeps", []Candidate{{Name: CandidateTrafilatura, Features: []float64{0, 0}}}, -1},
		{"fused without model", []Candidate{{Name: CandidateFused, Features: []float64{1, 0}}}, -1},
	}
	for _, tt := range tests {
		c := Choice{Candidates: tt.cands}
		if got := c.Chosen(); got != tt.want {
			t.Errorf("%s: Chosen() = %d, want %d", tt.name, got, tt.want)
		}
	}
}
