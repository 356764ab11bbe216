package heuristics

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Fields a Rule can extract.
const (
	FieldBody  = "body"
	FieldTitle = "title"
)

// Rule is a template cluster's learned extraction rule: the element most
// pages of the cluster chose for a field, written as a CSS selector (the
// signature of the element: its path with tags, ids, classes and sibling
// ranks, as CSSSelector writes it).
type Rule struct {
	Field    string
	Selector string
	// Votes is the number of pages that chose Selector among Pages voters;
	// Support is Votes/Pages.
	Votes, Pages int
	Support      float64
}

// Vote returns the rule of one field of a cluster: the selector chosen by
// the most pages among selectors (one per page; "" for a page with no
// choice, which votes for nothing but counts among the voters). Ties go to
// the selector that sorts first, so the result does not depend on the order
// of the pages. It reports false when no page chose anything or when the
// winner has fewer than minVotes votes.
func Vote(field string, selectors []string, minVotes int) (Rule, bool) {
	count := map[string]int{}
	for _, s := range selectors {
		if s != "" {
			count[s]++
		}
	}
	if len(count) == 0 {
		return Rule{}, false
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if count[keys[i]] != count[keys[j]] {
			return count[keys[i]] > count[keys[j]]
		}
		return keys[i] < keys[j]
	})
	r := Rule{Field: field, Selector: keys[0], Votes: count[keys[0]], Pages: len(selectors)}
	r.Support = float64(r.Votes) / float64(r.Pages)
	return r, r.Votes >= max(minVotes, 1)
}

// selectorStep is one compound selector of the subset CSSSelector writes:
// tag, optional #id, .classes and :nth-of-type(n).
type selectorStep struct {
	tag     string
	id      string
	classes []string
	nth     int // 0: any rank
}

// parseSelector reads a selector written by CSSSelector: compound steps
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
			// CSSSelector escapes a leading digit as a code point "\3X ".
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
// written by CSSSelector). Sibling ranks are honoured first; when that finds
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

// ApplyRules extracts a page of a known template with its cluster's rules,
// without comparing it with the medoid's whole tree: the body rule selects
// the element; its text is kept without comment zones, link lists and the
// short blocks it shares word for word with the medoid (template text; the
// medoid may be nil). The title comes from the title rule when it selects an
// element, else from the differing heading above the body. It reports false
// when the body rule selects nothing in this page.
func ApplyRules(page, medoid *treediff.Tree, body, title Rule, opt PairOptions) (Result, bool) {
	if page == nil || page.Root == nil {
		return Result{}, false
	}
	target, err := Select(page, body.Selector)
	if err != nil || target == nil {
		return Result{}, false
	}
	opt = opt.withDefaults()
	pv := page.View(treediff.TokenView)
	moved := make([]bool, len(pv.Nodes))
	if medoid != nil && medoid.Root != nil {
		moved = movedTemplateKeys(pv, medoidOf(medoid).blockKeys(medoid))
	}
	f := computeFeatures(pv, func(i int) bool { return !moved[i] }, opt, newProseMap(page, SingleOptions{}))
	byOrigin := make(map[*treediff.Node]*treediff.Node, len(pv.Nodes)/2)
	for _, x := range pv.Nodes {
		if x.Kind == treediff.Element {
			byOrigin[x.Origin] = x
		}
	}
	loc := located{f: f, body: byOrigin[target]}
	if loc.body == nil {
		return Result{}, false
	}
	if title.Selector != "" {
		if tn, err := Select(page, title.Selector); err == nil && tn != nil {
			loc.title = byOrigin[tn]
		}
	}
	if loc.title == nil {
		loc.title = findTitle(f, loc.body)
	}
	r := loc.result(page)
	r.Method = MethodCluster
	r.Confidence = body.Support
	if f.tok[loc.body.Index] == 0 {
		r.Confidence = 0
	}
	return r, true
}
