package heuristics

import (
	"testing"

	"github.com/gleaner/gleaner/singlepage"
)

func TestVote(t *testing.T) {
	cases := []struct {
		name     string
		sels     []string
		minVotes int
		want     string
		votes    int
		ok       bool
	}{
		{"majority", []string{"div#a", "div#a", "div#b", ""}, 2, "div#a", 2, true},
		{"tie goes to the first in order", []string{"div#b", "div#a"}, 1, "div#a", 1, true},
		{"too few votes", []string{"div#a", "div#b"}, 2, "div#a", 1, false},
		{"no choice at all", []string{"", ""}, 1, "", 0, false},
		{"nothing", nil, 1, "", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, ok := Vote(FieldBody, c.sels, c.minVotes)
			if ok != c.ok || r.Selector != c.want || r.Votes != c.votes {
				t.Fatalf("got %+v %v, want %q with %d votes, %v", r, ok, c.want, c.votes, c.ok)
			}
			if ok && (r.Pages != len(c.sels) || r.Support != float64(r.Votes)/float64(len(c.sels)) || r.Field != FieldBody) {
				t.Errorf("rule %+v", r)
			}
		})
	}
}

func TestApplyRules(t *testing.T) {
	page, _, want := storyPage(t, "2")
	medoid, _, _ := storyPage(t, "1")
	body := Rule{Field: FieldBody, Selector: "div#page > div.story > div.story-body", Votes: 3, Pages: 4, Support: 0.75}
	title := Rule{Field: FieldTitle, Selector: "div#page > div.story > h1.headline", Votes: 4, Pages: 4, Support: 1}
	r, ok := ApplyRules(page, medoid, body, title, PairOptions{})
	if !ok {
		t.Fatal("rule selected nothing")
	}
	if r.Method != singlepage.MethodCluster || r.Confidence != 0.75 || r.Selector != body.Selector {
		t.Errorf("result %+v", r)
	}
	if r.Title != "Council delays the river vote" {
		t.Errorf("title %q", r.Title)
	}
	if singlepage.NormWords(r.Body) != singlepage.NormWords(want) {
		t.Errorf("body %q", r.Body)
	}
	// Without a title rule nor a medoid, the title is the heading found
	// above the body.
	r, ok = ApplyRules(page, nil, body, Rule{}, PairOptions{})
	if !ok || r.Title != "Council delays the river vote" {
		t.Errorf("no title rule: %v %q", ok, r.Title)
	}
	if _, ok := ApplyRules(page, medoid, Rule{Selector: "div#absent"}, title, PairOptions{}); ok {
		t.Error("absent element: applied")
	}
}
