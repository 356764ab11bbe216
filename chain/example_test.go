package chain_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gleaner/gleaner/chain"
)

func ExampleChain_Process() {
	c, err := chain.New(chain.Config{Languages: []string{"en", "fr", "de"}})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	doc, err := c.Process(context.Background(), chain.Input{
		ID:   "d1",
		Text: "Die Kinder spielten im Garten. Danach gingen sie am 3. Mai nach Hause.",
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(doc.Lang, doc.Tagger)
	for _, s := range doc.Blocks[0].Sentences {
		var out []string
		for _, t := range s.Tokens {
			out = append(out, t.Text+"/"+t.Lemma)
		}
		fmt.Println(strings.Join(out, " "))
	}
	// Output:
	// de snowball-stems:de (no POS tagger for de)
	// Die/die Kinder/kind spielten/spielt im/im Garten/gart ./.
	// Danach/danach gingen/ging sie/sie am/am 3. Mai/3. Mai nach/nach Hause/haus ./.
}
