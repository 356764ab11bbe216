package singlepage

import (
	"strings"
	"testing"
)

// TestFeatureCards checks which short lines in small boxes with a
// picture the block model reads as photo captions: a feature card's
// heading and line are text; a gallery's captions, a figure's caption and
// a related story's summary stay out.
func TestFeatureCards(t *testing.T) {
	tests := []struct {
		file      string
		kept, out []string // blocks' text starts
	}{
		{"card-features.html", []string{"Private networking", "Every app gets its own network", "Dashboards for every service"}, nil},
		{"gallery-related.html", nil, []string{"Water covers the quay", "A boat crosses", "Engineers say the work", "Trains run again"}},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, "gather", tt.file)
		p := newPage(tr, Options{Source: src, SecondOpinionBelow: -1})
		for _, line := range tt.kept {
			checkLineKept(t, p, tt.file, line, true)
		}
		for _, line := range tt.out {
			checkLineKept(t, p, tt.file, line, false)
		}
	}
}

// checkLineKept checks that the block of p starting with line is kept (not
// classBad) or not, as want says.
func checkLineKept(t *testing.T, p *page, file, line string, want bool) {
	t.Helper()
	for _, b := range p.blocks {
		if strings.HasPrefix(b.text, line) {
			if got := b.class != classBad; got != want {
				t.Errorf("%s: %q kept %v, want %v", file, line, got, want)
			}
			return
		}
	}
	t.Errorf("%s: no block %q", file, line)
}
