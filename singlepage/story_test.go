package singlepage

import (
	"strings"
	"testing"
)

// TestStoryArticle: a story's <article> element whose class holds a weak
// cue ("newsletter-post") keeps its short paragraphs, on a page whose
// comments hold more prose than the story; the short related stories'
// <article> cards beside it stay under their cue. A story's column under
// a weak cue keeps its one-sentence paragraphs amid its text.
func TestStoryArticle(t *testing.T) {
	tests := []struct {
		file      string
		has, hasN []string
	}{
		{
			file: "storyclass.html",
			has: []string{
				"They want to retire.",
				"Customers were sad but not surprised.",
				"They thanked their customers.",
				"In a note taped to the window they wrote",
			},
			hasN: []string{"Market hall gets a new roof", "Reader 1"},
		},
		{
			// A story's column under a weak cue ("with-sidebar"): its
			// one-sentence paragraphs amid the story are the story's; a
			// newsletter box's sentence after it is not.
			file: "weakcolumn.html",
			has: []string{
				"The steps down to the water were rebuilt by hand over six weeks.",
				"Residents welcomed the work, though some asked why it had taken so long.",
				"A small ceremony is planned for the first weekend of May, by the water.",
			},
			hasN: []string{"inbox every morning", "Reader 1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, src := parseFile(t, tt.file)
			r, err := BlockModel(tr, Options{Source: src}.WithDefaults(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.has {
				if !strings.Contains(r.Body, s) {
					t.Errorf("body lacks %q:\n%s", s, r.Body)
				}
			}
			for _, s := range tt.hasN {
				if strings.Contains(r.Body, s) {
					t.Errorf("body has %q:\n%s", s, r.Body)
				}
			}
		})
	}
}
