package siteextract_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gleaner/gleaner/siteextract"
)

// Docs learns the templates of six pages held in memory (three layouts,
// by paragraph count) and extracts each page; the navigation and the footer
// stay out of the bodies.
func ExampleDocs() {
	var docs []siteextract.Doc
	for i, story := range []string{"river", "bridge", "market", "school", "park", "station"} {
		src := fmt.Sprintf(`<html><head><title>%s</title></head><body>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/city">City</a></li></ul>
<div class="story"><h1>The %s story</h1>
<p>Story number %d tells how the %s changed this year, in a paragraph long enough to be read as the text of an article.</p>
<p>It goes on with a second paragraph about the %s, the people who use it and what the council plans for it next spring.</p>%s</div>
<div class="footer">Copyright The Gazette</div></body></html>`, story, story, i, story, story, strings.Repeat("<p>One more paragraph of the story, with words enough to be text.</p>", i%3))
		docs = append(docs, siteextract.Doc{Name: story, Src: []byte(src)})
	}
	res := siteextract.Docs(context.Background(), "gazette", docs, siteextract.DocsOptions{})
	for i, r := range res.Results {
		fmt.Printf("%s: %q, story in body: %v, boilerplate in body: %v\n", docs[i].Name, r.Title,
			strings.Contains(r.Body, "Story number"), strings.Contains(r.Body, "Copyright") || strings.Contains(r.Body, "Home"))
	}
	// Output:
	// river: "The river story", story in body: true, boilerplate in body: false
	// bridge: "The bridge story", story in body: true, boilerplate in body: false
	// market: "The market story", story in body: true, boilerplate in body: false
	// school: "The school story", story in body: true, boilerplate in body: false
	// park: "The park story", story in body: true, boilerplate in body: false
	// station: "The station story", story in body: true, boilerplate in body: false
}
