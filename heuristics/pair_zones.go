package heuristics

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// titleCue reports whether the element's class or id names a headline.
func titleCue(x *treediff.Node) bool {
	for _, k := range []string{"class", "id", "itemprop"} {
		if v, ok := x.Attr(k); ok {
			v = strings.ToLower(v)
			if strings.Contains(v, "headline") || strings.Contains(v, "title") {
				return true
			}
		}
	}
	return false
}
