package selector

import (
	"strconv"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Of returns a CSS selector that designates n from the document
// root: one step per ancestor, with the element's id when it has one that
// no other element of the page repeats (the path then starts there), its
// classes, and :nth-of-type when siblings share
// the tag. It returns "" for nil or non-element nodes.
func Of(n *treediff.Node) string {
	if n == nil || n.Kind != treediff.Element {
		return ""
	}
	var steps []string
	for c := n; c != nil; c = c.Parent {
		if c.Kind != treediff.Element {
			continue
		}
		step, anchored := stepOf(c)
		steps = append(steps, step)
		if anchored {
			break
		}
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteString(steps[i])
		if i > 0 {
			b.WriteString(" > ")
		}
	}
	return b.String()
}

// stepOf writes element c's step, and reports whether it is anchored at
// an id no other element repeats (the path starts there).
func stepOf(c *treediff.Node) (string, bool) {
	step := cssIdent(c.Label)
	if id, ok := c.Attr("id"); ok && validIdent(strings.TrimSpace(id)) && uniqueID(c, id) {
		return step + "#" + cssIdent(strings.TrimSpace(id)), true
	}
	if cls, ok := c.Attr("class"); ok {
		for _, f := range strings.Fields(cls) {
			if validIdent(f) {
				step += "." + cssIdent(f)
			}
		}
	}
	if nth, ok := rankOf(c); ok {
		step += ":nth-of-type(" + strconv.Itoa(nth) + ")"
	}
	return step, false
}

// rankOf returns c's rank among its siblings of its tag, false when its
// classes single it out among them (position only then).
func rankOf(c *treediff.Node) (int, bool) {
	if c.Parent == nil {
		return 0, false
	}
	nth, same, alike := 0, 0, 0
	for _, s := range c.Parent.Children {
		if s.Kind != treediff.Element || s.Label != c.Label {
			continue
		}
		same++
		if s == c {
			nth = same
		}
		if hasClasses(s, c) {
			alike++
		}
	}
	return nth, alike > 1
}

// uniqueID reports whether no other element of n's document has the id
// (pages repeat ids; a selector anchored at a repeated id is ambiguous).
func uniqueID(n *treediff.Node, id string) bool {
	root := n
	for root.Parent != nil {
		root = root.Parent
	}
	count := 0
	root.Walk(func(m *treediff.Node) bool {
		if count > 1 || m.Kind != treediff.Element {
			return false
		}
		if v, ok := m.Attr("id"); ok && v == id {
			count++
		}
		return true
	})
	return count == 1
}

// hasClasses reports whether s carries every class of c (so that c's step
// would match s too).
func hasClasses(s, c *treediff.Node) bool {
	want, _ := c.Attr("class")
	have, _ := s.Attr("class")
	hs := strings.Fields(have)
	for _, w := range strings.Fields(want) {
		found := false
		for _, h := range hs {
			if h == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// validIdent reports whether s can be written as a CSS identifier without
// escaping beyond what cssIdent does (non-empty, no whitespace).
func validIdent(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\n\r\f")
}

// cssIdent escapes s as a CSS identifier: characters outside
// [A-Za-z0-9_-] and non-ASCII are backslash-escaped, and a leading digit
// (or "-" followed by a digit) is escaped as a code point.
func cssIdent(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9' && (i == 0 || (i == 1 && s[0] == '-')):
			b.WriteString(`\` + strconv.FormatInt(int64(r), 16) + " ")
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r >= 0x80:
			b.WriteRune(r)
		default:
			b.WriteByte('\\')
			b.WriteRune(r)
		}
	}
	return b.String()
}
