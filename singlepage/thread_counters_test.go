package singlepage

import (
	"testing"

	"github.com/gleaner/gleaner/pagetype"
)

// TestCounterLine: a figure alone, or figures beside counter words only,
// is a post's counter; a line that says anything else is not.
func TestCounterLine(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"13", true},
		{"-2", true},
		{"23.8k 14 14 gold badges 88 88 silver badges 124 124 bronze badges", true},
		{"Posts: 4032", true},
		{"Reply 4", true},
		{"1 Like", true},
		{"2024 2025", false},
		{"Senior Member", true},
		{"12 posts · joined 2019", true},
		{"New ideas welcome", false},
		{"I have 14 gold badges now", false},
		{"Version 2.1 fixed it.", false},
		{"#3", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := counterLine(tt.text); got != tt.want {
			t.Errorf("counterLine(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestThreadCounters: a thread's posts keep their text; each post's vote
// count, its likes and its poster's card of reputation and badge counts
// stay out.
func TestThreadCounters(t *testing.T) {
	tests := []struct {
		file          string
		want, notWant []string
	}{
		{"qa-counters.html",
			[]string{"Post number 0", "Post number 1", "Post number 2", "Post number 3"},
			[]string{"badges", "Posts: 4032", "Reply 3", "Likes", "Senior Member", "\n\n13\n\n", "All rights reserved"}},
		// Two posts are no group of units: their counters go all the
		// same.
		{"two-posts.html",
			[]string{"Post number 0", "Post number 1"},
			[]string{"badges", "Likes", "Senior Member", "\n\n13\n\n", "\n\n14\n\n"}},
		// A thread sent as a script shell with its posts in <noscript>:
		// read from there, without their counters.
		{"noscript-counters.html",
			[]string{"Post number 0", "Post number 1", "Post number 2", "Post number 3"},
			[]string{"Likes", "works best with JavaScript"}},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, "thread", tt.file)
		if typ, _ := pagetype.Classify(tr, src); typ != pagetype.Forum {
			t.Fatalf("%s: read as %s, not forum", tt.file, typ)
		}
		r, err := Extract(tr, Options{Source: src})
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		checkBody(t, tt.file, "\n\n"+r.Body+"\n\n", tt.want, tt.notWant)
	}
}
