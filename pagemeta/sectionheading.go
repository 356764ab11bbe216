package pagemeta

import (
	"regexp"

	"github.com/gleaner/gleaner/treediff"
)

// bylineScan is s with the lines a byline may be read from: a section
// heading below the headline that starts with a lead word ("By
// Functionality", "By Region") groups the sections under it, it signs
// nothing; a byline is the story's small print, not a heading. A heading
// under an author's class keeps its line (an author box's title).
func bylineScan(s *scan, t *treediff.Tree) *scan {
	if t == nil {
		return s
	}
	kept := make([]line, 0, len(s.lines))
	for _, l := range s.lines {
		if l.cue != "author" && reBareLead.MatchString(l.text) && inSectionHeading(t, l.index) {
			continue
		}
		kept = append(kept, l)
	}
	b := *s
	b.lines = kept
	return &b
}

// reBareLead is a lone preposition leading a text ("By", "Von", "Par"):
// a grouping heading's lead ("By Region"); an author box's heading says
// "Written by".
var reBareLead = regexp.MustCompile(`(?i)^(?:by|von|par|por|door|przez)\s+\S`)

// inSectionHeading reports whether node i is text inside an h2 to h6.
func inSectionHeading(t *treediff.Tree, i int) bool {
	if i < 0 || i >= len(t.Nodes) {
		return false
	}
	for n := t.Nodes[i].Parent; n != nil; n = n.Parent {
		switch n.Label {
		case "h2", "h3", "h4", "h5", "h6":
			return true
		case "p", "div", "li", "section", "article", "header", "td":
			return false // the heading's block ends here
		}
	}
	return false
}
