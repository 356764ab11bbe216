package blocks

import (
	"slices"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Kind says what made a block coherent.
type Kind uint8

// Block kinds.
const (
	Prose      Kind = iota // energy maximum
	Navigation             // one link of a link-only subtree
	Teaser                 // one link and its text inside a link structure
)

func (k Kind) String() string {
	switch k {
	case Prose:
		return "prose"
	case Navigation:
		return "navigation"
	case Teaser:
		return "teaser"
	}
	return "kind?"
}

// Block is one coherent text.
type Block struct {
	Node *treediff.Node // element or text node whose subtree is the block
	// Except lists subtrees of Node that are blocks of their own (a
	// figure inside the story), whose text the block leaves out.
	Except []*treediff.Node
	Text   string // the text: a line per block-level element
	Kind   Kind
	Energy float64
	Words  int
}

// Contains reports whether node n belongs to the block.
func (b *Block) Contains(n *treediff.Node) bool {
	if !b.Node.Contains(n) {
		return false
	}
	for _, e := range b.Except {
		if e.Contains(n) {
			return false
		}
	}
	return true
}

// Options tune Split. The zero value uses the defaults.
type Options struct {
	// Beta fixes the dissipation factor in (0, 1]; 0 derives it from the
	// tree's height: k/(k+HeightScale).
	Beta float64
	// HeightScale is c in β = k/(k+c) (default 4).
	HeightScale float64
	// LinkDensity is the share of words in links above which a subtree with
	// several links is a link structure (default 0.2).
	LinkDensity float64
}

// skipped elements hold no reader-visible text.
var skipped = map[string]bool{
	"script": true, "style": true, "noscript": true, "template": true, "head": true,
	"svg": true, "math": true, "iframe": true, "select": true, "object": true, "canvas": true,
}

// barriers hold texts that are not part of the story around them.
var barriers = map[string]bool{
	"figure": true, "figcaption": true, "aside": true, "nav": true, "header": true,
	"footer": true, "form": true, "dialog": true, "menu": true,
}

type stat struct {
	energy    float64
	words     int // words in the subtree
	linkWords int // words inside <a>
	links     int // <a> elements with words
}

type splitter struct {
	opt   Options
	beta  float64
	stats map[*treediff.Node]*stat
	out   []Block
}

// Split returns the coherent blocks under root, in document order.
func Split(root *treediff.Node, opt Options) []Block {
	if root == nil {
		return nil
	}
	if opt.HeightScale <= 0 {
		opt.HeightScale = 4
	}
	if opt.LinkDensity <= 0 {
		opt.LinkDensity = 0.2
	}
	s := &splitter{opt: opt, stats: map[*treediff.Node]*stat{}}
	s.beta = opt.Beta
	if s.beta <= 0 || s.beta > 1 {
		k := float64(height(root))
		s.beta = k / (k + opt.HeightScale)
	}
	s.compute(root, false)
	s.visit(root, false)
	return s.out
}

// height is the number of edges of the longest path down from n
// (iterative: pages can be deep).
func height(n *treediff.Node) int {
	h := 0
	n.Walk(func(c *treediff.Node) bool {
		if d := c.Depth - n.Depth; d > h {
			h = d
		}
		return true
	})
	return h
}

// textStat is the statistics of a text or token node: its words, each of
// energy 1, link words when inside a link.
func textStat(n *treediff.Node, inLink bool) *stat {
	st := &stat{words: len(treediff.Words(n.Label))}
	st.energy = float64(st.words)
	if inLink {
		st.linkWords = st.words
	}
	return st
}

// compute fills the statistics bottom-up. Recursion depth is bounded by the
// parser's MaxDepth.
func (s *splitter) compute(n *treediff.Node, inLink bool) *stat {
	if n.Kind == treediff.Text || n.Kind == treediff.Token {
		st := textStat(n, inLink)
		s.stats[n] = st
		return st
	}
	st := &stat{}
	s.stats[n] = st
	if skipped[n.Label] {
		return st
	}
	isLink := n.Label == "a" && !inLink
	for _, c := range n.Children {
		cs := s.compute(c, inLink || isLink)
		st.energy += cs.energy
		st.words += cs.words
		st.linkWords += cs.linkWords
		st.links += cs.links
	}
	if treediff.IsBlock(n.Label) {
		// Only block-level nesting dissipates: inline markup (a link, an
		// emphasis) inside a sentence does not make its text less one.
		st.energy *= s.beta
	}
	if isLink && st.words > 0 {
		st.links++
	}
	return st
}

func (s *splitter) emit(n *treediff.Node, k Kind, except ...*treediff.Node) {
	st := s.stats[n]
	b := Block{Node: n, Except: except, Kind: k, Energy: st.energy, Words: st.words}
	for _, e := range except {
		b.Words -= s.stats[e].words
	}
	b.Text = text(n, except)
	s.out = append(s.out, b)
}

// visit decides n's coherence; inLinks says n's parent is a link structure.
func (s *splitter) visit(n *treediff.Node, inLinks bool) {
	st := s.stats[n]
	if st == nil || st.words == 0 {
		return
	}
	if n.Kind != treediff.Element {
		s.emit(n, Prose)
		return
	}
	if s.visitLinked(n, st, inLinks) {
		return
	}
	linkStructure := s.isLinkStructure(st)
	if linkStructure || s.mixesNavigation(n) {
		for _, c := range n.Children {
			s.visit(c, linkStructure)
		}
		return
	}
	if inlineOnly(n) {
		s.emit(n, Prose)
		return
	}
	s.visitSectioned(n, st)
}

// isLinkStructure reports whether an element of statistics st is a
// structure of links: two links or more, making Options.LinkDensity of its
// words.
func (s *splitter) isLinkStructure(st *stat) bool {
	return st.links >= 2 && float64(st.linkWords) >= s.opt.LinkDensity*float64(st.words)
}

// visitLinked emits n where its links decide what it is (a link, a list of
// links, a teaser inside a link structure) and reports whether they did.
func (s *splitter) visitLinked(n *treediff.Node, st *stat, inLinks bool) bool {
	nonLink := st.words - st.linkWords
	switch {
	case n.Label == "a":
		k := Prose
		if inLinks {
			k = Navigation
		}
		s.emit(n, k)
	case st.links >= 2 && nonLink == 0:
		// Navigation: every link is its own text.
		s.eachLink(n)
	case inLinks && st.links == 1 && nonLink > 0:
		s.emit(n, Teaser)
	default:
		return false
	}
	return true
}

// visitSectioned emits n as one block, its sectioning children (figure,
// aside…) as blocks of their own, when its other children's energy
// together (weighed by beta for a block element) beats the strongest
// child's; otherwise each child is visited.
func (s *splitter) visitSectioned(n *treediff.Node, st *stat) {
	bars, energy, maxChild := s.childEnergy(n, st)
	if treediff.IsBlock(n.Label) {
		energy *= s.beta
	}
	if energy >= maxChild && energy > 0 {
		for _, c := range bars {
			s.visit(c, false)
		}
		s.emitOrdered(n, bars)
		return
	}
	for _, c := range n.Children {
		s.visit(c, false)
	}
}

// childEnergy returns n's sectioning children with text (the rest of n is
// judged without them), and the total and largest energy of its other
// children with text.
func (s *splitter) childEnergy(n *treediff.Node, st *stat) (bars []*treediff.Node, energy, maxChild float64) {
	for _, c := range n.Children {
		cs := s.stats[c]
		if cs == nil || cs.words == 0 {
			continue
		}
		if c.Kind == treediff.Element && barriers[c.Label] && cs.words < st.words {
			bars = append(bars, c)
			continue
		}
		energy += cs.energy
		maxChild = max(maxChild, cs.energy)
	}
	return bars, energy, maxChild
}

// emitOrdered emits n (without the subtrees bars, already emitted) and
// puts it before them in the output.
func (s *splitter) emitOrdered(n *treediff.Node, bars []*treediff.Node) {
	if len(bars) == 0 {
		s.emit(n, Prose)
		return
	}
	at := len(s.out)
	for at > 0 && n.Contains(s.out[at-1].Node) {
		at--
	}
	s.emit(n, Prose, bars...)
	b := s.out[len(s.out)-1]
	copy(s.out[at+1:], s.out[at:len(s.out)-1])
	s.out[at] = b
}

// inlineOnly reports whether n holds text and inline elements only: its
// text flows as one.
func inlineOnly(n *treediff.Node) bool {
	ok := true
	n.Walk(func(c *treediff.Node) bool {
		if c != n && c.Kind == treediff.Element && treediff.IsBlock(c.Label) {
			ok = false
		}
		return ok && !skipped[c.Label]
	})
	return ok
}

// eachLink emits every outermost link under n as a navigation block.
func (s *splitter) eachLink(n *treediff.Node) {
	for _, c := range n.Children {
		st := s.stats[c]
		if st == nil || st.words == 0 {
			continue
		}
		if c.Kind == treediff.Element && c.Label == "a" {
			s.emit(c, Navigation)
			continue
		}
		s.eachLink(c)
	}
}

// mixesNavigation reports whether n has both a navigation child (links
// only) and a child with text outside links: links above a large text
// bound it.
func (s *splitter) mixesNavigation(n *treediff.Node) bool {
	nav, text := false, false
	for _, c := range n.Children {
		st := s.stats[c]
		if st == nil || st.words == 0 {
			continue
		}
		if st.linkWords == st.words && st.links >= 2 {
			nav = true
		} else if st.words > st.linkWords {
			text = true
		}
	}
	return nav && text
}

// text renders the text of n without the subtrees except and without
// skipped elements: a line per block-level element, white space collapsed.
func text(n *treediff.Node, except []*treediff.Node) string {
	var b strings.Builder
	var walk func(c *treediff.Node)
	walk = func(c *treediff.Node) {
		if slices.Contains(except, c) || writeLeafText(&b, c) {
			return
		}
		block := treediff.IsBlock(c.Label)
		if block {
			b.WriteByte('\n')
		}
		for _, k := range c.Children {
			walk(k)
		}
		if block {
			b.WriteByte('\n')
		}
	}
	walk(n)
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// writeLeafText writes the text of c when nothing below it counts (a text
// or token, a <br>, a skipped element) and reports whether it did.
func writeLeafText(b *strings.Builder, c *treediff.Node) bool {
	switch {
	case c.Kind == treediff.Text:
		b.WriteString(c.Label)
	case c.Kind == treediff.Token:
		b.WriteString(c.Label)
		b.WriteByte(' ')
	case skipped[c.Label]:
	case c.Label == "br":
		b.WriteByte('\n')
	default:
		return false
	}
	return true
}
