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
	cases := []struct {
		para string
		kept bool
	}{
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
	var paras []string
	for _, c := range cases {
		paras = append(paras, c.para)
	}
	body := strings.Join(paras, "\n\n")
	for name, got := range map[string]string{"shop zones": p.withoutShopZones(body), "rails": p.withoutRails(body)} {
		got = "\n\n" + got + "\n\n"
		for _, c := range cases {
			if kept := strings.Contains(got, "\n\n"+c.para+"\n\n"); kept != c.kept {
				t.Errorf("%s: %q: kept %v, want %v", name, c.para, kept, c.kept)
			}
		}
	}
}
