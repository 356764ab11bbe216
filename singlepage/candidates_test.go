package singlepage

import "testing"

// TestTieNotTaken: a candidate holding exactly the base's words (on
// article.html go-trafilatura's body is the base's paragraphs run
// together) is never taken, even by a chooser that would take any
// candidate: a tie gains no word and loses the base's element.
func TestTieNotTaken(t *testing.T) {
	tests := []struct {
		file string
		want int // the candidate chosen, -1 for none
	}{
		{"article.html", -1},
	}
	for _, tt := range tests {
		tr, src := parseFile(t, tt.file)
		c, err := Choices(tr, Options{Source: src}.WithDefaults())
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if len(c.Candidates) == 0 {
			t.Fatalf("%s: no candidate", tt.file)
		}
		n := len(c.Candidates[0].Features)
		ones := make([]float64, n)
		for i := range ones {
			ones[i] = 1
		}
		takesAll := chooser{Mean: make([]float64, n), Std: ones, W: make([]float64, n), Bias: 5, Above: 0.65}
		if WordOverlap(c.Base.Body, c.Candidates[0].Body) != 1 {
			t.Fatalf("%s: the candidate is no tie:\n%s\n---\n%s", tt.file, c.Base.Body, c.Candidates[0].Body)
		}
		if got := c.chooseWith(map[string]chooser{CandidateTrafilatura: takesAll, CandidateFused: takesAll}); got != tt.want {
			t.Errorf("%s: chosen %d, want %d", tt.file, got, tt.want)
		}
	}
}
