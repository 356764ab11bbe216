package singlepage

import (
	"errors"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/treediff"
)

func parseFile(t *testing.T, name string) (*treediff.Tree, []byte) {
	t.Helper()
	return parseIn(t, "single", name)
}

func TestExtractSingle(t *testing.T) {
	tests := []struct {
		file     string
		title    string
		body     []string // paragraphs, in order
		selector string
		date     string
		author   string
	}{
		{
			file:  "article.html",
			title: "Council approves new bridge",
			body: []string{
				"The city council voted on Tuesday to approve the construction of a new bridge over the river, ending a debate that lasted for more than a decade.",
				"Supporters said the bridge would cut travel times for thousands of commuters, while opponents worried about the cost and the impact on the old town.",
				"Work is expected to start next spring.",
				"The project will be paid for by a mix of city funds and a grant from the regional government, according to the council's budget documents.",
			},
			selector: "html > body > div.layout > div.main > div.story-body",
			date:     "2024-03-01T10:00:00Z",
			author:   "Jane Doe",
		},
		{
			// Table layout, paragraphs cut by <br><br>, headline in a <font>
			// line above a dateline, a document title that names no story.
			file:  "brtable.html",
			title: "Storm Closes Schools Across the Region",
			body: []string{
				"Schools across the region were closed on Monday after a storm brought heavy snow and strong winds, officials said.",
				"Bus services were suspended in several districts, and parents were asked to keep children at home until the roads are cleared.",
				"The weather service expects the snow to stop by Tuesday evening, with temperatures rising slowly through the week.",
			},
			selector: "html > body > table > tbody > tr:nth-of-type(2) > td:nth-of-type(2)",
			date:     "2005-03-12", // "Posted: 2:51 pm March 12, 2005", a labelled field
		},
		{
			// Entries with subheadings parted by share links.
			file:  "subheads.html",
			title: "Live: Harbour storm",
			body: []string{
				"Ferries cancelled",
				"All ferries to the islands were cancelled on Monday morning as the wind reached gale force along the coast.",
				"Schools closed",
				"The council closed every school in the harbour district and asked parents to keep their children at home.",
			},
			selector: "html > body > div.main > ol.feed",
		},
		{
			// A subscription box with a form after the article, in the
			// same table cell.
			file:  "formbox.html",
			title: "Museum reopens",
			body: []string{
				"The city museum reopened its doors on Saturday after a two-year renovation that cost more than the original building.",
				"Visitors queued around the block to see the new galleries, which double the space given to the permanent collection.",
				"The director said the museum would stay open late on Thursdays so that people who work during the day can visit too.",
				"Entry remains free for children and students, while adults pay a small fee that goes to the upkeep of the collection.",
			},
			selector: "html > body > table > tbody > tr > td",
		},
		{
			// A key-points list: its short plain items go with the long one.
			file:  "keypoints.html",
			title: "Rail strike called off",
			body: []string{
				"Unions and the rail company reached a deal late on Sunday night",
				"Trains will run normally on Monday",
				"Pay talks resume next month",
				"The rail strike planned for Monday was called off after unions and the company reached an agreement late on Sunday night.",
				"Commuters had been told to work from home, and several schools had planned to close for the day.",
			},
			selector: "html > body > div.story",
		},
		{
			// An author box after the article: its bio is long prose
			// with no link, by an author the page does not name.
			file:  "authorbox.html",
			title: "Allotment waiting lists grow",
			body: []string{
				"Waiting lists for allotments in the county have doubled in three years, as more households try to grow their own vegetables and fruit.",
				"Councils say they have found new land on the edge of several towns, but that preparing the plots and laying water pipes takes at least a year.",
				"Some gardeners have started to share their plots with neighbours on the list, splitting the rent and the work between two families.",
			},
			selector: "html > body > div.page > div.content > article.post > div.entry",
		},
		{
			file:  "jsonld.html",
			title: "Quiet week",
			body: []string{
				"Nothing much happened this week in the town, which residents said was exactly what they had hoped for after a busy summer.",
			},
			selector: "html > body > article > p",
			date:     "2023-07-04",
			author:   "Ann Lee, Bo Chen",
		},
		{
			file:  "timeonly.html",
			title: "Short note",
			body: []string{
				"The library will be closed for renovation during the whole month of February, the city announced on its website this morning.",
			},
			selector: "html > body > div > p",
			date:     "2022-01-02T08:00:00Z",
			author:   "Max Power",
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, src := parseFile(t, tt.file)
			r, err := Extract(tr, Options{Source: src})
			if err != nil {
				t.Fatal(err)
			}
			if r.Title != tt.title {
				t.Errorf("Title = %q, want %q", r.Title, tt.title)
			}
			if want := strings.Join(tt.body, "\n\n"); r.Body != want {
				t.Errorf("Body =\n%s\nwant\n%s", r.Body, want)
			}
			if r.Selector != tt.selector {
				t.Errorf("Selector = %q, want %q", r.Selector, tt.selector)
			}
			if r.Node == nil || selector.Of(r.Node) != r.Selector {
				t.Errorf("Node %v does not match Selector %q", r.Node, r.Selector)
			}
			if r.Date != tt.date || r.Author != tt.author {
				t.Errorf("Date, Author = %q, %q, want %q, %q", r.Date, r.Author, tt.date, tt.author)
			}
			if r.Method != MethodSingle {
				t.Errorf("Method = %q", r.Method)
			}
			if r.Confidence <= 0 || r.Confidence > 1 {
				t.Errorf("Confidence = %v, want in (0, 1]", r.Confidence)
			}
		})
	}
}

