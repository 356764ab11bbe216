package singlepage

import "testing"

// TestWithoutBios drops the stated author's bio at either end of a body,
// whichever candidate gave it, and keeps the body's mentions of a person
// named like the author, a company's text about itself and bodies whose
// author is unknown.
func TestWithoutBios(t *testing.T) {
	article := []string{
		"The council approved the new bridge on Tuesday after a debate that lasted more than ten years and split the town in two.",
		"Supporters said the bridge would cut travel times for thousands of commuters, while opponents worried about the cost.",
		"Work is expected to start next spring, once the last permits are signed and the river is low enough to work in.",
		"The project will be paid for by the city and a regional grant, according to the council's budget documents.",
	}
	bio := "Jane Doe is a staff writer covering city hall. She joined the paper in 2015 after ten years at a radio station."
	tests := []struct {
		name, author string
		body, want   []string
	}{
		{"bio at the end", "Jane Doe", append(append([]string{}, article...), bio), article},
		{"bio and its next paragraph", "Dr. Jane Doe", append(append([]string{}, article...), bio,
			"When she is not writing, she coaches a youth football team."), article},
		{"bio at the top", "Jane Doe", append([]string{bio}, article...), article},
		{"first name only", "Jane Doe", append(append([]string{}, article...),
			"Jane has covered the city for ten years. Her work has won two state awards."), article},
		{"one of two authors", "Bo Chen and Jane Doe", append(append([]string{}, article...), bio), article},
		{"one line without a pronoun", "Jane Doe", append(append([]string{}, article...), "Jane Doe is a former bureau chief of the radio."), nil},
		{"person in the middle", "Jane Doe", append(append(append([]string{}, article[:2]...),
			"Jane Doe is a resident who has crossed the river by ferry every day for thirty years, and she welcomed the vote."), article[2:]...), nil},
		{"company stated as author", "Acme", append(append([]string{}, article...),
			"Acme is a leading maker of bridge parts, with plants in four countries and a network of partners that have served the whole region and its builders for decades."), nil},
		{"no author", "", append(append([]string{}, article...), bio), nil},
		{"not a bio verb", "Jane Doe", append(append([]string{}, article...), "Jane Doe, the mayor, thanked the council for its work on the bridge."), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names := authorNames(tt.author)
			checkCut(t, "withoutBios", func(body string) string { return withoutBios(body, names) }, tt.body, tt.want)
		})
	}
}

// TestAuthorBioPage reads an article closed by its author's bio in a box
// named nothing general: the bio (its first paragraph opens with the
// stated author's name and a verb introducing a person, the next with a
// pronoun) is left out, the article's own mention of her, in its middle,
// stays.
func TestAuthorBioPage(t *testing.T) {
	checkPage(t, "gather", "author-bio.html",
		[]string{"A layer of mulch", "Maria Lopez, a soil scientist", "In spring, pull the mulch back"},
		[]string{"garden writer who has tested", "doctorate in agronomy", "All rights reserved"})
}
