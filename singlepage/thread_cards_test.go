package singlepage

import (
	"testing"

	"github.com/gleaner/gleaner/pagetype"
)

// TestCardField: a short "label: value" line whose label is a field of a
// poster's card is one; a post's own line that starts alike, or a label
// of no card, is not.
func TestCardField(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Joined: 4. Jul 2012, 16:09", true},
		{"Location: An Ant Farm", true},
		{"Member since: 2019", true},
		{"Reactions: 1,204", true},
		{"Joined:", false},
		{"Location: we met at the old mill by the river last summer, and then", false},
		{"Build list: a lathe", false},
		{"Joined the club in 2019", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := cardField(tt.text); got != tt.want {
			t.Errorf("cardField(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestCardDetailName: a class naming a poster and a detail of their card
// is one; a poster's name, their post's content, a page's title are not.
func TestCardDetailName(t *testing.T) {
	tests := []struct {
		tok  string
		want bool
	}{
		{"message-usertitle", true},
		{"message-userextras", true},
		{"extrauserinfo", true},
		{"profile-rank", true},
		{"author-badge", true},
		{"message-username", false},
		{"message-usercontent", false},
		{"page-title", false},
		{"user", false},
	}
	for _, tt := range tests {
		if got := cardDetailName(tt.tok); got != tt.want {
			t.Errorf("cardDetailName(%q) = %v, want %v", tt.tok, got, tt.want)
		}
	}
}

// TestThreadCards: a thread's posts, in a "comments" region, keep their
// text; each post's signature, its poster's title, banner and extras,
// the card's fields (joined, location), its tagline (score and age) and
// its share menu (named after comments too) stay out.
func TestThreadCards(t *testing.T) {
	const file = "cards-signatures.html"
	tr, src := parseIn(t, "thread", file)
	if typ, _ := pagetype.Classify(tr, src); typ != pagetype.Forum {
		t.Fatalf("%s: read as %s, not forum", file, typ)
	}
	r, err := Extract(tr, Options{Source: src})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	checkBody(t, file, r.Body,
		[]string{"Post number 0", "Post number 2", "Post number 4"},
		[]string{"too many chisels", "sharpen number", "Well-known turner", "Supporting member",
			"Joined", "Location:", "Link to this post", "hours ago", "All rights reserved"})
}

// TestTaglineLine: a comment's tagline (a name, its score and age) is
// one; a post's own line with a figure and "ago" is not.
func TestTaglineLine(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"[–]ann_b 188 points 189 points 190 points 17 hours ago (11 children)", true},
		{"bob 3 points 2 days ago", true},
		{"(edited 1 year ago)", false},
		{"I fixed it 3 days ago", false},
		{"ann 12 points", false},
		{"Two weeks ago the belt broke again", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := taglineLine(tt.text); got != tt.want {
			t.Errorf("taglineLine(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
