package capture

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// layoutPage builds a page of html whose every other element is hidden,
// with its stored layout keyed by treediff.Node.Path.
func layoutPage(tb testing.TB, html string) (*store.Page, *treediff.Tree, *browser.Layout) {
	tb.Helper()
	tree, err := treediff.Parse("p", []byte(html), treediff.ParseOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	l := &browser.Layout{Boxes: map[string]browser.Box{}}
	for i, n := range tree.Nodes {
		if n.Kind == treediff.Element {
			l.Boxes[n.Path()] = browser.Box{W: 10, H: 10, Visible: i%2 == 0}
		}
	}
	b, err := json.Marshal(l)
	if err != nil {
		tb.Fatal(err)
	}
	return &store.Page{URL: "http://a.example/", Capture: &store.Capture{Layout: b}}, tree, l
}

// TestVisibleMatchesLayoutHidden: the one-walk predicate answers as
// browser.Layout.Hidden (a path per node) for every node, text, views and
// repeated tags included.
func TestVisibleMatchesLayoutHidden(t *testing.T) {
	wide := "<html><body>" + strings.Repeat("<p>a <b>b</b> <i>c</i></p><div><p>d</p></div>", 50) + "</body></html>"
	for _, tc := range []struct{ name, html string }{
		{"nested", `<html><head><title>T</title></head><body><div><p>x</p><p>y<span>z</span></p></div><div>w</div><ul><li>1</li><li>2</li></ul></body></html>`},
		{"wide", wide},
		{"broken markup", `<div><p>one<p>two<table><td>cell</table>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, tree, l := layoutPage(t, tc.html)
			visible, err := Visible(sp)
			if err != nil || visible == nil {
				t.Fatalf("Visible: %v", err)
			}
			for _, n := range tree.Nodes {
				if got, want := visible(n), !l.Hidden(n); got != want {
					t.Errorf("%s (%s): visible %v, want %v", n.Path(), n.Label, got, want)
				}
			}
			// Paths in one walk are Path's.
			for n, p := range browser.ElementPaths(tree.Root) {
				if p != n.Path() {
					t.Errorf("ElementPaths gives %s, Path %s", p, n.Path())
				}
			}
			// A second tree of the same page is indexed anew.
			other, err := treediff.Parse("q", []byte(tc.html), treediff.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range other.Nodes {
				if visible(n) != visible(tree.Nodes[i]) {
					t.Fatalf("node %d: the second tree's answer differs", i)
				}
			}
		})
	}
}

// BenchmarkVisible asks the visibility predicate about every node of a page
// of n paragraphs: in one walk (Visible) and a path per node
// (browser.Layout.Hidden), side by side.
//
//	go test ./capture -run '^$' -bench Visible
func BenchmarkVisible(b *testing.B) {
	for _, n := range []int{100, 5000} {
		html := "<html><body><div id=main>" + strings.Repeat("<div class=para><p>text <a href=x>link</a> more</p></div>", n) + "</div></body></html>"
		sp, tree, _ := layoutPage(b, html)
		b.Run(fmt.Sprintf("paras=%d/one-walk", n), func(b *testing.B) {
			for b.Loop() {
				visible, _ := Visible(sp)
				for _, nd := range tree.Nodes {
					visible(nd)
				}
			}
		})
		b.Run(fmt.Sprintf("paras=%d/path-per-node", n), func(b *testing.B) {
			for b.Loop() {
				l2, _ := browser.ParseLayout(sp.Capture.Layout)
				for _, nd := range tree.Nodes {
					l2.Hidden(nd)
				}
			}
		})
	}
}
