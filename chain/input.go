package chain

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gleaner/gleaner/chain/blocks"
	"github.com/gleaner/gleaner/treediff"
)

// InputOf is the chain's input for the document src read from name (a
// file name, or "-" for standard input), in language lang ("" to
// identify): HTML (asHTML, or a name ending in .html or .htm) as its
// coherent blocks, anything else as text.
func InputOf(name string, src []byte, lang string, asHTML bool) (Input, error) {
	in := Input{ID: filepath.Base(name), Lang: lang}
	ext := strings.ToLower(filepath.Ext(name))
	if !asHTML && ext != ".html" && ext != ".htm" {
		in.Text = string(src)
		return in, nil
	}
	tree, err := treediff.Parse(name, src, treediff.ParseOptions{})
	if err != nil {
		return in, fmt.Errorf("%s: %w", name, err)
	}
	for _, b := range blocks.Split(tree.Root, blocks.Options{}) {
		in.Blocks = append(in.Blocks, b.Text)
	}
	return in, nil
}
