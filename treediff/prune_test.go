package treediff

import "testing"

func TestPrune(t *testing.T) {
	tests := []struct {
		name, in, drop, want string
	}{
		{"nothing dropped", "{a{b}{c{d}}}", "", "{a{b}{c{d}}}"},
		{"leaf", "{a{b}{c{d}}}", "b", "{a{c{d}}}"},
		{"subtree", "{a{b}{c{d}{e}}{f}}", "c", "{a{b}{f}}"},
		{"inner leaf", "{a{b}{c{d}{e}}{f}}", "d", "{a{b}{c{e}}{f}}"},
		{"every child", "{a{b}{b}{b}}", "b", "{a}"},
		{"root is kept", "{a{b}}", "a", "{a{b}}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, err := ParseBracket(tc.name, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got := src.Prune(func(n *Node) bool { return n.Label != tc.drop })
			if b := got.Bracket(); b != tc.want {
				t.Fatalf("Prune = %s, want %s", b, tc.want)
			}
			if src.Bracket() != tc.in {
				t.Fatalf("source changed: %s", src.Bracket())
			}
			for i, n := range got.Nodes {
				if n.Index != i {
					t.Errorf("node %d has Index %d", i, n.Index)
				}
				if n.Origin == nil || n.Origin.Label != n.Label || src.Nodes[n.Origin.Index] != n.Origin {
					t.Errorf("node %d: Origin is not its source node", i)
				}
				if n.Parent == nil {
					if n != got.Root || n.Depth != 0 {
						t.Errorf("node %d: parentless non-root or depth %d", i, n.Depth)
					}
					continue
				}
				if n.Depth != n.Parent.Depth+1 || n.Parent.Index >= n.Index {
					t.Errorf("node %d: depth %d under depth %d, parent index %d", i, n.Depth, n.Parent.Depth, n.Parent.Index)
				}
				if n.Origin.Parent != n.Parent.Origin {
					t.Errorf("node %d: parent is not its source's parent", i)
				}
			}
		})
	}
}

func TestPruneHTMLKeepsText(t *testing.T) {
	src, err := Parse("p.html", []byte(`<body><div><p>kept</p><p hidden>gone</p></div></body>`), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := src.Prune(func(n *Node) bool { _, h := n.Attr("hidden"); return !h })
	if txt := got.Root.Text(); txt != "kept" {
		t.Fatalf("pruned text = %q, want %q", txt, "kept")
	}
}
