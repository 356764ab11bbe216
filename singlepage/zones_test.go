package singlepage

import (
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func TestIsFilteredZone(t *testing.T) {
	cases := []struct {
		html string
		want bool
	}{
		{`<div id="comments">`, true},
		{`<div class="user-comment-list">`, true},
		{`<div class="commentary">`, false},
		{`<section class="photo-gallery">`, true},
		{`<div role="navigation">`, true},
		{`<div aria-label="Share this story">`, true},
		{`<div class="shared-story">`, false},
		{`<nav>`, true},
		{`<aside>`, true},
		{`<div class="story-body">`, false},
		{`<body class="menu-open">`, false},
	}
	for _, c := range cases {
		tree, err := treediff.Parse("zone", []byte(c.html+"text"), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var el *treediff.Node
		for _, n := range tree.Nodes {
			if n.Kind == treediff.Element && len(n.Attrs) > 0 || n.Label == "nav" || n.Label == "aside" {
				el = n
			}
		}
		if el == nil {
			t.Fatalf("%s: no element", c.html)
		}
		if got := IsFilteredZone(el); got != c.want {
			t.Errorf("%s: %v, want %v", c.html, got, c.want)
		}
	}
}

// TestWithoutShopZones drops from a body (another extractor's, which
// joins a card's lines into one paragraph) the paragraphs shown only in
// the page's shop zones, and keeps the product's own.
func TestWithoutShopZones(t *testing.T) {
	tr, src := parseIn(t, "shop", "product-rail.html")
	p := newPage(tr, Options{Source: src})
	cases := []keptPara{
		{"The Harbor Rain Jacket keeps a coastal downpour out for hours: a three-layer shell with taped seams", true},
		{"Two hand pockets and a chest pocket with water-resistant zips", true},
		{"$ 129.00", true},
		{"Trail shell model 1 for wet hikes in three colours $ 61.00 + $ 9.95 delivery", false},
		{"$ 62.00", false},
		{"Free returns within thirty days of the delivery date", false},
	}
	checkKept(t, "shop zones", p.withoutShopZones, cases)
	// A body made of the cards alone is a grid of products (the page
	// misread as a product's): it stays.
	grid := "Trail shell model 1 for wet hikes in three colours\n\n$ 61.00\n\nTrail shell model 2 for wet hikes in three colours"
	if got := p.withoutShopZones(grid); got != grid {
		t.Errorf("a body of cards alone became %q", got)
	}
}

// TestWithoutShopZonesResult: another method's body on a product page
// loses its text in the shop zones (reviews, a rail), unless that text is
// nearly all of it (the zones are then the page's own sections); a page
// read as no product's keeps it.
func TestWithoutShopZonesResult(t *testing.T) {
	const (
		desc   = "The Ridge Daypack keeps a day's gear within easy reach"
		review = "I have carried this pack on trip number 0 through rain and dust, and the straps stayed comfortable for the whole day; the pockets hold more than I expected and nothing tore."
	)
	tests := []struct {
		dir, file, body string
		want            []string
		notWant         []string
	}{
		{"shop", "product-reviews.html", desc + "\n\n" + review, []string{desc}, []string{"trip number"}},
		{"shop", "product-reviews.html", "Ridge Daypack 25\n\n" + review, []string{"Ridge Daypack 25", "trip number 0"}, nil},
		{"thread", "qa-comments.html", review, []string{"trip number 0"}, nil},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, tt.dir, tt.file)
		r := WithoutShopZones(tr, src, Result{Body: tt.body, Method: MethodPair})
		checkBody(t, tt.file, r.Body, tt.want, tt.notWant)
	}
}
