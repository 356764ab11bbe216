package heuristics_test

import (
	"fmt"
	"strings"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/treediff"
)

// template builds a page of a small news template around a story.
func template(title, body, comments string) []byte {
	return []byte(`<html><head><title>` + title + ` - Daily Example</title></head><body>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div class="story"><h1>` + title + `</h1>
<div class="text">` + body + `</div></div>
<div id="comments">` + comments + `</div>
<p class="footer">Daily Example, all rights reserved.</p></body></html>`)
}

func ExamplePairDiff() {
	page, _ := treediff.Parse("harbour", template("Harbour reopens",
		`<p>The harbour reopened on Friday after three weeks of repairs to the main pier, the port authority said.</p>
<p>Fishing boats were the first to return, followed in the afternoon by the ferry to the islands.</p>`,
		`<p>Great news for the island people, who waited far too long for this ferry to come back to the harbour at last.</p>`),
		treediff.ParseOptions{})
	medoid, _ := treediff.Parse("museum", template("Museum extends hours",
		`<p>The city museum will stay open until nine on Thursdays from next month, its director announced.</p>`,
		`<p>About time.</p>`),
		treediff.ParseOptions{})
	r, err := heuristics.PairDiff(page, medoid, heuristics.PairOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Method, r.Selector)
	fmt.Println(r.Title)
	fmt.Println(r.Body)
	// Output:
	// pair-diff html > body > div.story > div.text
	// Harbour reopens
	// The harbour reopened on Friday after three weeks of repairs to the main pier, the port authority said.
	//
	// Fishing boats were the first to return, followed in the afternoon by the ferry to the islands.
}

func ExampleVote() {
	// The body selectors chosen by the pair diff for five pages of a
	// template cluster (one page found nothing).
	chosen := []string{
		"div#main > div.article",
		"div#main > div.article",
		"div#main",
		"div#main > div.article",
		"",
	}
	rule, ok := heuristics.Vote(heuristics.FieldBody, chosen, 2)
	fmt.Println(ok, rule.Selector, rule.Votes, rule.Pages, rule.Support)
	// Output:
	// true div#main > div.article 3 5 0.6
}

func ExampleSelect() {
	page, _ := treediff.Parse("p", []byte(`<body><div id="main"><div class="article"><p>Text.</p></div></div></body>`), treediff.ParseOptions{})
	n, err := selector.Select(page, "div#main > div.article")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n.Path(), n.Text())
	// Output:
	// /html/body[1]/div[1]/div[1] Text.
}

func ExampleExtract() {
	page, _ := treediff.Parse("harbour", template("Harbour reopens",
		`<p>The harbour reopened on Friday after three weeks of repairs to the main pier, the port authority said.</p>
<p>Fishing boats were the first to return, followed in the afternoon by the ferry to the islands.</p>
<p>Repairs to the northern breakwater will start in the spring and should not close the harbour again.</p>`, ""),
		treediff.ParseOptions{})
	medoid, _ := treediff.Parse("museum", template("Museum extends hours",
		`<p>The city museum will stay open until nine on Thursdays from next month, its director announced.</p>`, ""),
		treediff.ParseOptions{})
	// With its template medoid, the page is located by the pair diff;
	// alone (an outlier), by the single-page extractor.
	for _, m := range []*treediff.Tree{medoid, nil} {
		r, err := heuristics.Extract(heuristics.Input{Page: page, Medoid: m}, heuristics.ExtractOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %s (%s, %d words)\n", r.Method, r.Title, r.Selector, len(strings.Fields(r.Body)))
	}
	// Output:
	// pair-diff: Harbour reopens (html > body > div.story > div.text, 52 words)
	// single-page: Harbour reopens (html > body > div.story > div.text, 52 words)
}
