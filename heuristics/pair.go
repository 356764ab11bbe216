package heuristics

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// PairOptions tunes PairDiff. Zero fields take the defaults.
type PairOptions struct {
	// Align tunes the edit mapping between the page and its medoid.
	Align AlignOptions
	// MinShare prunes candidate elements holding less than this share of the
	// page's words (the thesis's 2 %; default DefaultMinShare).
	MinShare float64
	// TemplatePenalty is what one word that does not differ from the medoid
	// (template text, filtered zones) costs an element holding it, against 1
	// gained per differing word (default DefaultTemplatePenalty).
	TemplatePenalty float64
	// MinBlockWords: differing words of a block (paragraph, cell, list item)
	// holding fewer words than this are neutral, neither body nor template
	// (default DefaultMinBlockWords).
	MinBlockWords int
}

// Defaults of PairOptions, tuned on the Big9 dev pages.
const (
	DefaultMinShare        = 0.02
	DefaultTemplatePenalty = 0.5
	DefaultMinBlockWords   = 10
)

func (o PairOptions) withDefaults() PairOptions {
	if o.MinShare <= 0 {
		o.MinShare = DefaultMinShare
	}
	if o.MinBlockWords <= 0 {
		o.MinBlockWords = DefaultMinBlockWords
	}
	if o.TemplatePenalty <= 0 {
		o.TemplatePenalty = DefaultTemplatePenalty
	}
	return o
}

// PairDiff locates the useful content of page by comparing it with medoid,
// a page of the same template (seed 004, chapter 4.4). Both are full trees
// as returned by treediff.Parse. The words of the page that differ from the
// medoid, found by an edit mapping between the two tokenized trees (Align),
// weigh on the elements holding them; the body is the element that gathers
// the most differing text for the least template text, filtered of comment
// and gallery zones, and the title the differing heading above it.
func PairDiff(page, medoid *treediff.Tree, opt PairOptions) (singlepage.Result, error) {
	if page == nil || page.Root == nil {
		return singlepage.Result{}, fmt.Errorf("pair diff: empty page")
	}
	if medoid == nil || medoid.Root == nil {
		return singlepage.Result{}, fmt.Errorf("pair diff of %s: empty medoid", page.Name)
	}
	po := pairDiff(page, medoid, opt, nil, nil)
	return po.res, po.err
}

// located is what locate found in the page's token view.
type located struct {
	f     *features
	body  *treediff.Node // view node, nil when nothing differs
	title *treediff.Node // view node, may be nil
	conf  float64
}

// features are per-node counts over the page's token view, by preorder index.
type features struct {
	view *treediff.Tree
	// tok: words under the node; chg: words with no identical counterpart in
	// the medoid; link: words inside links; chgLink: changed words in links.
	tok, chg, link, chgLink []int32
	// useful: changed words outside links, zones and short blocks (the
	// words scoring +1).
	useful []int32
	// zone marks nodes inside a filtered zone (comments, galleries, navigation).
	zone []bool
	// score is the body score of each element: +1 per differing word outside
	// links and zones, -penalty per other word (links count 0 when changed).
	score []float64
}

// computeFeatures counts, over the page's token view t, the words that
// differ from the medoid as changed(i) says.
//
// A zone's cue is ignored on an element that holds most of the page's
// prose (prose.holdsProse): it names a wrapper, not a zone.
func computeFeatures(t *treediff.Tree, changed func(i int) bool, opt PairOptions, prose singlepage.ProseMap) *features {
	n := len(t.Nodes)
	f := &features{view: t,
		tok: make([]int32, n), chg: make([]int32, n), link: make([]int32, n), chgLink: make([]int32, n), useful: make([]int32, n),
		zone: make([]bool, n), score: make([]float64, n)}
	inLink, block, blockWords := f.readBlocks(t, prose)
	for i := n - 1; i >= 0; i-- { // reverse preorder: children first
		x := t.Nodes[i]
		if x.Kind == treediff.Token {
			short := int(blockWords[block[i]]) < opt.MinBlockWords
			f.token(i, changed(i), inLink[i], short, opt.TemplatePenalty)
		}
		if p := x.Parent; p != nil {
			f.add(p.Index, i)
		}
	}
	return f
}

