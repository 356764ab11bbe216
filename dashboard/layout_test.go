package dashboard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// layoutPage is a rendered page whose layout gives every element a box,
// the one of <article> at (10, 200, 700×900).
func layoutPage(t *testing.T) (*store.Page, string) {
	t.Helper()
	src := []byte(`<html><body><div id="top">menu</div><main><article class="story"><p>text</p></article></main></body></html>`)
	tree, err := treediff.Parse("p", src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := browser.Layout{Width: 1000, Height: 1400, Boxes: map[string]browser.Box{}}
	sel := ""
	for i, n := range tree.Nodes {
		if n.Kind != treediff.Element {
			continue
		}
		l.Boxes[n.Path()] = browser.Box{X: 0, Y: 10 * i, W: 1000, H: 20, Visible: true}
		if n.Label == "article" {
			l.Boxes[n.Path()] = browser.Box{X: 10, Y: 200, W: 700, H: 900, Visible: true}
			sel = selector.Of(n)
		}
	}
	raw, err := json.Marshal(&l)
	if err != nil {
		t.Fatal(err)
	}
	return &store.Page{URL: "http://a.test/", RenderedHTML: src, Capture: &store.Capture{Rendered: true, Layout: raw}}, sel
}

func TestLayoutSVG(t *testing.T) {
	p, sel := layoutPage(t)
	plain := &store.Page{URL: "http://a.test/", RawHTML: p.RenderedHTML}
	broken := &store.Page{URL: "http://a.test/", RenderedHTML: p.RenderedHTML, Capture: &store.Capture{Layout: []byte(`{"boxes": 7}`)}}
	for _, c := range []struct {
		name     string
		page     *store.Page
		selector string
		found    bool
		want     string // in the SVG
		err      bool
	}{
		// 700 CSS pixels of 1000 drawn 360 wide: 252; x 10 → 3.6, y 200 → 72.
		{"extracted box filled", p, sel, true, `class="extracted" x="3.6" y="72.0" width="252.0" height="324.0"`, false},
		{"selector of no element", p, "main > section", false, `class="box"`, false},
		{"no extraction selector", p, "", false, `class="box"`, false},
		{"plain page: no layout", plain, sel, false, "", false},
		{"layout that does not parse", broken, sel, false, "", true},
	} {
		svg, found, err := layoutSVG(c.page, c.selector)
		if (err != nil) != c.err || found != c.found || !strings.Contains(string(svg), c.want) || (c.want == "") != (svg == "") {
			t.Errorf("%s: found %v, err %v, svg %.200s", c.name, found, err, svg)
		}
	}
}
