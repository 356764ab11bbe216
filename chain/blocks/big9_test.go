package blocks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/treediff"
)

// TestBig9Properties checks disjointness and coverage on real news pages.
func TestBig9Properties(t *testing.T) {
	dir := filepath.Join(shareddata.Dir(t, "big9-dev"), "html")
	files, _ := filepath.Glob(filepath.Join(dir, "*.htm*"))
	if len(files) == 0 {
		t.Skip("no pages")
	}
	for i, f := range files {
		if i%6 != 0 { // 30 of the 180 pages keep the test short
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := treediff.Parse(f, src, treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		bs := Split(tree.Root, Options{})
		owner := map[*treediff.Node]int{}
		words := 0
		tree.Root.Walk(func(n *treediff.Node) bool {
			if n.Kind == treediff.Element && skipped[n.Label] {
				return false
			}
			if n.Kind == treediff.Text {
				words += len(treediff.Words(n.Label))
			}
			return true
		})
		sum := 0
		for bi := range bs {
			sum += bs[bi].Words
			// Walk the block's nodes and check none is claimed twice.
			bs[bi].Node.Walk(func(n *treediff.Node) bool {
				for _, e := range bs[bi].Except {
					if e == n {
						return false
					}
				}
				if n.Kind == treediff.Text && len(treediff.Words(n.Label)) > 0 {
					if prev, ok := owner[n]; ok {
						t.Fatalf("%s: text %q in blocks %d and %d", f, n.Label, prev, bi)
					}
					owner[n] = bi
				}
				return !(n.Kind == treediff.Element && skipped[n.Label])
			})
		}
		if sum != words {
			t.Errorf("%s: %d words, blocks hold %d", filepath.Base(f), words, sum)
		}
	}
}

// BenchmarkSplitBig9 measures coherent-block splitting of a real page.
func BenchmarkSplitBig9(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(shareddata.Dir(b, "big9-dev"), "html", "*.htm*"))
	if len(files) == 0 {
		b.Skip("no pages")
	}
	src, err := os.ReadFile(files[0])
	if err != nil {
		b.Fatal(err)
	}
	tree, err := treediff.Parse(files[0], src, treediff.ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Split(tree.Root, Options{})
	}
}
