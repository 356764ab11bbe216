package heuristics

import (
	"testing"

	"github.com/gleaner/gleaner/treediff"
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

const selectPage = `<html><body>
<div id="top"><p>a</p></div>
<div class="main wide"><div class="x">one</div><div class="x">two</div></div>
<div id="9lives"><span>cat</span></div>
<table><tr><td>c1</td><td class="story">c2</td></tr></table>
</body></html>`

func TestSelect(t *testing.T) {
	tree, err := treediff.Parse("select", []byte(selectPage), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Every element's own selector selects it back.
	for _, n := range tree.Nodes {
		if n.Kind != treediff.Element {
			continue
		}
		sel := CSSSelector(n)
		got, err := Select(tree, sel)
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		if got != n {
			t.Errorf("Select(%q) = %v, want %s", sel, got, n.Path())
		}
	}
	cases := []struct {
		sel  string
		text string // text of the selected element, "" for none
	}{
		{"div.main > div.x:nth-of-type(2)", "two"},
		{"div.main > div.x", ""}, // two elements: ambiguous
		{"html > body > div.main.wide > div.x:nth-of-type(1)", "one"},
		{"html > body > div.main > div.x:nth-of-type(5)", ""}, // rank gone and ambiguous
		{"div#top > p:nth-of-type(3)", "a"},                   // rank shifted, still one p
		{"html > body > table > tbody > tr > td.story", "c2"},
		{`div#\39 lives > span`, "cat"},
		{"div#nothere", ""},
	}
	for _, c := range cases {
		got, err := Select(tree, c.sel)
		if err != nil {
			t.Fatalf("%s: %v", c.sel, err)
		}
		text := ""
		if got != nil {
			text = got.Text()
		}
		if text != c.text {
			t.Errorf("Select(%q) text %q, want %q", c.sel, text, c.text)
		}
	}
	for _, bad := range []string{"", "  ", "div > ", "div:nth-of-type(x)", "div:nth-of-type(2", "#id"} {
		if _, err := Select(tree, bad); err == nil {
			t.Errorf("Select(%q): no error", bad)
		}
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
	if r.Method != MethodCluster || r.Confidence != 0.75 || r.Selector != body.Selector {
		t.Errorf("result %+v", r)
	}
	if r.Title != "Council delays the river vote" {
		t.Errorf("title %q", r.Title)
	}
	if normWords(r.Body) != normWords(want) {
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
