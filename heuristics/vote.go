package heuristics

import (
	"sort"

	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/singlepage"
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

// ApplyRules extracts a page of a known template with its cluster's rules,
// without comparing it with the medoid's whole tree: the body rule selects
// the element; its text is kept without comment zones, link lists and the
// short blocks it shares word for word with the medoid (template text; the
// medoid may be nil). The title comes from the title rule when it selects an
// element, else from the differing heading above the body. It reports false
// when the body rule selects nothing in this page.
func ApplyRules(page, medoid *treediff.Tree, body, title Rule, opt PairOptions) (singlepage.Result, bool) {
	return applyRules(page, medoid, body, title, opt, nil)
}

// applyRules is ApplyRules with what it derives from the medoid kept in
// meds (nil: derived for this call alone).
func applyRules(page, medoid *treediff.Tree, body, title Rule, opt PairOptions, meds *Medoids) (singlepage.Result, bool) {
	if page == nil || page.Root == nil {
		return singlepage.Result{}, false
	}
	target, err := selector.Select(page, body.Selector)
	if err != nil || target == nil {
		return singlepage.Result{}, false
	}
	opt = opt.withDefaults()
	pv := page.View(treediff.TokenView)
	moved := make([]bool, len(pv.Nodes))
	if medoid != nil && medoid.Root != nil {
		moved = movedTemplateKeys(pv, meds.of(medoid).blockKeys(medoid))
	}
	f := computeFeatures(pv, func(i int) bool { return !moved[i] }, opt, singlepage.NewProseMap(page, singlepage.Options{}))
	byOrigin := viewElements(pv)
	loc := located{f: f, body: byOrigin[target]}
	if loc.body == nil {
		return singlepage.Result{}, false
	}
	loc.title = ruleTitle(page, title, byOrigin)
	if loc.title == nil {
		loc.title = findTitle(f, loc.body)
	}
	r := loc.result(page)
	r.Method = singlepage.MethodCluster
	r.Confidence = body.Support
	if f.tok[loc.body.Index] == 0 {
		r.Confidence = 0
	}
	return r, true
}

// viewElements maps the elements of the tree view v was made from to
// theirs in v.
func viewElements(v *treediff.Tree) map[*treediff.Node]*treediff.Node {
	byOrigin := make(map[*treediff.Node]*treediff.Node, len(v.Nodes)/2)
	for _, x := range v.Nodes {
		if x.Kind == treediff.Element {
			byOrigin[x.Origin] = x
		}
	}
	return byOrigin
}

// ruleTitle is the element of the page's view the title rule selects, nil
// when there is no rule or it selects nothing.
func ruleTitle(page *treediff.Tree, title Rule, byOrigin map[*treediff.Node]*treediff.Node) *treediff.Node {
	if title.Selector == "" {
		return nil
	}
	if tn, err := selector.Select(page, title.Selector); err == nil && tn != nil {
		return byOrigin[tn]
	}
	return nil
}
