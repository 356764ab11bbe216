package singlepage

import (
	"strings"
	"testing"

	"github.com/gleaner/gleaner/pagetype"
)

const (
	overlayOwn   = "The Fjord Kettle boils a litre in four minutes on gas and whistles softly when it is done, then keeps its handle cool enough to pour without a cloth."
	overlayAd    = "Why you see this offer: placed by seller number 3, paid for its place in this row of other products."
	overlayTerms = "Returns accepted within a month of the delivery, the buyer paying the postage back."
	overlayCard  = "Sold by a workshop in the north, number 3, hand finished and tested on gas, induction and open flame before it leaves."
)

// TestWithoutOverlays: another extractor's body loses the text of the
// page's closed dialogs (a rail's disclosures, the delivery terms), keeps
// a collapsed panel's text (the product's description in a tab) and a
// dialog's line the page also shows.
func TestWithoutOverlays(t *testing.T) {
	tr, src := parseIn(t, "shop", "product-overlay.html")
	p := newPage(tr, Options{Source: src})
	checkKept(t, "overlays", p.withoutHidden, []keptPara{
		{overlayOwn, true},
		{"Condition: new, in its box", true},
		{overlayAd, false},
		{overlayTerms, false},
		{overlayCard, true},
	})
}

// TestShopUnits: a group of units inside a rail of other products is a
// shop zone's; the sections of a product's own description are not.
func TestShopUnits(t *testing.T) {
	tests := []struct {
		file string
		want bool
	}{
		{"product-overlay.html", true},
		{"product-sections.html", false},
	}
	for _, tc := range tests {
		tr, src := parseIn(t, "shop", tc.file)
		p := newPage(tr, Options{Source: src})
		g, ok := p.units()
		if !ok {
			t.Fatalf("%s: no units", tc.file)
		}
		if got := p.shopUnits(g); got != tc.want {
			t.Errorf("%s: shopUnits %v, want %v", tc.file, got, tc.want)
		}
	}
}

// TestCandidatesAsReadRails: on a page read as a product's whose base
// keeps the product's own text outside the shop zones, another
// extractor's body loses a rail of other products even when the rail is
// most of it (the floor that keeps a misread grid whole is for a base
// made of the zones).
func TestCandidatesAsReadRails(t *testing.T) {
	tr, src := parseIn(t, "shop", "product-overlay.html")
	p := newPage(tr, Options{Source: src})
	probs := make([]float64, len(pagetype.Types))
	for i, typ := range pagetype.Types {
		if typ == pagetype.Product {
			probs[i] = 1
		}
	}
	var rail []string
	for _, line := range strings.Split(tr.Root.Text(), "\n") {
		if strings.Contains(line, "Sold by a workshop") {
			rail = append(rail, strings.TrimSpace(line))
		}
	}
	cand := strings.Join(append([]string{"$ 74.00", overlayOwn, overlayAd}, rail...), "\n\n")
	tests := []struct {
		base     string
		wantRail bool
	}{
		{"$ 74.00\n\n" + overlayOwn, false},
		{strings.Join(rail, "\n\n"), true}, // the base is the rail: the page misread
	}
	for _, tc := range tests {
		c := Choice{Base: Result{Body: tc.base}, Probs: probs, Candidates: []Candidate{{Name: CandidateTrafilatura, Body: cand}}}
		c.candidatesAsRead(p)
		if len(c.Candidates) != 1 {
			t.Fatalf("candidates %d", len(c.Candidates))
		}
		got := c.Candidates[0].Body
		if !strings.Contains(got, overlayOwn) || strings.Contains(got, overlayAd) {
			t.Errorf("base %.20q: own text or disclosure wrong in %q", tc.base, got)
		}
		if has := strings.Contains(got, overlayCard); has != tc.wantRail {
			t.Errorf("base %.20q: rail kept %v, want %v", tc.base, has, tc.wantRail)
		}
	}
}

// TestOnceEach: a paragraph a product page lays out twice (for small and
// large screens) is kept once, at its first place; a short one (a size, a
// label) as often as it comes.
func TestOnceEach(t *testing.T) {
	tests := []struct{ in, want string }{
		{"A kettle for the open flame.\n\nSize\n\nA kettle for the open flame.\n\nSize",
			"A kettle for the open flame.\n\nSize\n\nSize"},
		{"Keeps its handle cool, always.\n\nkeeps its handle cool always\n\nIn stock",
			"Keeps its handle cool, always.\n\nIn stock"},
		{"One line said once.\n\nAnother line said once.", "One line said once.\n\nAnother line said once."},
		{"", ""},
	}
	for _, tc := range tests {
		if got := onceEach(tc.in); got != tc.want {
			t.Errorf("onceEach(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
