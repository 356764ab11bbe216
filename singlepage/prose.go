package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Cues (a class, id or role naming navigation, comments, a sidebar…) are
// evidence against an element, weighed against the text it holds: sites name
// their page-level wrappers after layouts and taxonomies ("right-rail",
// "with-navbar", "category-social-media", "article-plus-share-tools"), so a
// cue on an element that holds most of the page's prose is a wrapper's name,
// never a verdict on the article inside. Elements inside it still answer
// for their own cues: a comment list that holds most of the prose is read,
// and each comment in it, a small part of the page, is still a comment.

// dominantShare is the share of the page's prose an element must hold,
// outside the cued elements inside it, for its own cue to be ignored.
const dominantShare = 0.5

// ProseMap tells, per node index of a full tree, whether the element holds
// most of the page's prose.
type ProseMap struct {
	tree     *treediff.Tree
	dominant []bool
	// stories marks the <article> elements under a weak cue that hold a
	// story (isStory).
	stories []bool
}

// NewProseMap reads t's prose: the words of blocks judged article-like on
// their text alone (long, few links, not code, bylines or legal lines),
// before any cue is applied.
func NewProseMap(t *treediff.Tree, opt Options) ProseMap {
	p := buildPage(t, opt.WithDefaults(), nil)
	prefix := make([]float64, len(p.blocks)+1)
	for i, b := range p.blocks {
		w := 0.0
		if b.class == classGood {
			w = float64(b.words) * (1 - b.linkDensity())
		}
		prefix[i+1] = prefix[i] + w
	}
	total := prefix[len(p.blocks)]
	m := ProseMap{tree: t, dominant: make([]bool, len(t.Nodes)), stories: p.stories()}
	if total <= 0 {
		return m
	}
	// A group let through frees the groups around it (a section's name
	// on a wrapper and on its box): a few rounds, each linear.
	forced := make([]bool, len(t.Nodes))
	furniture := inFurniture(t)
	for round := 0; round < maxGroupRounds; round++ {
		groups := m.mark(p, prefix, total, forced, furniture)
		grown := false
		for i, n := range t.Nodes {
			if k := groupKey(n); k != "" && !furniture[i] && !forced[i] && groups[k] >= dominantShare*total {
				forced[i], grown = true, true
			}
		}
		if !grown {
			break
		}
	}
	return m
}

// maxGroupRounds bounds the rounds of NewProseMap's group rule.
const maxGroupRounds = 4

// mark sets which cued elements of p's tree hold most of the page's prose
// (prefix the blocks' prose weights, total their sum), the forced ones
// whatever they hold, and returns the prose the others hold by groupKey.
func (m ProseMap) mark(p *page, prefix []float64, total float64, forced, furniture []bool) map[string]float64 {
	t := m.tree
	groups := map[string]float64{}
	// Children before parents: an element's free prose is what it holds
	// outside the cued elements below it whose cue stands.
	vetoed := make([]float64, len(t.Nodes))
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := t.Nodes[i]
		if n.Kind != treediff.Element {
			continue
		}
		held := prefix[p.end[i]] - prefix[p.first[i]]
		up := vetoed[i]
		if isCued(n) {
			m.dominant[i] = held-vetoed[i] >= dominantShare*total || forced[i]
			if !m.dominant[i] {
				up = held
				if k := groupKey(n); k != "" && !furniture[i] {
					groups[k] += held - vetoed[i]
				}
			}
		}
		if n.Parent != nil {
			vetoed[n.Parent.Index] += up
		}
	}
	return groups
}

// inFurniture marks, per node index of t, the elements inside (or being)
// a <nav>, <aside>, <footer> or <menu> or an element of a furniture role:
// a site's menus name their columns alike too, and hold much text when
// their items are not links. The group rule leaves them out.
func inFurniture(t *treediff.Tree) []bool {
	in := make([]bool, len(t.Nodes))
	for i, n := range t.Nodes { // parents come before their children
		in[i] = n.Kind == treediff.Element && (boilerTags[n.Label] || boilerRole(n)) ||
			n.Parent != nil && in[n.Parent.Index]
	}
	return in
}

// groupKey names the cue of element n that its sections may share: the
// first token of its class holding a boilerplate word or a weak fragment
// ("skip-item", "content-nav-section", a page builder's "x-widget"). Cued elements of one key that together hold
// most of the page's prose are the article's sections, each named after
// a layout ("skip" to it, "nav" to it), not furniture. Classes naming
// comments, sharing or other strong fragments have no key: the comments
// of a long thread still are comments.
func groupKey(n *treediff.Node) string {
	if n.Kind != treediff.Element {
		return ""
	}
	v, ok := n.Attr("class")
	if !ok {
		return ""
	}
	v = strings.ToLower(v)
	for _, f := range strongFragments {
		if strings.Contains(v, f) {
			return ""
		}
	}
	for _, tok := range strings.Fields(v) {
		if boilerToken(tok) || weakToken(tok) {
			return tok
		}
	}
	return ""
}

// weakToken reports a class token holding a weak boilerplate fragment
// ("elementor-widget").
func weakToken(tok string) bool {
	for _, f := range weakFragments {
		if strings.Contains(tok, f) {
			return true
		}
	}
	return false
}

// isCued reports whether either cue vocabulary (the single-page blocks' or
// the pair diff's zones) marks n.
func isCued(n *treediff.Node) bool { return cueOf(n) != noCue || IsFilteredZone(n) }

// HoldsProse reports whether n, a node of the tree the map was built on or
// of a view of it, holds most of the page's prose. A zero map knows nothing
// and reports false.
func (m ProseMap) HoldsProse(n *treediff.Node) bool {
	if m.tree == nil {
		return false
	}
	// A view's node leads, through Origin, to the node of the tree it was
	// made from.
	for n != nil && (n.Index >= len(m.tree.Nodes) || m.tree.Nodes[n.Index] != n) {
		n = n.Origin
	}
	return n != nil && m.dominant[n.Index]
}

// An <article> element is a story by its tag: a weak cue in its class
// ("newsletter-post", "promoted", "gallery") names the story's kind or
// a taxonomy, not a box beside it, once it holds more than a teaser's
// card does (a related story's headline and summary). Read under the
// cue, its short paragraphs and lines would be navigation. On wcxb-dev
// and wide-dev, 40 of the 41 such elements of minStoryWords or more are
// the gold's, none of the 26 shorter ones.

// minStoryWords is the least words of a story's <article> element.
const minStoryWords = 250

// stories marks, per node index of p's tree (read without cues), the
// <article> elements under a weak cue holding minStoryWords words or more.
func (p *page) stories() []bool {
	out := make([]bool, len(p.t.Nodes))
	var words []int
	for i, n := range p.t.Nodes {
		if n.Kind != treediff.Element || n.Label != "article" || cueOf(n) != weakCue {
			continue
		}
		if words == nil {
			words = p.wordPrefix()
		}
		out[i] = words[p.end[i]]-words[p.first[i]] >= minStoryWords
	}
	return out
}

// isStory reports whether n is an <article> element under a weak cue that
// holds a story (stories).
func (m ProseMap) isStory(n *treediff.Node) bool {
	if m.tree == nil || n.Index >= len(m.stories) || m.tree.Nodes[n.Index] != n {
		return false
	}
	return m.stories[n.Index]
}
