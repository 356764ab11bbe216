package singlepage

import (
	"strings"
	"testing"
)

// TestWithoutClosing cuts an article's body before a label standing
// alone that opens the site's closing sections (sharing, newsletter,
// other stories, the author's box, comments, tags) once most of the
// article's words are above it, and keeps the body whole when the label
// comes early, carries more words, or is not one.
func TestWithoutClosing(t *testing.T) {
	article := []string{
		"The council approved the new bridge on Tuesday after a debate that lasted more than ten years and split the town in two.",
		"Supporters said the bridge would cut travel times for thousands of commuters, while opponents worried about the cost.",
		"Work is expected to start next spring, once the last permits are signed and the river is low enough to work in.",
		"The project will be paid for by the city and a regional grant, according to the council's budget documents.",
	}
	with := func(tail ...string) []string { return append(append([]string{}, article...), tail...) }
	tests := []struct {
		name       string
		body, want []string
	}{
		{"share label", with("Share this article:", "Facebook", "Email"), article},
		{"other stories", with("You may also like", "Ten bridges worth a detour this summer", "Why the ferry still runs"), article},
		{"author box", with("About the Author", "A reporter who covers the town's roads and rivers."), article},
		{"counted comments", with("12 Comments", "Great news for the town, finally."), article},
		{"follow us", with("Follow us!", "Newsletter", "Sign up for our weekly digest."), article},
		{"tags", with("Tags", "bridges", "council"), article},
		{"written by a name", with("Written by Jane Doe", "Jane covers the town's roads."), article},
		{"byline too long", with("Written by Jane Doe and the whole team at the desk"), nil},
		{"label early", append([]string{article[0], "Comments"}, article[1:]...), nil},
		{"label with more words", with("Share this article with a friend who drives across the river every day"), nil},
		{"not a label", with("Related reading on the budget", "The grant covers half the cost."), nil},
		{"no label", article, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCut(t, "withoutClosing", withoutClosing, tt.body, tt.want)
		})
	}
}

// checkCut checks that cut, given body's paragraphs parted by blank
// lines, returns want's (body's when want is nil).
func checkCut(t *testing.T, name string, cut func(string) string, body, want []string) {
	t.Helper()
	in := strings.Join(body, "\n\n")
	out := in
	if want != nil {
		out = strings.Join(want, "\n\n")
	}
	if got := cut(in); got != out {
		t.Errorf("%s =\n%s\nwant\n%s", name, got, out)
	}
}

// checkPage extracts testdata/dir/name and checks its body holds want
// and none of notWant.
func checkPage(t *testing.T, dir, name string, want, notWant []string) {
	t.Helper()
	tr, src := parseIn(t, dir, name)
	r, err := Extract(tr, Options{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	checkBody(t, name, r.Body, want, notWant)
}

// TestClosingPage reads an article whose last box, named nothing
// general, opens on a label alone ("Share this article") and holds the
// site's calls to share and follow: they are left out, the article's
// paragraphs stay.
func TestClosingPage(t *testing.T) {
	checkPage(t, "gather", "closing-share.html",
		[]string{"Winter squash keeps for months", "Thin-skinned kinds such as delicata"},
		[]string{"Share this article", "Send it to a friend", "Weekly recipes and growing tips"})
}
