package singlepage

import (
	"strings"
	"testing"
)

func TestWithoutEchoes(t *testing.T) {
	long := strings.Repeat("one two three four five six ", 7) // 42 words
	tests := []struct {
		name, body, want string
	}{
		{"no echo", "One two three.\n\nFour five six.", "One two three.\n\nFour five six."},
		{"slide said again", "Fast and careful work.\n\nAnother slide here.\n\nFast and careful work.",
			"Fast and careful work.\n\nAnother slide here."},
		{"compared as words", "Fast and careful work.\n\nfast AND careful  work", "Fast and careful work."},
		{"table cells stay", "Yes\n\nTwo words\n\nYes\n\nTwo words", "Yes\n\nTwo words\n\nYes\n\nTwo words"},
		{"long paragraph stays", long + "\n\n" + long, long + "\n\n" + long},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := withoutEchoes(tt.body); got != tt.want {
			t.Errorf("%s: withoutEchoes = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCandidateEchoes reads a service page whose carousel of quotes is
// written twice in the source (cloned slides): every body holds each
// quote once.
func TestCandidateEchoes(t *testing.T) {
	tr, src := parseIn(t, "echoes", "slides.html")
	c, err := Choices(tr, Options{Source: src}.WithDefaults())
	if err != nil {
		t.Fatal(err)
	}
	quotes := []string{"Our genoa came back stronger", "recut an old mainsail", "beyond saving"}
	bodies := map[string]string{"base": c.Base.Body}
	for _, cand := range c.Candidates {
		bodies[cand.Name] = cand.Body
	}
	if bodies[CandidateTrafilatura] == "" {
		t.Fatalf("no %s candidate", CandidateTrafilatura)
	}
	for name, body := range bodies {
		for _, q := range quotes {
			if n := strings.Count(body, q); n != 1 {
				t.Errorf("%s: %q %d times in %q", name, q, n, body)
			}
		}
	}
}
