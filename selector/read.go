package selector

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// selectorStep is one compound selector of the subset Of writes:
// tag, optional #id, .classes and :nth-of-type(n).
type selectorStep struct {
	tag     string
	id      string
	classes []string
	nth     int // 0: any rank
}

// parseSelector reads a selector written by Of: compound steps
// joined by " > ".
func parseSelector(sel string) ([]selectorStep, error) {
	if strings.TrimSpace(sel) == "" {
		return nil, fmt.Errorf("empty selector")
	}
	var steps []selectorStep
	for _, part := range strings.Split(sel, " > ") {
		st, err := parseStep(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("selector %q: %w", sel, err)
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// parseStep reads one compound step: tag, #id, .classes and
// :nth-of-type(n), with Of's escapes.
func parseStep(s string) (selectorStep, error) {
	var st selectorStep
	if s == "" {
		return st, fmt.Errorf("empty step")
	}
	s, nth, err := cutNth(s)
	if err != nil {
		return st, err
	}
	st.nth = nth
	parts, kinds := splitCompound(s)
	for k, p := range parts {
		switch kinds[k] {
		case 0:
			st.tag = p
		case '#':
			st.id = p
		case '.':
			st.classes = append(st.classes, p)
		}
	}
	if st.tag == "" {
		return st, fmt.Errorf("step %q: no tag", s)
	}
	return st, nil
}

// cutNth returns step s without its :nth-of-type(n) and n (0 when absent).
func cutNth(s string) (string, int, error) {
	i := strings.Index(s, ":nth-of-type(")
	if i < 0 {
		return s, 0, nil
	}
	j := strings.IndexByte(s[i:], ')')
	if j < 0 {
		return s, 0, fmt.Errorf("step %q: unclosed :nth-of-type(", s)
	}
	n, err := strconv.Atoi(s[i+len(":nth-of-type(") : i+j])
	if err != nil || n < 1 {
		return s, 0, fmt.Errorf("step %q: bad :nth-of-type", s)
	}
	return s[:i] + s[i+j+1:], n, nil
}

// splitCompound splits a step on its unescaped '#' and '.': the parts,
// unescaped, and the character before each (0 for the first).
func splitCompound(s string) (parts []string, kinds []byte) {
	var b strings.Builder
	kind := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i = unescape(s, i+1, &b)
		case c == '#' || c == '.':
			parts, kinds = append(parts, b.String()), append(kinds, kind)
			b.Reset()
			kind = c
		default:
			b.WriteByte(c)
		}
	}
	return append(parts, b.String()), append(kinds, kind)
}

// unescape writes to b the character escaped at s[i], after a backslash,
// and returns the index of the escape's last byte. Of escapes a leading
// digit as a code point "\3X ".
func unescape(s string, i int, b *strings.Builder) int {
	if isHex(s[i]) {
		j := i
		for j < len(s) && j-i < 6 && isHex(s[j]) {
			j++
		}
		if v, err := strconv.ParseInt(s[i:j], 16, 32); err == nil {
			b.WriteRune(rune(v))
			if j < len(s) && s[j] == ' ' {
				j++
			}
			return j - 1
		}
	}
	b.WriteByte(s[i])
	return i
}

// isHex reports a lower-case hexadecimal digit.
func isHex(h byte) bool { return h >= '0' && h <= '9' || h >= 'a' && h <= 'f' }

// matches reports whether element n fits the step; strictRank checks its
// rank among its siblings of its tag too.
func (st selectorStep) matches(n *treediff.Node, strictRank bool) bool {
	if n.Kind != treediff.Element || n.Label != st.tag {
		return false
	}
	if st.id != "" {
		if id, _ := n.Attr("id"); strings.TrimSpace(id) != st.id {
			return false
		}
	}
	if !hasAll(n, st.classes) {
		return false
	}
	return !strictRank || st.nth == 0 || n.Parent == nil || rank(n) == st.nth
}

// hasAll reports whether n has every class of classes.
func hasAll(n *treediff.Node, classes []string) bool {
	if len(classes) == 0 {
		return true
	}
	cls, _ := n.Attr("class")
	have := strings.Fields(cls)
	for _, c := range classes {
		if !slices.Contains(have, c) {
			return false
		}
	}
	return true
}

// rank is n's rank (from 1) among its parent's element children of its
// tag.
func rank(n *treediff.Node) int {
	k := 0
	for _, s := range n.Parent.Children {
		if s.Kind == treediff.Element && s.Label == n.Label {
			k++
		}
		if s == n {
			break
		}
	}
	return k
}

// Select returns the element of t the selector designates (a selector as
// written by Of). Sibling ranks are honoured first; when that finds
// nothing, a selector that names one element of the page by tags, ids and
// classes alone still selects it (templates shift ranks when an optional
// block comes and goes). It returns nil when nothing, or more than one
// element, matches.
func Select(t *treediff.Tree, selector string) (*treediff.Node, error) {
	steps, err := parseSelector(selector)
	if err != nil {
		return nil, err
	}
	if t == nil || t.Root == nil {
		return nil, nil
	}
	for _, strict := range []bool{true, false} {
		var found []*treediff.Node
		for _, n := range t.Nodes {
			if matchesFrom(n, steps, strict) {
				found = append(found, n)
				if len(found) > 1 {
					break
				}
			}
		}
		if len(found) == 1 {
			return found[0], nil
		}
	}
	return nil, nil
}

// matchesFrom reports whether n is designated by steps, read from the last
// step up through n's ancestors (child combinators; the first step may be
// any element, as in CSS).
func matchesFrom(n *treediff.Node, steps []selectorStep, strict bool) bool {
	c := n
	for k := len(steps) - 1; k >= 0; k-- {
		if c == nil || !steps[k].matches(c, strict) {
			return false
		}
		c = c.Parent
	}
	return true
}