// readBlocks marks the filtered zones (f.zone) and returns, per node,
// whether it is inside a link and block: the nearest block-level element
// at or above it; and per block element, blockWords: the words directly
// in it. Words directly in a short block (a teaser, a date line, a
// caption) weigh nothing, so lists of changing snippets do not pull the
// body up.
func (f *features) readBlocks(t *treediff.Tree, prose singlepage.ProseMap) (inLink []bool, block, blockWords []int32) {
	n := len(t.Nodes)
	inLink, block, blockWords = make([]bool, n), make([]int32, n), make([]int32, n)
	for _, x := range t.Nodes { // preorder: parents first
		i := x.Index
		block[i] = int32(i)
		if p := x.Parent; p != nil {
			inLink[i] = inLink[p.Index] || p.Label == "a"
			f.zone[i] = f.zone[p.Index]
			if x.Kind != treediff.Element || !treediff.IsBlock(x.Label) {
				block[i] = block[p.Index]
			}
		}
		if !f.zone[i] && startsZone(x, prose) {
			f.zone[i] = true
		}
		if x.Kind == treediff.Token {
			blockWords[block[i]]++
		}
	}
	return inLink, block, blockWords
}

// startsZone reports an element that is a comment zone, a gallery or
// other furniture (singlepage.IsFilteredZone) without holding most of the
// page's prose.
func startsZone(x *treediff.Node, prose singlepage.ProseMap) bool {
	return x.Kind == treediff.Element && singlepage.IsFilteredZone(x) && !prose.HoldsProse(x)
}

// token counts token i (changed from the medoid, in a link, in a short
// block) and scores it: a differing word outside links and short blocks
// counts 1, template text and filtered zones cost penalty.
func (f *features) token(i int, changed, link, short bool, penalty float64) {
	f.tok[i] = 1
	if changed {
		f.chg[i] = 1
	}
	if link {
		f.link[i] = 1
		if changed {
			f.chgLink[i] = 1
		}
	}
	switch {
	case f.zone[i]:
		f.score[i] = -penalty
	case changed && link, changed && short:
		f.score[i] = 0
	case changed:
		f.score[i] = 1
		f.useful[i] = 1
	default:
		f.score[i] = -penalty
	}
}

// add adds node i's counts and score to its parent j's.
func (f *features) add(j, i int) {
	f.tok[j] += f.tok[i]
	f.chg[j] += f.chg[i]
	f.link[j] += f.link[i]
	f.chgLink[j] += f.chgLink[i]
	f.useful[j] += f.useful[i]
	f.score[j] += f.score[i]
}

// bodyOf returns the page's body element in the view (the root if none).
func bodyOf(t *treediff.Tree) *treediff.Node {
	for _, c := range t.Root.Children {
		if c.Kind == treediff.Element && c.Label == "body" {
			return c
		}
	}
	return t.Root
}

// locate finds the body and title elements in the page's token view.
func locate(al *Alignment, opt PairOptions, prose singlepage.ProseMap) located {
	return locateWith(al, blockKeySet(al.B), comparables{medoid: al.B}, opt, prose)
}

// locateWith is locate with what it reads of the medoid's token view
// (al.B) given: the keys of its short blocks (blockKeySet) and its
// comparable nodes, as a medoidInfo keeps them for all the pages of a
// cluster.
func locateWith(al *Alignment, medoidKeys map[string]bool, cmp comparables, opt PairOptions, prose singlepage.ProseMap) located {
	moved := movedTemplateKeys(al.A, medoidKeys)
	f := computeFeatures(al.A, func(i int) bool { return al.Changed(i) && !moved[i] }, opt, prose)
	t := al.A
	body := bodyOf(t)
	total := float64(f.tok[t.Root.Index])
	var best *treediff.Node
	bestScore := 0.0
	body.Walk(func(x *treediff.Node) bool {
		if x.Kind != treediff.Element {
			return false
		}
		i := x.Index
		if f.zone[i] {
			return false
		}
		if float64(f.tok[i]) < opt.MinShare*total || f.chg[i] == 0 {
			return false // pruned: too little text below, nor in descendants
		}
		if s := f.score[i]; (s > bestScore || (s == bestScore && best != nil && best.Contains(x))) && !cmp.template(x) {
			best, bestScore = x, s
		}
		return true
	})
	loc := located{f: f}
	if best == nil {
		return loc
	}
	best = preferNamed(f, best)
	loc.body = best
	loc.title = findTitle(f, best)
	loc.conf = f.confidence(best)
	return loc
}

