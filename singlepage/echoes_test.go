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

func TestChant(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{strings.Repeat("Book now * ", 6), true},
		{strings.Repeat("word ", 40), true},
		{strings.Repeat("Book now * ", 5), false},
		{"Sails, covers and tents: we sew sails, covers and tents, and we mend sails, covers and tents.", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := chant(tt.text); got != tt.want {
			t.Errorf("chant(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestCandidateEchoes reads a service page whose carousel of quotes is
// written twice in the source (cloned slides) and whose strip repeats one
// line of words: every body holds each quote once and not the strip.
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
	if strings.Contains(c.Base.Body, "Free inspection") {
		t.Errorf("base: the strip in %q", c.Base.Body)
	}
	for name, body := range bodies {
		for _, q := range quotes {
			if n := strings.Count(body, q); n != 1 {
				t.Errorf("%s: %q %d times in %q", name, q, n, body)
			}
		}
	}
}
