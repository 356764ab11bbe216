package singlepage

import (
	"os"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func TestHidden(t *testing.T) {
	tests := []struct {
		html string
		want bool
	}{
		{`<div hidden>x</div>`, true},
		// Collapsed panels and next slides: a reader opens them.
		{`<div aria-hidden="true">x</div>`, false},
		{`<div class="card hidden">x</div>`, false},
		{`<div class="d-none">x</div>`, false},
		{`<div aria-hidden="false">x</div>`, false},
		{`<div style="display: none">x</div>`, true},
		{`<div style="visibility:hidden">x</div>`, true},
		{`<div style="position:absolute; left:-9999px">x</div>`, true},
		{`<div style="margin-left:-20px">x</div>`, false},
		{`<div role="dialog">x</div>`, true},
		{`<div aria-modal="true">x</div>`, true},
		{`<dialog>x</dialog>`, true},
		{`<dialog open>x</dialog>`, false},
		// A popover shows when a button or a script opens it.
		{`<div popover>x</div>`, true},
		{`<div popover="manual">x</div>`, true},
		{`<span class="sr-only">x</span>`, true},
		{`<span class="visually-hidden">x</span>`, true},
		// Shown again from some screen width: a desktop shows it.
		{`<div class="sr-only md:not-sr-only">x</div>`, false},
		// A token that merely contains a hiding word hides nothing.
		{`<div class="overflow-hidden">x</div>`, false},
		{`<div class="hidden-xs-text">x</div>`, false},
		{`<div class="article">x</div>`, false},
		// A popover is shown only when invoked, as a dialog is.
		{`<div popover id="tip">x</div>`, true},
		// A tab's or an accordion's collapsed panel: a visitor opens it.
		{`<div role="tabpanel" hidden>x</div>`, false},
		{`<div id="p2" aria-labelledby="h2" style="display:none">x</div>`, false},
		{`<div class="tab-pane" style="display:none">x</div>`, false},
		{`<div class="faq__answer" style="display: none;">x</div>`, false},
		{`<div class="c-accordion__panel" hidden>x</div>`, false},
		// A dialog, a menu or a screen-reader text is no panel; a
		// class that merely contains a panel's word names none.
		{`<div role="dialog" aria-labelledby="t" hidden>x</div>`, true},
		{`<div role="menu" class="tabs-dropdown" hidden>x</div>`, true},
		{`<div class="tab-pane sr-only">x</div>`, true},
		{`<div class="table-wrap" style="display:none">x</div>`, true},
		{`<div class="stable" hidden>x</div>`, true},
		{`<div class="tab-pane" popover>x</div>`, true},
	}
	for _, tt := range tests {
		// A header beside the element: it is not the page's wrapper.
		page := "<header>Site</header>" + tt.html
		tr, err := treediff.Parse("t", []byte("<html><body>"+page+"</body></html>"), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var el *treediff.Node
		for _, n := range tr.Nodes {
			if n.Kind == treediff.Element && (n.Label == "div" || n.Label == "span" || n.Label == "dialog") {
				el = n
				break
			}
		}
		if el == nil {
			t.Fatalf("%s: no element", tt.html)
		}
		if got := hidden(el); got != tt.want {
			t.Errorf("hidden(%s) = %v, want %v", tt.html, got, tt.want)
		}
	}
}

// TestOverlayIsNotTheArticle: a page whose own body is short while a
// hidden modal holds long paragraphs (a financing offer, a newsletter
// dialog) gives the page's text, never the modal's.
func TestOverlayIsNotTheArticle(t *testing.T) {
	long := strings.Repeat("Apply today for our special financing offer with low monthly payments and no interest. ", 4)
	story := "The bridge reopened on Monday after two years of repairs, the city said in a statement to residents."
	overlays := []string{
		`<div class="modal" role="dialog" aria-modal="true"><div class="modal-body"><p>%s</p><p>%s</p></div></div>`,
		`<div class="popup" style="display:none"><p>%s</p><p>%s</p></div>`,
		`<dialog class="newsletter"><p>%s</p><p>%s</p></dialog>`,
		`<div class="offer" style="position:fixed; left:-10000px"><p>%s</p><p>%s</p></div>`,
	}
	for _, o := range overlays {
		page := "<html><body><main><h1>Bridge reopens</h1><p>" + story + "</p></main>" +
			strings.ReplaceAll(o, "%s", long) + "</body></html>"
		tr, err := treediff.Parse("overlay", []byte(page), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Extract(tr, Options{SecondOpinionBelow: -1})
		if err != nil {
			t.Fatalf("%s: %v", o, err)
		}
		if strings.Contains(r.Body, "financing") || !strings.Contains(r.Body, "bridge reopened") {
			t.Errorf("overlay %s: body %q", o, r.Body)
		}
	}
}

// TestHiddenWrapper: the box that wraps the whole page, hidden by its style
// until the page's script has run, is shown; a hidden box beside others is
// not.
func TestHiddenWrapper(t *testing.T) {
	tests := []struct {
		body string
		want bool // the styled div is hidden
	}{
		{`<div id="app"><div class="wrap" style="visibility:hidden"><div><p>x</p></div></div></div>`, false},
		{`<div class="wrap" style="display:none"><p>x</p></div>`, false},
		{`<div id="app"><div class="wrap" style="visibility:hidden"><p>x</p></div><p>y</p></div>`, true},
		{`<main><p>y</p></main><div class="wrap" style="display:none"><p>x</p></div>`, true},
		{`<div class="wrap sr-only"><p>x</p></div>`, true},
	}
	for _, tt := range tests {
		tr, err := treediff.Parse("t", []byte("<html><body>"+tt.body+"</body></html>"), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tr.Nodes {
			if c, _ := n.Attr("class"); strings.HasPrefix(c, "wrap") {
				if got := hidden(n); got != tt.want {
					t.Errorf("hidden(wrap) in %s = %v, want %v", tt.body, got, tt.want)
				}
			}
		}
	}
}

// TestCollapsedPanelsAreContent: a product page's specification and care
// panels, hidden until their tab is clicked (hidden attribute, inline
// style), are in the body; the newsletter dialog hidden beside them is not.
func TestCollapsedPanelsAreContent(t *testing.T) {
	src, err := os.ReadFile("testdata/shop/product-tabs.html")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := treediff.Parse("tabs", src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Extract(tr, Options{SecondOpinionBelow: -1})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		want bool
	}{
		{"solid walnut harvested", true},
		{"mortise and tenon", true},
		{"renew the oil finish", true},
		{"ten percent off", false},
	}
	for _, tt := range tests {
		if got := strings.Contains(r.Body, tt.text); got != tt.want {
			t.Errorf("body holds %q: %v, want %v; body %q", tt.text, got, tt.want, r.Body)
		}
	}
}