// preferNamed climbs from x to the nearest ancestor with a class or id when
// that ancestor holds no other word: the same content, but a selector that
// names the template's container (the thesis prefers classed elements).
func preferNamed(f *features, x *treediff.Node) *treediff.Node {
	for c := x; c != nil && c.Label != "body"; c = c.Parent {
		if f.tok[c.Index] != f.tok[x.Index] {
			break
		}
		if hasName(c) {
			return c
		}
	}
	return x
}

func hasName(x *treediff.Node) bool {
	for _, k := range []string{"class", "id"} {
		if v, ok := x.Attr(k); ok && strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// confidence combines how much of the page's differing text the element
// holds, how little template text comes with it, and how much the element
// stands out of its parent (the thesis's differential).
func (f *features) confidence(x *treediff.Node) float64 {
	i := x.Index
	body := bodyOf(f.view).Index
	useful := float64(f.useful[i])
	allUseful := float64(f.useful[body])
	if useful <= 0 || allUseful <= 0 {
		return 0
	}
	coverage := useful / allUseful           // share of the page's new text
	purity := useful / float64(f.tok[i])     // share of new text in the element
	lengthFactor := 1 - math.Exp(-useful/60) // short texts are less sure
	// The differential of the parent (its weight less its heaviest child's)
	// is the new text beside the element: the more there is, the likelier
	// the body is split and the element too low.
	standout := 1.0
	if p := x.Parent; p != nil && f.useful[p.Index] > 0 {
		standout = 1 - float64(f.differential(p))/float64(f.useful[p.Index])
	}
	c := math.Sqrt(coverage) * purity * lengthFactor * math.Sqrt(standout) // in [0, 1]
	return math.Round(c*1000) / 1000
}

// differential is the thesis's weight differential of x: its weight (the
// useful differing words below it) less the weight of its heaviest child.
func (f *features) differential(x *treediff.Node) int32 {
	var heaviest int32
	for _, c := range x.Children {
		heaviest = max(heaviest, f.useful[c.Index])
	}
	return f.useful[x.Index] - heaviest
}

// result turns what was located into a Result over the full tree.
func (l located) result(page *treediff.Tree) singlepage.Result {
	r := singlepage.Result{Method: singlepage.MethodPair}
	if l.body == nil {
		return r
	}
	f := l.f
	r.Node = l.body.Origin
	r.Selector = selector.Of(r.Node)
	r.Confidence = l.conf
	skip := map[*treediff.Node]bool{}
	l.body.Walk(func(x *treediff.Node) bool {
		if x.Kind != treediff.Element || x == l.body {
			return true
		}
		i := x.Index
		if f.zone[i] || (treediff.IsBlock(x.Label) && f.tok[i] > 0 && f.chg[i] == 0) ||
			(treediff.IsBlock(x.Label) && f.tok[i] > 0 && float64(f.link[i]) >= 0.5*float64(f.tok[i])) {
			// comment zones, template blocks and link lists inside the body
			skip[x.Origin] = true
			return false
		}
		return true
	})
	if l.title != nil {
		r.Title = oneLine(l.title.Origin.Text())
		if l.body.Contains(l.title) {
			skip[l.title.Origin] = true
		}
	}
	r.Body = textWithout(r.Node, skip)
	return r
}

// oneLine joins the lines of s with spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// textWithout is n.Text() with the subtrees rooted at skipped nodes left out.
func textWithout(n *treediff.Node, skip map[*treediff.Node]bool) string {
	// The copy hangs under n's parent so that Text sees n's ancestors (a
	// <pre> above n keeps its line breaks).
	root := &treediff.Node{Kind: n.Kind, Label: n.Label, Parent: n.Parent}
	type item struct{ src, dst *treediff.Node }
	stack := []item{{n, root}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range it.src.Children {
			if skip[c] {
				continue
			}
			d := &treediff.Node{Kind: c.Kind, Label: c.Label, Parent: it.dst}
			it.dst.Children = append(it.dst.Children, d)
			stack = append(stack, item{c, d})
		}
	}
	return root.Text()
}

// minTitleWords is the fewest words of a headline: a lone word that happens
// to be in the document title is not one.
const minTitleWords = 2

// findTitle picks the headline: a short element whose words differ from the
// medoid, above or at the start of the body, scored by heading tag, by
// title-like class names and by its words' overlap with the document title.
func findTitle(f *features, body *treediff.Node) *treediff.Node {
	t := f.view
	docTitle := wordCounts(treediff.Title(t))
	bodyEnd := body.Offset
	if last := lastNode(body); last != nil {
		bodyEnd = last.Offset
	}
	var best *treediff.Node
	bestScore := 0.0
	bodyOf(t).Walk(func(x *treediff.Node) bool {
		candidate, descend := f.titleStep(x, bodyEnd)
		if candidate {
			if s := titleScore(x, body, docTitle); s > bestScore {
				best, bestScore = x, s
			}
		}
		return descend
	})
	if bestScore < 0.8 {
		return nil
	}
	return best
}

// titleStep says whether element x can be the headline (short, its words
// mostly differing from the medoid, not after the body's end) and whether
// the walk is to look below it.
func (f *features) titleStep(x *treediff.Node, bodyEnd int) (candidate, descend bool) {
	if x.Kind != treediff.Element {
		return false, false
	}
	i := x.Index
	switch {
	case f.zone[i] || f.chg[i] == 0:
		return false, false
	case f.tok[i] > 40:
		return false, true // too long to be a headline: look below
	case x.Offset > bodyEnd:
		return false, false
	case f.chg[i]*2 < f.tok[i] || f.tok[i] < minTitleWords:
		return false, true
	}
	return true, true
}

// titleScore scores a headline candidate x by its heading tag, a
// title-like class name and its words' overlap with the document title.
func titleScore(x, body *treediff.Node, docTitle map[string]float64) float64 {
	s := headingWeight(x.Label)
	if titleCue(x) {
		s += 0.5
	}
	s += 2 * cosine(wordCounts(x.Text()), docTitle)
	if x.Offset > body.Offset && body.Contains(x) {
		s -= 0.2 // inside the body: only a title if it is its first line
	}
	return s
}

// headingWeight is what a headline's tag adds to its score.
func headingWeight(tag string) float64 {
	switch tag {
	case "h1":
		return 1
	case "h2":
		return 0.6
	case "h3":
		return 0.4
	}
	return 0
}

func lastNode(n *treediff.Node) *treediff.Node {
	for len(n.Children) > 0 {
		n = n.Children[len(n.Children)-1]
	}
	return n
}

// wordCounts counts the lower-cased words of s.
func wordCounts(s string) map[string]float64 {
	m := map[string]float64{}
	for _, w := range treediff.Words(s) {
		m[strings.ToLower(w.Text)]++
	}
	return m
}

// cosine is the cosine similarity of two word-count vectors.
func cosine(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for k, v := range a {
		na += v * v
		dot += v * b[k]
	}
	for _, v := range b {
		nb += v * v
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// maxMovedWords bounds the blocks checked by movedTemplate: template
// snippets (labels, notices, bylines of the desk) are short.
const maxMovedWords = 30

// movedTemplate marks, by preorder index in the page view, the words of short
// blocks whose whole text is also the text of a block of the medoid view: template
// text that the mapping left unmatched because it moved. The thesis drops
// template text as identical on every page; this finds it wherever it sits.
func movedTemplate(page, medoid *treediff.Tree) []bool {
	if medoid == nil {
		return make([]bool, len(page.Nodes))
	}
	return movedTemplateKeys(page, blockKeySet(medoid))
}

// movedTemplateKeys is movedTemplate with the medoid view's block keys
// already read (blockKeySet).
func movedTemplateKeys(page *treediff.Tree, seen map[string]bool) []bool {
	out := make([]bool, len(page.Nodes))
	for _, k := range blockKeys(page) {
		if !seen[k.key] {
			continue
		}
		k.node.Walk(func(x *treediff.Node) bool {
			out[x.Index] = true
			return true
		})
	}
	return out
}

// blockKeySet is the set of the keys of blockKeys(t).
func blockKeySet(t *treediff.Tree) map[string]bool {
	seen := map[string]bool{}
	for _, k := range blockKeys(t) {
		seen[k.key] = true
	}
	return seen
}

type blockKey struct {
	node *treediff.Node
	key  string
}

// blockKeys returns the lower-cased words of every short block element,
// innermost blocks first in preorder.
func blockKeys(t *treediff.Tree) []blockKey {
	var out []blockKey
	words := make([]int, len(t.Nodes))
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		x := t.Nodes[i]
		if x.Kind == treediff.Token {
			words[i] = 1
		}
		if x.Parent != nil {
			words[x.Parent.Index] += words[i]
		}
	}
	for _, x := range t.Nodes {
		if x.Kind != treediff.Element || !treediff.IsBlock(x.Label) || words[x.Index] == 0 || words[x.Index] > maxMovedWords {
			continue
		}
		var b strings.Builder
		linked := false
		x.Walk(func(y *treediff.Node) bool {
			if y.Label == "a" && y.Kind == treediff.Element {
				linked = true
			}
			if y.Kind == treediff.Token {
				b.WriteString(strings.ToLower(y.Label))
				b.WriteByte(' ')
			}
			return true
		})
		if !linked {
			// A linked block may be a teaser of another page's headline
			// (the medoid listing this very article), not template text.
			out = append(out, blockKey{x, b.String()})
		}
	}
	return out
}

// comparables finds, for an element of the page, its comparable node in the
// medoid: the element at the same path from the root with the same
// attributes (seed 004). Its index of the medoid's paths is built on first
// use.
type comparables struct {
	medoid *treediff.Tree
	byPath map[string]*treediff.Node
	// counts, when set (by medoidInfo, shared by the pages of a cluster),
	// caches the word counts of the medoid's elements by preorder index.
	counts []atomic.Pointer[map[string]float64]
}

// templateCosine is the cosine of word counts from which an element's text
// counts as its comparable node's: template text is the same on every page.
const templateCosine = 0.99

// template reports whether x has a comparable node in the medoid holding
// the same text (cosine similarity of word counts): such an element is
// template, whatever the edit mapping said.
func (c *comparables) template(x *treediff.Node) bool {
	if c.medoid == nil {
		return false
	}
	if c.byPath == nil {
		c.byPath = pathIndex(c.medoid)
	}
	m := c.byPath[x.Path()]
	if m == nil || !sameAttrs(x, m) {
		return false
	}
	return cosine(wordCounts(x.Text()), c.wordCounts(m)) >= templateCosine
}

// wordCounts returns wordCounts(m.Text()) for the medoid node m, cached
// when c.counts is set. Two goroutines may count the same node at once:
// both store equal maps, and the maps are only read once stored.
func (c *comparables) wordCounts(m *treediff.Node) map[string]float64 {
	if c.counts == nil {
		return wordCounts(m.Text())
	}
	slot := &c.counts[m.Index]
	if p := slot.Load(); p != nil {
		return *p
	}
	wc := wordCounts(m.Text())
	slot.Store(&wc)
	return wc
}

// pathIndex maps the paths of t's elements to the elements.
func pathIndex(t *treediff.Tree) map[string]*treediff.Node {
	byPath := map[string]*treediff.Node{}
	for _, n := range t.Nodes {
		if n.Kind == treediff.Element {
			byPath[n.Path()] = n
		}
	}
	return byPath
}

// sameAttrs reports whether two elements carry the same attributes and
// values, in any order.
func sameAttrs(a, b *treediff.Node) bool {
	if len(a.Attrs) != len(b.Attrs) {
		return false
	}
	for _, x := range a.Attrs {
		if v, ok := b.Attr(x.Key); !ok || v != x.Val {
			return false
		}
	}
	return true
}
