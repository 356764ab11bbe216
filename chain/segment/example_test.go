package segment_test

import (
	"fmt"
	"strings"

	"github.com/gleaner/gleaner/chain/segment"
)

func ExampleTokenize() {
	text := "M. Dupont paie 12,50 € le 3 mai 2024. Écrivez à info@example.fr !"
	toks := segment.Tokenize(text, "fr")
	for _, s := range segment.Sentences(toks, text, "fr") {
		var out []string
		for _, t := range s {
			out = append(out, t.Text+"["+t.Kind.String()+"]")
		}
		fmt.Println(strings.Join(out, " "))
	}
	// Output:
	// M.[abbrev] Dupont[word] paie[word] 12,50 €[money] le[word] 3 mai 2024[date] .[punct]
	// Écrivez[word] à[word] info@example.fr[email] ![punct]
}
