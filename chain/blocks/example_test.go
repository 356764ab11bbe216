package blocks_test

import (
	"fmt"

	"github.com/gleaner/gleaner/chain/blocks"
	"github.com/gleaner/gleaner/treediff"
)

func ExampleSplit() {
	src := `<body><ul><li><a href="/">Home</a></li><li><a href="/sport">Sport</a></li></ul>
	<div><p>Kapitan Joe wydał rozkaz odpalenia wszystkich armat.</p>
	<aside><p>Statek pasażerski przewozi 300 osób.</p></aside></div></body>`
	tree, err := treediff.Parse("example", []byte(src), treediff.ParseOptions{})
	if err != nil {
		panic(err)
	}
	for _, b := range blocks.Split(tree.Root, blocks.Options{}) {
		fmt.Printf("%s: %s\n", b.Kind, b.Text)
	}
	// Output:
	// navigation: Home
	// navigation: Sport
	// prose: Kapitan Joe wydał rozkaz odpalenia wszystkich armat.
	// prose: Statek pasażerski przewozi 300 osób.
}
