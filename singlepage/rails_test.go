package singlepage

import (
	"strings"
	"testing"
)

func TestRailHeading(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"You may also like", true},
		{"Customers who bought this item also bought", true},
		{"Recently Viewed", true},
		{"Frequently bought together", true},
		{"Related services", true},
		{"Related video: how the board is cut from a log", false},
		{"Care", false},
		{"It pairs well with a linseed oil finish, renewed every month or so, which keeps the wood from drying out.", false},
		{"", false},
	}
	for _, c := range cases {
		b := &block{text: c.text, words: len(strings.Fields(c.text))}
		if got := railHeading(b); got != c.want {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
}

// TestRailSections: the sections a heading names as a rail of other
// products (its own box, or the heading's following siblings) leave a
// product page's body; the description, a sentence naming what the
// product goes with included, stays.
func TestRailSections(t *testing.T) {
	tr, src := parseIn(t, "shop", "product-named-rail.html")
	p := newPage(tr, Options{Source: src})
	cases := []keptPara{
		{"An end-grain board cut from larch grown in the hills above the workshop: the fibres close again behind the knife, so the board keeps its face and your blades keep their edge.", true},
		{"It pairs well with a linseed oil finish, renewed every month or so, which keeps the wood from drying out.", true},
		{"Care", true},
		{"Wash by hand in warm soapy water, dry it standing on its edge and never leave it to soak in the sink.", true},
		{"You may also like", false},
		{"Oak serving tray with two handles", false},
		{"Solid oak, oiled by hand", false},
		{"Beech spoon set of three sizes", false},
		{"Recently viewed", false},
		{"Walnut cheese board", false},
	}
	checkKept(t, "shop zones", p.withoutShopZones, cases)
	checkKept(t, "rails", p.withoutRails, cases)
	// A body made of the rail alone is the page misread: it stays.
	rail := "You may also like\n\nOak serving tray with two handles\n\nSolid oak, oiled by hand"
	if got := p.withoutRails(rail); got != rail {
		t.Errorf("a body of the rail alone became %q", got)
	}
}

// keptPara is a paragraph of a body and whether a filter keeps it.
type keptPara struct {
	para string
	kept bool
}

// checkKept runs filter on the body made of the cases' paragraphs and
// checks which it keeps.
func checkKept(t *testing.T, name string, filter func(string) string, cases []keptPara) {
	t.Helper()
	var paras []string
	for _, c := range cases {
		paras = append(paras, c.para)
	}
	got := "\n\n" + filter(strings.Join(paras, "\n\n")) + "\n\n"
	for _, c := range cases {
		if kept := strings.Contains(got, "\n\n"+c.para+"\n\n"); kept != c.kept {
			t.Errorf("%s: %q: kept %v, want %v", name, c.para, kept, c.kept)
		}
	}
}

// TestShippingZone: a product page's delivery and returns block leaves
// its body; a class naming the product's own state ("shipping-taxable")
// on the box that holds the product's heading does not make the whole
// product a zone.
func TestShippingZone(t *testing.T) {
	tr, src := parseIn(t, "shop", "product-shipping.html")
	p := newPage(tr, Options{Source: src})
	checkKept(t, "shop zones", p.withoutShopZones, []keptPara{
		{"Woven on a dobby loom from the fleece of hill sheep, the Fen blanket is warm without weight and softens with every wash.", true},
		{"Two metres by one and a half, about one kilo and a quarter.", true},
		{"Delivery and returns", false},
		{"Orders leave the mill within two working days; returns are free for thirty days after delivery.", false},
	})
}
