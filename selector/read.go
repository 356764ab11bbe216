package selector

import (
	"fmt"
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

func parseStep(s string) (selectorStep, error) {
	var st selectorStep
	if s == "" {
		return st, fmt.Errorf("empty step")
	}
	if i := strings.Index(s, ":nth-of-type("); i >= 0 {
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return st, fmt.Errorf("step %q: unclosed :nth-of-type(", s)
		}
		n, err := strconv.Atoi(s[i+len(":nth-of-type(") : i+j])
		if err != nil || n < 1 {
			return st, fmt.Errorf("step %q: bad :nth-of-type", s)
		}
		st.nth = n
		s = s[:i] + s[i+j+1:]
	}
	// Split on unescaped '#' and '.'.
	var parts []string
	var kinds []byte
	var b strings.Builder
	kind := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			// Of escapes a leading digit as a code point "\3X ".
			if h := s[i]; h >= '0' && h <= '9' || h >= 'a' && h <= 'f' {
				j := i
				for j < len(s) && j-i < 6 && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'a' && s[j] <= 'f') {
					j++
				}
				if v, err := strconv.ParseInt(s[i:j], 16, 32); err == nil {
					b.WriteRune(rune(v))
					if j < len(s) && s[j] == ' ' {
						j++
					}
					i = j - 1
					continue
				}
			}
			b.WriteByte(s[i])
		case c == '#' || c == '.':
			parts, kinds = append(parts, b.String()), append(kinds, kind)
			b.Reset()
			kind = c
		default:
			b.WriteByte(c)
		}
	}
	parts, kinds = append(parts, b.String()), append(kinds, kind)
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

func (st selectorStep) matches(n *treediff.Node, strictRank bool) bool {
	if n.Kind != treediff.Element || n.Label != st.tag {
		return false
	}
	if st.id != "" {
		if id, _ := n.Attr("id"); strings.TrimSpace(id) != st.id {
			return false
		}
	}
	if len(st.classes) > 0 {
		cls, _ := n.Attr("class")
		have := strings.Fields(cls)
		for _, c := range st.classes {
			found := false
			for _, h := range have {
				if h == c {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
	}
	if strictRank && st.nth > 0 && n.Parent != nil {
		k := 0
		for _, s := range n.Parent.Children {
			if s.Kind == treediff.Element && s.Label == n.Label {
				k++
			}
			if s == n {
				break
			}
		}
		if k != st.nth {
			return false
		}
	}
	return true
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
