package heuristics

import (
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/treediff"
)

func TestCSSSelector(t *testing.T) {
	const page = `<html><body>
<div id="top">x</div>
<div class="a b"><p>one</p><p>two</p><span class="x">s</span><span class="y">t</span></div>
<div class="a"><section id="9lives"><p>deep</p></section></div>
<div class="c:d"><em>e</em></div>
<p id="dup">d1</p><p id="dup">d2</p>
</body></html>`
	tr, err := treediff.Parse("sel", []byte(page), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string // text of the element to address
		tag  string
		want string
	}{
		{"x", "div", "div#top"},
		{"two", "p", "html > body > div.a.b > p:nth-of-type(2)"},
		{"t", "span", "html > body > div.a.b > span.y"},
		{"deep", "p", `section#\39 lives > p`},
		{"e", "em", `html > body > div.c\:d > em`},
		{"d2", "p", "html > body > p:nth-of-type(2)"},
	}
	for _, tt := range tests {
		var n *treediff.Node
		for _, c := range tr.Nodes {
			if c.Kind == treediff.Element && c.Label == tt.tag && c.Text() == tt.text {
				n = c
			}
		}
		if n == nil {
			t.Fatalf("no <%s> %q", tt.tag, tt.text)
		}
		got := CSSSelector(n)
		if got != tt.want {
			t.Errorf("CSSSelector(<%s>%s) = %q, want %q", tt.tag, tt.text, got, tt.want)
		}
		// The selector must designate exactly that element in a standard
		// HTML parse of the page.
		sel, err := cascadia.Compile(got)
		if err != nil {
			t.Errorf("%q does not compile: %v", got, err)
			continue
		}
		found := cascadia.QueryAll(doc, sel)
		if len(found) != 1 || found[0].Data != tt.tag || found[0].FirstChild == nil || found[0].FirstChild.Data != tt.text {
			t.Errorf("%q matches %d elements, want the one <%s>%s", got, len(found), tt.tag, tt.text)
		}
	}
	if CSSSelector(nil) != "" {
		t.Error("CSSSelector(nil) != \"\"")
	}
}

func TestResultText(t *testing.T) {
	tests := []struct {
		r    Result
		want string
	}{
		{Result{Title: "T", Body: "B1\n\nB2"}, "T\n\nB1\n\nB2"},
		{Result{Body: "B"}, "B"},
		{Result{Title: "T"}, "T"},
		{Result{}, ""},
	}
	for _, tt := range tests {
		if got := tt.r.Text(); got != tt.want {
			t.Errorf("Text() = %q, want %q", got, tt.want)
		}
	}
}

// TestCSSSelectorRoundTrip checks on real pages that Select finds each
// element again from its CSSSelector (ids repeated on a page are not used as
// anchors).
func TestCSSSelectorRoundTrip(t *testing.T) {
	pages := loadBig9(t)
	bad, total := 0, 0
	for i, p := range pages {
		if i%4 != 0 {
			continue
		}
		for _, n := range p.tree.Nodes {
			if n.Kind != treediff.Element || n.Index%5 != 0 {
				continue
			}
			total++
			sel := CSSSelector(n)
			if got, err := Select(p.tree, sel); err != nil || got != n {
				bad++
				if bad <= 5 {
					t.Errorf("%s: %q selects %v (err %v), want node %d", p.name, sel, got, err, n.Index)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d selectors do not select their element", bad, total)
	}
}
