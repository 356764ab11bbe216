package treediff

import (
	"fmt"
	"strings"
	"testing"
)

// wideTree is a page whose body holds n sibling paragraphs with a text
// each (the shape of issue #11's hostile page).
func wideTree(tb testing.TB, n int) *Tree {
	tb.Helper()
	var b strings.Builder
	b.WriteString("<html><body>")
	for i := range n {
		fmt.Fprintf(&b, "<p>%d</p>", i)
	}
	b.WriteString("</body></html>")
	t, err := Parse("wide", []byte(b.String()), ParseOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// BenchmarkPathWide takes the path of every node of a page with many
// siblings, as the layout lookup of a rendered page does.
func BenchmarkPathWide(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		t := wideTree(b, n)
		b.Run(fmt.Sprintf("siblings=%d", n), func(b *testing.B) {
			for b.Loop() {
				for _, nd := range t.Nodes {
					_ = nd.Path()
				}
			}
		})
	}
}
