package singlepage

import "strings"

// minEchoWords is the least words of a paragraph of another extractor's
// body that is an echo when said again: a table says "Yes", "Optional" or
// "$10" row after row, each cell its own.
const minEchoWords = 3

// withoutEchoes drops from body, another extractor's (paragraphs parted
// by blank lines), each paragraph of minEchoWords to maxEchoWords words
// said again (compared as NormWords reads them): the block model leaves
// such echoes out of its own bodies (echo), and the other extractor reads
// the page's source, where every copy is: a carousel's slides cloned for
// its loop, a box written once for small screens and once for large. A
// long paragraph said twice is kept, as the block model keeps it. Linear
// in the body's size.
func withoutEchoes(body string) string {
	paras := strings.Split(body, "\n\n")
	kept := paras[:0:0]
	seen := map[string]bool{}
	for _, para := range paras {
		key := NormWords(para)
		if n := len(strings.Fields(key)); n >= minEchoWords && n <= maxEchoWords {
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		kept = append(kept, para)
	}
	if len(kept) == len(paras) {
		return body
	}
	return strings.Join(kept, "\n\n")
}

// minChantWords and maxChantWords bound a chant (chant): at least
// minChantWords words, at most maxChantWords of them distinct.
const (
	minChantWords = 12
	maxChantWords = 4
)

// chant reports a text that says a few words over and over ("Book now
// Book now Book now…"): a ticker scrolling across the page, filler, never
// something the page says once to its reader. The block model reads it
// as furniture (furnitureText), unless the page sets it in <pre> (a
// pattern drawn in characters).
func chant(text string) bool {
	ws := strings.Fields(NormWords(text))
	if len(ws) < minChantWords {
		return false
	}
	distinct := map[string]bool{}
	for _, w := range ws {
		if distinct[w] = true; len(distinct) > maxChantWords {
			return false
		}
	}
	return true
}
