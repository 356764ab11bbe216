package pagemeta

import (
	"reflect"
	"testing"
)

// TestSectionHeadingByline: a section heading led by "By" groups what
// follows ("By Purpose"), it signs nothing; a byline below it, or an
// author box's "Written by" heading, still does; an account link under
// an author-like class ("Sign In") names no one.
func TestSectionHeadingByline(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{"grouping heading", `<p>Apps differ in many ways.</p><h3>By Purpose</h3><ul><li>Games</li></ul>
<p class="byline">Posted by Rosa Lindqvist</p>`, []string{"Rosa Lindqvist"}},
		{"grouping heading alone", `<h3>By Purpose</h3><ul><li>Games</li></ul><p>Plain text.</p>`, nil},
		{"author box heading", `<p>Plain text.</p><h3>Written by Arvid Holm</h3><p>Arvid writes on money.</p>`, []string{"Arvid Holm"}},
		{"account link", `<p>Plain text.</p><div class="authorize"><a href="/login">Sign In</a> <a href="/join">Join Us</a></div>`, nil},
	}
	for _, c := range cases {
		src := []byte(`<html><head><title>Ways to sort apps</title></head><body><article><h1>Ways to sort apps</h1>` + c.body + `</article></body></html>`)
		m := Extract(parse(t, c.name, src), src, Options{URL: "https://apps.example/sort", NoLanguage: true})
		if !reflect.DeepEqual(m.Authors, c.want) {
			t.Errorf("%s: authors %q from %q, want %q", c.name, m.Authors, m.Sources.Authors, c.want)
		}
	}
}