func TestExtractSingleNoContent(t *testing.T) {
	tests := []struct {
		name, html string
	}{
		{"links only", `<html><body><ul><li><a href="/a">Home</a></li><li><a href="/b">News</a></li></ul></body></html>`},
		{"comment only", `<html><body><div class="comment"><a href="/u">Reader</a></div></body></html>`},
	}
	for _, tt := range tests {
		tr, err := treediff.Parse(tt.name, []byte(tt.html), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Extract(tr, Options{})
		if !errors.Is(err, ErrNoContent) {
			t.Errorf("%s: err = %v, want ErrNoContent", tt.name, err)
		}
	}
	if _, err := Extract(nil, Options{}); err == nil {
		t.Error("nil tree: no error")
	}
}

// TestExtractSingleDeep checks that a pathologically nested page is handled
// without recursion.
func TestExtractSingleDeep(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><body>")
	for range 100000 {
		b.WriteString("<div>")
	}
	b.WriteString("<p>A paragraph deep down the tree that still has enough words to count as article text.</p>")
	tr, err := treediff.Parse("deep", []byte(b.String()), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Extract(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Body, "A paragraph deep down") {
		t.Errorf("Body = %q", r.Body)
	}
}

func TestClassifyLines(t *testing.T) {
	tests := []struct {
		text string
		code bool
		boil bool
	}{
		{"if (x == 1) { document.write('<b>'); } else { y = 2; }", true, false},
		{`<a href="http://ads.example.com/click">Buy</a>`, true, false},
		{"The council voted (again) on Tuesday.", false, false},
		{"Berkshire owns insurers (GEICO, General Re), jewelers (Borsheim's) and utilities (MidAmerican (other-otc: MDPWL.PK - news - people)).", false, false},
		{"ADVERTISEMENT", false, true},
		{"By Jane Doe, Staff Writer", false, true},
		{"Posted: 2:51 pm March 12, 2009", false, true},
		{"By offering lower fees, the bank won clients.", false, false},
		{"By JANE DOE, Associated Press Writer Fri Sep 2, 5:13 PM ET", false, true},
		{"By Friday, the storm had passed over the city.", false, false},
		{"By ASIF SHAHZAD, Associated Press Writer Asif Shahzad, Associated Press Writer – Fri Apr 3, 3:15 pm ET", false, true},
		{"© 2005 The Associated Press. All rights reserved.", false, false},
	}
	for _, tt := range tests {
		if got := looksLikeCode(tt.text); got != tt.code {
			t.Errorf("looksLikeCode(%q) = %v, want %v", tt.text, got, tt.code)
		}
		b := &block{text: tt.text, words: len(treediff.Words(tt.text))}
		if got := isBoilerLine(b); got != tt.boil {
			t.Errorf("isBoilerLine(%q) = %v, want %v", tt.text, got, tt.boil)
		}
	}
}

func TestCleanTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Council approves bridge - Example Gazette", "Council approves bridge"},
		{"Gazette | Council approves new bridge", "Council approves new bridge"},
		{"Plain title", "Plain title"},
	}
	for _, tt := range tests {
		if got := cleanTitle(tt.in); got != tt.want {
			t.Errorf("cleanTitle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsLegal(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"© 2005 The Associated Press. All rights reserved. This material may not be published.", true},
		{"Copyright 2003 NYP Holdings, Inc. All rights reserved.", true},
		{"The court ruled that the copyright had expired in 1998, ending the dispute.", false},
	}
	for _, tt := range tests {
		b := &block{text: tt.text, words: len(treediff.Words(tt.text))}
		if got := isLegal(b); got != tt.want {
			t.Errorf("isLegal(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
