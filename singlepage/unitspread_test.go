package singlepage

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// sectionedListing is a listing split in sections, each a heading and a
// list of teasers built alike (n[i] teasers in section i), beside a rail
// of popular stories in a list of another make, with a footer.
func sectionedListing(n ...int) (page string, want, rail []string) {
	var b strings.Builder
	b.WriteString(`<html><body><nav><a href="/">Home</a> <a href="/w">World</a></nav><main><h1>Regional news</h1>`)
	k := 0
	for s, count := range n {
		fmt.Fprintf(&b, `<section class="block"><h2>Region %d</h2><ul class="stories">`, s)
		for range count {
			head := fmt.Sprintf("Ferry timetable number %d changes for the spring season", k)
			sum := fmt.Sprintf("Crossings will leave %d minutes earlier from the north pier, the operator said.", k)
			fmt.Fprintf(&b, `<li class="teaser"><h3><a href="/s%d">%s</a></h3><p>%s</p></li>`, k, head, sum)
			want = append(want, head, sum)
			k++
		}
		b.WriteString(`</ul></section>`)
	}
	b.WriteString(`</main><aside><ul class="popular">`)
	for i := range 3 {
		r := fmt.Sprintf("Most read story %d: the harbour festival returns with music and boats", i)
		fmt.Fprintf(&b, `<li class="teaser"><p>%s</p></li>`, r)
		rail = append(rail, r)
	}
	b.WriteString(`</ul></aside><footer><p>About us. Contact. All rights reserved.</p></footer></body></html>`)
	return b.String(), want, rail
}

// TestUnitsSpread: the units of a listing split in sections (too few to
// be units themselves) are those of every section built alike, in the
// page's order; a list of another make (a rail) stays out, and a page of
// one section is as before.
func TestUnitsSpread(t *testing.T) {
	three, threeWant, threeRail := sectionedListing(5, 3)
	one, oneWant, oneRail := sectionedListing(6)
	tests := []struct {
		name    string
		html    string
		want    []string
		notWant []string
	}{
		{"two sections", three, threeWant, threeRail},
		{"one section", one, oneWant, oneRail},
	}
	for _, tt := range tests {
		tr, err := treediff.Parse(tt.name, []byte(tt.html), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p := newPage(tr, Options{}.WithDefaults())
		g, ok := p.units()
		if !ok {
			t.Fatalf("%s: no units", tt.name)
		}
		units := strings.Join(g.paras(p), "\n\n")
		if w, at, ok := inOrder(units, tt.want); !ok {
			t.Errorf("%s: units lack %q after byte %d:\n%s", tt.name, w, at, units)
		}
		for _, w := range append(tt.notWant, "Home", "About us") {
			if strings.Contains(units, w) {
				t.Errorf("%s: units hold %q:\n%s", tt.name, w, units)
			}
		}
	}
}
