package singlepage

import "testing"

// TestHiddenQualified: "hidden" marks an element as not shown when it
// stands for the element, not when it names a screen or medium it is
// hidden on, or a part of the element that is hidden; hidden on every
// screen, it is hidden.
func TestHiddenQualified(t *testing.T) {
	tests := []struct {
		class string
		want  cueStrength
	}{
		{"hidden", strongCue},
		{"is-hidden", strongCue},
		{"visually-hidden", strongCue},
		{"ad-slot", strongCue},
		{"hidden-xs", noCue},
		{"hidden-sm hidden-md", noCue},
		{"field field--label-hidden field__item", noCue},
		{"x-section x-hidden-mobile", noCue},
		{"x-section x-hidden-desktop x-hidden-tablet x-hidden-mobile", strongCue},
		{"ad-hidden-mobile", strongCue}, // "ad" still marks it
	}
	for _, tt := range tests {
		if got := attrCue(tt.class); got != tt.want {
			t.Errorf("attrCue(%q) = %v, want %v", tt.class, got, tt.want)
		}
	}
}

// TestAuthorBox: a box naming the author's bio, profile or card, or
// "about the author", is no article text; a byline or an author's name
// is no box.
func TestAuthorBox(t *testing.T) {
	tests := []struct {
		v    string
		want bool
	}{
		{"author-bio", true},
		{"post-authorbox", true},
		{"author_profile wrap", true},
		{"about-the-author", true},
		{"abouttheauthor", true},
		{"about_author", true},
		{"entry-author-description", true},
		{"post-author", false},
		{"author-name", false},
		{"authors-container", false},
		{"byline author", false},
		{"article-body", false},
	}
	for _, tt := range tests {
		if got := authorBox(tt.v); got != tt.want {
			t.Errorf("authorBox(%q) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
