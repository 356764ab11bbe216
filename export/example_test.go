package export_test

import (
	"context"
	"os"

	"github.com/gleaner/gleaner/chain"
	"github.com/gleaner/gleaner/export"
)

func ExampleWriteVertical() {
	c, err := chain.New(chain.Config{})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	doc, err := c.Process(context.Background(), chain.Input{ID: "d1", Lang: "de", Text: "Der Hafen ist offen."})
	if err != nil {
		panic(err)
	}
	export.WriteVertical(os.Stdout, doc)
	// Output:
	// <doc id="d1" url="" title="" lang="de" tagger="snowball-stems:de (no POS tagger for de)">
	// <p>
	// <s>
	// Der	_	der
	// Hafen	_	haf
	// ist	_	ist
	// offen	_	off
	// .	punct	.
	// </s>
	// </p>
	// </doc>
}
