package treediff

import (
	"strings"
	"testing"
)

// TestPath: each step is numbered among the siblings of the same tag (text
// nodes among text nodes), whatever order the paths are asked in.
func TestPath(t *testing.T) {
	tree, err := Parse("p", []byte(`<html><body><div><p>a</p>b<p>c</p><span>d</span>e</div><div><p>f</p></div></body></html>`), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a": "/html[1]/body[1]/div[1]/p[1]/text()[1]", "b": "/html[1]/body[1]/div[1]/text()[1]",
		"c": "/html[1]/body[1]/div[1]/p[2]/text()[1]", "d": "/html[1]/body[1]/div[1]/span[1]/text()[1]",
		"e": "/html[1]/body[1]/div[1]/text()[2]", "f": "/html[1]/body[1]/div[2]/p[1]/text()[1]",
	}
	// Backwards, so a later sibling is numbered first.
	for i := len(tree.Nodes) - 1; i >= 0; i-- {
		n := tree.Nodes[i]
		if n.Kind != Text {
			continue
		}
		got := n.Path()
		if w, ok := want[n.Label]; ok && !strings.HasSuffix(got, strings.TrimPrefix(w, "/html[1]")) {
			t.Errorf("path of %q = %s, want %s", n.Label, got, w)
		}
	}
}
