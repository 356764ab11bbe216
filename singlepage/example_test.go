package singlepage_test

import (
	"fmt"

	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

func ExampleExtract() {
	page := []byte(`<html><head><title>Harbour reopens - Daily Example</title>
<meta name="author" content="Sam Ray"></head><body>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div class="story"><h1>Harbour reopens</h1>
<p>The harbour reopened on Friday after three weeks of repairs to the main pier, the port authority said.</p>
<p>Fishing boats were the first to return, followed in the afternoon by the ferry to the islands.</p></div>
<div class="footer"><a href="/contact">Contact</a></div></body></html>`)
	t, err := treediff.Parse("harbour", page, treediff.ParseOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := singlepage.Extract(t, singlepage.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Title)
	fmt.Println(r.Selector)
	fmt.Println(r.Author)
	fmt.Println(r.Body)
	// Output:
	// Harbour reopens
	// html > body > div.story
	// Sam Ray
	// The harbour reopened on Friday after three weeks of repairs to the main pier, the port authority said.
	//
	// Fishing boats were the first to return, followed in the afternoon by the ferry to the islands.
}
