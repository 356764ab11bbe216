package selector

import (
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/internal/sharedpages"
	"github.com/gleaner/gleaner/treediff"
)

func TestOf(t *testing.T) {
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
		got := Of(n)
		if got != tt.want {
			t.Errorf("Of(<%s>%s) = %q, want %q", tt.tag, tt.text, got, tt.want)
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
	if Of(nil) != "" {
		t.Error("Of(nil) != \"\"")
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
		sel := Of(n)
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

// TestOfRoundTrip checks on real pages that Select finds each
// element again from its CSSSelector (ids repeated on a page are not used as
// anchors).
func TestOfRoundTrip(t *testing.T) {
	pages := sharedpages.Pages(t, "big9-dev")
	bad, total := 0, 0
	for i, p := range pages {
		if i%4 != 0 {
			continue
		}
		for _, n := range p.Tree.Nodes {
			if n.Kind != treediff.Element || n.Index%5 != 0 {
				continue
			}
			total++
			sel := Of(n)
			if got, err := Select(p.Tree, sel); err != nil || got != n {
				bad++
				if bad <= 5 {
					t.Errorf("%s: %q selects %v (err %v), want node %d", p.Name, sel, got, err, n.Index)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d selectors do not select their element", bad, total)
	}
}
