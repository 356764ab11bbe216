package singlepage

import (
	"errors"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/pagetype"
)

// TestShellDescription: a forum thread sent as a script shell (no post
// in the HTML, none in <noscript>) is read from its description, the
// opening post's first lines (og:description, the fuller one); a shop's
// shell read as a product's is not (its description is a blurb, not the
// page's content).
func TestShellDescription(t *testing.T) {
	tests := []struct {
		dir, typ string
		want     bool // the description is the body
	}{
		{"thread", pagetype.Forum, true},
		{"shop", pagetype.Product, false},
	}
	const description = "A number 4 smoother or a number 5 jack? My budget is modest and I would rather buy once. Any advice welcome"
	for _, tt := range tests {
		tr, src := parseIn(t, tt.dir, "script-shell.html")
		if typ, _ := pagetype.Classify(tr, src); typ != tt.typ {
			t.Fatalf("%s: read as %s, not %s", tt.dir, typ, tt.typ)
		}
		r, err := Extract(tr, Options{Source: src})
		if err != nil && !errors.Is(err, ErrNoContent) {
			t.Fatalf("%s: %v", tt.dir, err)
		}
		if got := strings.Contains(r.Body, description); got != tt.want {
			t.Errorf("%s: body %q holds the description: %v, want %v", tt.dir, r.Body, got, tt.want)
		}
	}
}

// TestNoscriptShown: <noscript> tags, in any case, become <div>s; the word
// elsewhere (a class, a text) stays.
func TestNoscriptShown(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<p>a</p><noscript id="x"><p>posts</p></noscript>`, `<p>a</p><div id="x"><p>posts</p></div>`},
		{`<NOSCRIPT>b</NoScript>`, `<div>b</div>`},
		{`<p class="noscript">noscript text</p>`, `<p class="noscript">noscript text</p>`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := string(noscriptShown([]byte(tt.in))); got != tt.want {
			t.Errorf("noscriptShown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
