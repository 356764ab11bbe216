package singlepage

import (
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// TestGapBetweenInlineBoxes: the words of two inline boxes written side by
// side without a space (a product's brand and name, an endpoint's method
// and path) are read apart; a drop cap, a link's plural and code stay as
// written.
func TestGapBetweenInlineBoxes(t *testing.T) {
	tests := []struct {
		html string
		want string // in the body
	}{
		{`<span class="brand">Northwind</span><span class="name">Trail Runner 10 shoes</span>`, "Northwind Trail Runner"},
		{`<span>Price</span><span>24 dollars</span>`, "Price 24 dollars"},
		{`<a href="/a"><span>Alpine</span></a><a href="/b"><span>Harbour</span></a>`, "Alpine Harbour"},
		{`<b>T</b><span>he</span> river rose`, "The river rose"},
		{`<span>made for you: p</span><span>roducts</span>`, "you: products"},
		{`<span>bread an</span><span>d butter</span>`, "bread and butter"},
		{`<span>深深地為那</span><span>多種顏色</span>`, "深深地為那多種顏色"},
		{`<span>Makers</span><span>Market</span>`, "Makers Market"},
		{`<a href="/app">an App</a><span>.</span> It`, "an App. It"},
		{`<a href="/c">Discover Cars</a><b>!</b>`, "Discover Cars!"},
		{`the <a href="/x">link</a>s of it`, "links of it"},
		{`<code><span>os</span><span>path</span></code>`, "ospath"},
		{`<span>Alpine</span> <span>Harbour</span>`, "Alpine Harbour"},
	}
	for _, tt := range tests {
		p := "<p>" + tt.html + " is what the customers of our small shop keep asking about every single week of the year.</p>"
		page := "<html><body><main>" + p + p + "</main></body></html>"
		tr, err := treediff.Parse("gap", []byte(page), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Extract(tr, Options{SecondOpinionBelow: -1})
		if err != nil {
			t.Fatalf("%s: %v", tt.html, err)
		}
		if !strings.Contains(r.Body, tt.want) {
			t.Errorf("%s: body %q lacks %q", tt.html, r.Body, tt.want)
		}
	}
}
