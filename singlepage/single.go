package singlepage

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/treediff"
)

// Options tunes Extract. Zero fields take the defaults.
type Options struct {
	// GoodWords is the number of words from which a block of text with few
	// links counts as article text on its own (default 12).
	GoodWords int
	// MaxLinkDensity is the share of a block's words inside links above which
	// the block is navigation (default 0.35).
	MaxLinkDensity float64
	// Source is the page's source bytes, optional: metadata the tree does not
	// keep (JSON-LD scripts) is read from it, and the second opinion reads
	// the page from it.
	Source []byte
	// SecondOpinionBelow is, when a second extractor (go-trafilatura,
	// reading Source) and the block model find bodies that share little,
	// the confidence under which the second's is taken (default
	// DefaultSecondOpinionBelow; negative: the second extractor is never
	// run). Where one body holds the other, the evidence decides (fuse).
	SecondOpinionBelow float64

	// ctx, set by ExtractContext, stops the work when done.
	ctx context.Context
	// reveal shows the elements hidden by the hidden attribute alone
	// (withRevealed).
	reveal bool
}

// checkEvery is how many steps of a loop over a page's nodes or blocks run
// between two looks at the context.
const checkEvery = 4096

// stopped reports, at every checkEvery-th step i, whether the context of
// the extraction is done: loops over a page's nodes or blocks then end
// early and ExtractContext returns the context's error.
func (o Options) stopped(i int) bool {
	return o.ctx != nil && i%checkEvery == 0 && o.ctx.Err() != nil
}

// Default values of Options.
const (
	DefaultGoodWords      = 12
	DefaultMaxLinkDensity = 0.35
)

// WithDefaults returns o with its zero fields set to the defaults.
func (o Options) WithDefaults() Options {
	if o.GoodWords <= 0 {
		o.GoodWords = DefaultGoodWords
	}
	if o.MaxLinkDensity <= 0 {
		o.MaxLinkDensity = DefaultMaxLinkDensity
	}
	if o.SecondOpinionBelow == 0 {
		o.SecondOpinionBelow = DefaultSecondOpinionBelow
	}
	return o
}

// ErrNoContent is returned when a page holds no text to extract.
var ErrNoContent = errors.New("no content found")

// Extract locates the article of a page from the page alone, for
// outliers, singletons and sites with one known page:
//
//   - the page is cut into blocks of text (paragraphs: the inline text
//     between block boundaries or <br><br>), skipping hidden and non-text
//     elements;
//   - each block is judged: navigation (mostly links, a teaser under a
//     linked headline, script or markup shown as text, a byline, dateline,
//     legal notice or "ADVERTISEMENT" label, a photo caption, a form box,
//     or under a boilerplate tag, role, class or id such as nav, comments,
//     share, footer), article text (long with few links), or short; a short
//     block between article blocks is article text (as in jusText);
//   - the element whose blocks weigh most (article words count for,
//     navigation words against) holds the article; within it, the run of
//     blocks with the largest weight is the article (a maximum subarray,
//     as in Body Text Extraction), extended over neighbouring blocks while
//     that pays, so that a lead paragraph in the headline's box is kept;
//   - the body is that run's article blocks, short sentences and section
//     headings, each once, paragraphs separated by blank lines;
//   - the title is the element or line that best matches the page's stated
//     title (og:title, headline, <title>), preferring headings, else the
//     first <h1>, else the line above the article.
//
// Node and Selector designate the element chosen in the third step;
// RawConfidence is the share of the page's article-like words the body
// holds, Confidence the word F1 expected of the body (see Evidence).
// A page made of many similar units (a listing's items, a thread's posts)
// gives all of them when they outweigh that body (withUnits). The body of
// go-trafilatura, run on the same page, is taken instead when the evidence
// favours it (Method MethodSecondOpinion; see withSecondOpinion and fuse).
// A page whose body the block model barely finds and that gives its text
// in <noscript> (built by script) is read from there (withNoscript), or
// with its boxes hidden by the hidden attribute shown (streamed by script:
// withRevealed).
// Date and Author come from ExtractMeta. Pages without text give
// ErrNoContent. The work is linear in the size of the tree, bounded by
// its depth for the title search.
func Extract(t *treediff.Tree, opt Options) (Result, error) {
	return ExtractContext(context.Background(), t, opt)
}

// ExtractContext is Extract stopped when ctx is done: it then
// returns ctx's error (wrapped) within a few thousand steps of its loops.
// Every step is linear in the number of the page's nodes and blocks.
func ExtractContext(ctx context.Context, t *treediff.Tree, opt Options) (Result, error) {
	opt = opt.WithDefaults()
	opt.ctx = ctx
	r, err := BlockModel(t, opt, nil)
	if err == nil || errors.Is(err, ErrNoContent) {
		if cerr := ctx.Err(); cerr != nil {
			return Result{}, fmt.Errorf("extract single %s: %w", t.Name, cerr)
		}
	}
	if r, err = Alone(t, r, err, opt); err == nil {
		r = Calibrate(r, t, opt.Source, opt.SecondOpinionBelow >= 0)
	}
	return r, err
}

// Alone is the single-page method on page t from the block model's result
// r (err its error, as BlockModel returned them), before calibration: with
// its candidates (WithCandidates), then, when it barely finds a body, read
// from <noscript> (withNoscript) or with hidden boxes shown
// (withRevealed); a forum thread's shell with no body at all, from its
// description (withDescription). The site method reads a page alone with it.
func Alone(t *treediff.Tree, r Result, err error, opt Options) (Result, error) {
	r, err = WithCandidates(t, r, err, opt)
	return afterChoice(t, r, err, opt)
}

// WithCandidates returns the block model's result r on page t (err its
// error, as BlockModel returned them), with the body of the page's units when they outweigh it (withUnits), then
// with the second candidate's body when the evidence favours it
// (withSecondOpinion).
func WithCandidates(t *treediff.Tree, r Result, err error, opt Options) (Result, error) {
	if err != nil && !errors.Is(err, ErrNoContent) {
		return r, err
	}
	if t != nil && t.Root != nil {
		p := newPage(t, opt)
		if b := baseOf(r, p); b.Body != r.Body {
			r, err = b, nil
		}
		s := withSecondOpinion(r, t, p, opt.Source, opt.SecondOpinionBelow)
		if s.Method == MethodSecondOpinion || s.Body != r.Body {
			// Another extractor's body chosen, or the base joined
			// with the page's units (Choice.withUnits).
			return s, nil
		}
		// Kept: what the other extractors were asked is evidence the
		// calibration reads, and must not ask again.
		r.secondAsked, r.agreement = s.secondAsked, s.agreement
		r.chooser, r.chooserKnown = s.chooser, s.chooserKnown
	}
	return r, err
}

// baseOf returns r, the block model's result on page p, with the page's
// units when they outweigh its body (withUnits), then with the page's main
// region when the body is a small part of it (withMain): the base the
// other candidates are weighed against.
func baseOf(r Result, p *page) Result {
	if u := withUnits(r, p); u.Body != r.Body {
		r = u
	}
	if m := withMain(r, p); m.Body != r.Body {
		r = m
	}
	return r
}

// BlockModel is Extract without the second opinion and without
// calibration: Gleaner's block model alone, which also judges the short
// lines of the other methods. opt has its defaults (WithDefaults); prose,
// when not nil, is t's prose map already read (heuristics.Extract reads it
// once for this and the pair diff).
func BlockModel(t *treediff.Tree, opt Options, prose *ProseMap) (Result, error) {
	if t == nil || t.Root == nil {
		return Result{}, errors.New("extract single: nil tree")
	}
	if prose == nil {
		m := NewProseMap(t, opt)
		prose = &m
	}
	p := buildPage(t, opt, prose)
	res := Result{Method: MethodSingle}
	meta := ExtractMeta(t, opt.Source)
	res.Date, res.Author = meta.Date, meta.Author

	best := p.mainElement()
	bodyStart := len(p.blocks)
	if best != nil {
		bodyStart, _ = p.span(best)
	}
	title := p.title(meta.Title, bodyStart)
	res.Title = title
	if best == nil {
		if title == "" {
			return res, fmt.Errorf("extract single %s: %w", t.Name, ErrNoContent)
		}
		return res, nil
	}
	res.Node = best
	res.Selector = selector.Of(best)
	paras, conf, lines := p.bodyOf(best, title)
	res.Body, res.lineWords = strings.Join(paras, "\n\n"), lines
	res.Confidence = conf
	if res.Body == "" && res.Title == "" {
		return res, fmt.Errorf("extract single %s: %w", t.Name, ErrNoContent)
	}
	return res, nil
}

// blockClass is how a block of text is judged.
type blockClass uint8

const (
	classShort blockClass = iota // too short to judge alone
	classGood                    // article-like text
	classBad                     // navigation, boilerplate
)

// block is a paragraph: the inline text between two block boundaries.
type block struct {
	text      string   // whitespace-normalized
	lines     []string // text cut at <br>
	words     int
	linkWords int
	links     int // links with words in the block, and wordless ones before it
	// wordLinks counts the links with words in the block only: a card's
	// picture linking to its item is not one of its title's links.
	wordLinks int
	container *treediff.Node // nearest block-level element
	heading   int            // 1..6 inside <hN>, else 0
	cue       bool           // under a boilerplate class/id/role
	weak      bool           // under a weak boilerplate cue (see cueOf)
	code      bool           // script or markup shown as text
	pre       bool           // inside <pre>: text the page shows as set (code samples)
	inLink    bool           // all words inside links
	leadLink  int            // words of the link the block starts with
	started   bool           // a word has been seen (for leadLink)
	class     blockClass
	// weakLine marks a sentence under a weak cue judged by its
	// neighbours: article text amid article text, else navigation.
	weakLine bool
	// table and cell are the innermost <table> and <td> or <th>
	// holding the block, nil for none; dataCell marks a short cell of a
	// data table (markDataTables).
	table, cell *treediff.Node
	dataCell    bool
}

func (b *block) linkDensity() float64 {
	if b.words == 0 {
		return 0
	}
	return float64(b.linkWords) / float64(b.words)
}

// page holds the blocks of one page and per-element aggregates.
type page struct {
	t      *treediff.Tree
	opt    Options
	blocks []*block
	// first and end delimit, per element index, the blocks under it:
	// blocks[first[i]:end[i]].
	first, end []int
	totalWords int
	// cues weighs class/id/role cues against the prose elements hold; nil
	// leaves every cue out (the first reading, see NewProseMap).
	cues *ProseMap
	// threadCues is nil unless the page is read as a forum thread; then,
	// per node index, whether the node is under a strong cue other than
	// the region of the thread's posts (see unitContent).
	threadCues []bool
	// items counts the items of each list (mixedLists).
	items map[*treediff.Node]int
	// cards counts, per parent and element name, the children that are
	// cards (sameCards), once per parent.
	cards map[cardRow]int
}

// skipTags never hold article text.
var skipTags = map[string]bool{
	"head": true, "select": true, "option": true, "button": true, "textarea": true,
	"input": true, "iframe": true, "object": true, "embed": true, "svg": true,
	"canvas": true, "map": true, "applet": true, "datalist": true, "audio": true, "video": true,
}

// boilerTags hold navigation or side content by definition.
var boilerTags = map[string]bool{"nav": true, "aside": true, "footer": true, "menu": true}

// newPage reads t's blocks, with the cues of the elements that do not hold
// most of the page's prose.
func newPage(t *treediff.Tree, opt Options) *page {
	m := NewProseMap(t, opt)
	return buildPage(t, opt, &m)
}

// cueOf is n's cue unless the page reads no cues, n holds most of its
// prose or is a story's <article> under a weak cue.
func (p *page) cueOf(n *treediff.Node) cueStrength {
	if p.cues == nil || p.cues.HoldsProse(n) || p.cues.isStory(n) {
		return noCue
	}
	return cueOf(n)
}

// buildPage cuts t into blocks and judges them; cues nil reads no cue.
func buildPage(t *treediff.Tree, opt Options, cues *ProseMap) *page {
	p := &page{t: t, opt: opt, first: make([]int, len(t.Nodes)), end: make([]int, len(t.Nodes)), cues: cues}
	c := &blockCutter{p: p}
	c.walk(t.Root)
	c.flush()
	p.judge()
	p.markDataTables()
	p.smooth()
	return p
}

// blockCutter is one walk of a page's tree cutting its text into blocks:
// the block being read and what the walk is inside of.
type blockCutter struct {
	p   *page
	cur *block
	sb  strings.Builder
	// links counts the links opened and not yet counted in a block;
	// wordLinks those of them still open or closed on a word.
	links, wordLinks                         int
	lastBR                                   bool
	linkDepth, cueDepth, weakDepth, preDepth int
	// codeDepth counts the <pre> and <code> elements the walk is in.
	codeDepth  int
	heading    []int
	containers []*treediff.Node
	tables     []*treediff.Node
	cells      []*treediff.Node
}

// walkFrame is a node to enter, or to leave (exit) once its children are
// read.
type walkFrame struct {
	n    *treediff.Node
	exit bool
}

// walk reads the tree under root in document order, without recursion.
func (c *blockCutter) walk(root *treediff.Node) {
	stack := []walkFrame{{root, false}}
	for step := 1; len(stack) > 0; step++ {
		if c.p.opt.stopped(step) {
			break
		}
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		switch {
		case f.exit:
			c.exit(n)
		case n.Kind == treediff.Text || n.Kind == treediff.Token:
			c.text(n)
		case c.enter(n):
			stack = append(stack, walkFrame{n, true})
			for i := len(n.Children) - 1; i >= 0; i-- {
				stack = append(stack, walkFrame{n.Children[i], false})
			}
		}
	}
}

// flush ends the block being read, kept when it has words.
func (c *blockCutter) flush() {
	if cur := c.cur; cur != nil && cur.words > 0 {
		cur.lines = splitLines(c.sb.String())
		cur.text = strings.Join(cur.lines, " ")
		cur.inLink = cur.linkWords == cur.words
		c.p.blocks = append(c.p.blocks, cur)
		c.p.totalWords += cur.words
	}
	c.cur = nil
	c.sb.Reset()
}

// text adds a text node's words to the block being read, opening one.
func (c *blockCutter) text(n *treediff.Node) {
	ws := treediff.Words(n.Label)
	if strings.TrimSpace(n.Label) != "" {
		c.lastBR = false
	}
	if len(ws) == 0 {
		c.sb.WriteString(n.Label)
		return
	}
	if c.cur == nil {
		c.cur = c.newBlock(n)
	}
	cur := c.cur
	cur.words += len(ws)
	cur.links += c.links
	cur.wordLinks += c.wordLinks
	c.links, c.wordLinks = 0, 0
	if c.linkDepth > 0 {
		cur.linkWords += len(ws)
		if !cur.started || cur.leadLink == cur.words-len(ws) && cur.leadLink > 0 {
			cur.leadLink += len(ws)
		}
	}
	cur.started = true
	c.sb.WriteString(n.Label)
}

// newBlock opens a block at text node n, marked with what the walk is in.
func (c *blockCutter) newBlock(n *treediff.Node) *block {
	b := &block{cue: c.cueDepth > 0, weak: c.weakDepth > 0, pre: c.preDepth > 0, container: n.Parent}
	if len(c.containers) > 0 {
		b.container = c.containers[len(c.containers)-1]
	}
	if len(c.heading) > 0 {
		b.heading = c.heading[len(c.heading)-1]
	}
	if len(c.tables) > 0 {
		b.table = c.tables[len(c.tables)-1]
	}
	if len(c.cells) > 0 {
		b.cell = c.cells[len(c.cells)-1]
	}
	return b
}

// enter reads an element (or other non-text node) on the way down and
// reports whether its children are to be read.
func (c *blockCutter) enter(n *treediff.Node) bool {
	p := c.p
	p.first[n.Index] = len(p.blocks)
	if skipTags[n.Label] || p.opt.hides(n) {
		p.end[n.Index] = len(p.blocks)
		return false
	}
	if n.Label == "br" {
		c.lineBreak()
		p.end[n.Index] = len(p.blocks)
		return false
	}
	if n.Label == "img" || n.Label == "hr" || c.codeDepth == 0 && gapBefore(p.t, n) {
		c.sb.WriteByte(' ')
	}
	if treediff.IsBlock(n.Label) {
		c.flush()
		c.lastBR = false
		c.containers = append(c.containers, n)
	} else if c.cur != nil && c.cur.heading != headingNow(c.heading) {
		c.flush()
	}
	c.open(n)
	return true
}

// lineBreak reads a <br>: a line break, or the end of the block after
// another.
func (c *blockCutter) lineBreak() {
	if c.lastBR {
		c.flush()
	} else {
		c.sb.WriteByte('\n')
	}
	c.lastBR = true
}

// open counts the link, <pre>, heading and cue an element opens.
func (c *blockCutter) open(n *treediff.Node) {
	switch {
	case n.Label == "a":
		c.linkDepth++
		if c.linkDepth == 1 {
			c.links++ // counted for the block its first word opens or extends
			c.wordLinks++
		}
	case n.Label == "pre":
		c.preDepth++
	case n.Label == "table":
		c.tables = append(c.tables, n)
	case n.Label == "td" || n.Label == "th":
		c.cells = append(c.cells, n)
	}
	if isCode(n) {
		c.codeDepth++
	}
	if h := headingLevel(n.Label); h > 0 {
		c.heading = append(c.heading, h)
	}
	c.countCue(n, 1)
}

// isCode reports an element that sets code: a code sample's syntax
// highlighting classes its tokens ("token comment", "hljs-meta"), and
// those name kinds of code, not parts of the page.
func isCode(n *treediff.Node) bool { return n.Label == "pre" || n.Label == "code" }

// exit closes what element n opened, on the way up.
func (c *blockCutter) exit(n *treediff.Node) {
	c.countCue(n, -1)
	if isCode(n) {
		c.codeDepth--
	}
	switch {
	case n.Label == "a":
		c.linkDepth--
		if c.linkDepth == 0 {
			c.wordLinks = 0 // closed without a word (an image's link)
		}
	case headingLevel(n.Label) > 0:
		c.heading = c.heading[:len(c.heading)-1]
	case n.Label == "pre":
		c.preDepth--
	case n.Label == "table":
		c.tables = c.tables[:len(c.tables)-1]
	case n.Label == "td" || n.Label == "th":
		c.cells = c.cells[:len(c.cells)-1]
	}
	if treediff.IsBlock(n.Label) {
		c.flush()
		c.containers = c.containers[:len(c.containers)-1]
	}
	c.p.end[n.Index] = len(c.p.blocks)
}

// countCue adds d to the depth of n's cue, if any. Inside code (and on
// the code element itself) classes are the highlighting's (isCode): no
// cue. It runs once the code element is counted on the way down and
// before it is on the way up, so that both ways agree.
func (c *blockCutter) countCue(n *treediff.Node, d int) {
	if c.codeDepth > 0 {
		return
	}
	switch c.p.cueOf(n) {
	case strongCue:
		c.cueDepth += d
	case weakCue:
		c.weakDepth += d
	}
}

// judge classifies every block, then leaves out captions, form boxes and
// teasers' summaries.
func (p *page) judge() {
	imgs, inputs := p.images(), p.inputs()
	words, _ := p.elementWords(nil)
	for i, b := range p.blocks {
		if p.opt.stopped(i + 1) {
			break
		}
		b.class = p.classify(b)
		if b.class != classBad && (p.isCaption(b, imgs) || inFormBox(b, inputs, words, p.totalWords)) {
			b.class = classBad
		}
		if p.teaserSummary(i, b) {
			b.class = classBad
		}
	}
	p.mixedLists()
	p.announcedLists()
	p.teaserRows()
}

// teaserRows leaves out the summaries of a row of teasers under a weak
// cue (a "related" or "more stories" box): a linked headline, at most a
// line between (a byline), then a summary, each in a small box, at
// least minTeasers boxes side by side. Their summaries are long enough
// to read as article text alone; the row says what they are.
func (p *page) teaserRows() {
	boxes := map[*treediff.Node][]int{} // parent of the boxes -> summaries
	for i, b := range p.blocks {
		if b.class != classGood || !b.weak {
			continue
		}
		if box := p.teaserBox(i); box != nil && box.Parent != nil {
			boxes[box.Parent] = append(boxes[box.Parent], i)
		}
	}
	for _, row := range boxes {
		if len(row) < minTeasers {
			continue
		}
		for _, i := range row {
			p.blocks[i].class = classBad
		}
	}
}

// minTeasers is the least number of teasers side by side in a row.
const minTeasers = 3

// maxTeaserBlocks bounds the blocks of a teaser's box: a section label,
// the headline, a byline, a date, the summary, "Read more".
const maxTeaserBlocks = 6

// teaserBox returns the small box (at most maxTeaserBlocks) holding block i
// and the linked headline one or two blocks above it, taken at its
// outermost element, nil when there is none.
func (p *page) teaserBox(i int) *treediff.Node {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		h := p.blocks[j]
		if !h.inLink || h.words < 3 || h.cue {
			continue
		}
		a := commonAncestor(h.container, p.blocks[i].container)
		if a == nil || p.end[a.Index]-p.first[a.Index] > maxTeaserBlocks {
			return nil
		}
		// The outermost element of the same blocks (a slide around a
		// card) is the box its row holds.
		for a.Parent != nil && p.first[a.Parent.Index] == p.first[a.Index] && p.end[a.Parent.Index] == p.end[a.Index] {
			a = a.Parent
		}
		return a
	}
	return nil
}

// mixedLists reads the linked items of a list that also holds items of
// text (a checklist naming some of its items by links, a list of steps)
// as short lines, judged by their neighbours, not as navigation: a menu
// or a list of related stories is links throughout. A list counts as
// mixed from minListItems items, a quarter of them not navigation, and
// only among article text (amidText).
func (p *page) mixedLists() {
	plain := p.countItems()
	good := make([]int, len(p.blocks)+1)
	for i, b := range p.blocks {
		good[i+1] = good[i]
		if b.class == classGood {
			good[i+1]++
		}
	}
	for _, b := range p.blocks {
		l := listOf(b)
		n := p.items[l]
		if l == nil || n < minListItems || 4*plain[l] < n || !p.linkedItem(b) || !p.amidText(l, good) {
			continue
		}
		b.class = classShort
	}
}

// countItems sets p.items, the items of each list, and returns how many
// of them are not judged navigation.
func (p *page) countItems() map[*treediff.Node]int {
	plain := map[*treediff.Node]int{}
	p.items = map[*treediff.Node]int{}
	for _, b := range p.blocks {
		if l := listOf(b); l != nil {
			p.items[l]++
			if b.class != classBad {
				plain[l]++
			}
		}
	}
	return plain
}

// amidText reports whether the element around list l holds article text
// outside it (good counts the article-like blocks before each block): a
// checklist stands among paragraphs, a menu's columns among other menus.
func (p *page) amidText(l *treediff.Node, good []int) bool {
	a := l.Parent
	if a == nil {
		return false
	}
	around := good[p.end[a.Index]] - good[p.first[a.Index]]
	return around > good[p.end[l.Index]]-good[p.first[l.Index]]
}

// minListItems is the least number of items of a mixed list (mixedLists).
const minListItems = 4

// listOf returns the list (<ul>, <ol>) whose item holds block b, nil when
// none does. The item's text may be set in a paragraph of its own
// (<li><p>).
func listOf(b *block) *treediff.Node {
	c := b.container
	if c != nil && c.Label == "p" && c.Parent != nil && c.Parent.Label == "li" {
		c = c.Parent
	}
	if c == nil || c.Label != "li" || c.Parent == nil {
		return nil
	}
	if l := c.Parent.Label; l == "ul" || l == "ol" {
		return c.Parent
	}
	return nil
}

// linkedItem reports a block judged navigation by its links alone, under
// no cue.
func (p *page) linkedItem(b *block) bool {
	return b.class == classBad && b.linkWords > 0 && !b.cue && !b.weak && !b.code &&
		!isBoilerLine(b) && !isLegal(b) && (b.linkDensity() > p.opt.MaxLinkDensity || ledByLink(b))
}

// teaserSummary reports a short article-like block i right under a linked
// headline, the two alone in a small box: a teaser's summary.
func (p *page) teaserSummary(i int, b *block) bool {
	if b.class != classGood || i == 0 || b.words >= 2*p.opt.GoodWords {
		return false
	}
	prev := p.blocks[i-1]
	if !prev.inLink || prev.words < 3 {
		return false
	}
	a := commonAncestor(prev.container, b.container)
	return a != nil && p.end[a.Index]-p.first[a.Index] <= 3
}

// commonAncestor returns the deepest node holding both a and b (nil when
// either is nil).
func commonAncestor(a, b *treediff.Node) *treediff.Node {
	if a == nil || b == nil {
		return nil
	}
	for a.Depth > b.Depth {
		a = a.Parent
	}
	for b.Depth > a.Depth {
		b = b.Parent
	}
	for a != b {
		a, b = a.Parent, b.Parent
	}
	return a
}

// images marks, per node index, the elements holding an <img>.
func (p *page) images() []bool {
	has := make([]bool, len(p.t.Nodes))
	for i := len(p.t.Nodes) - 1; i >= 0; i-- {
		n := p.t.Nodes[i]
		if n.Label == "img" && n.Kind == treediff.Element {
			has[i] = true
		}
		if has[i] && n.Parent != nil {
			has[n.Parent.Index] = true
		}
	}
	return has
}

// inputs marks, per node index, the elements holding a field a visitor
// types into (text inputs, text areas, selects).
func (p *page) inputs() []bool {
	has := make([]bool, len(p.t.Nodes))
	for i := len(p.t.Nodes) - 1; i >= 0; i-- {
		n := p.t.Nodes[i]
		if n.Kind == treediff.Element {
			switch n.Label {
			case "textarea", "select":
				has[i] = true
			case "input":
				typ, _ := n.Attr("type")
				switch strings.ToLower(strings.TrimSpace(typ)) {
				case "", "text", "email", "search", "tel", "number", "password":
					has[i] = true
				}
			}
		}
		if has[i] && n.Parent != nil {
			has[n.Parent.Index] = true
		}
	}
	return has
}

// formBoxWords bounds the words of a box that is a form widget (sign-up,
// search, "send us your comments") rather than a page wrapped in a form.
const formBoxWords = 150

// inFormBox reports a block inside a small box (at most formBoxWords, and
// under half the page's words) that holds input fields, or inside a form
// with input fields that holds under half the page's words (a page wrapped
// whole in a form is not a widget).
func inFormBox(b *block, inputs []bool, words []int, total int) bool {
	small := true
	for a, up := b.container, 0; a != nil; a, up = a.Parent, up+1 {
		if 2*words[a.Index] >= total {
			return false
		}
		small = small && up < 5 && words[a.Index] <= formBoxWords
		if inputs[a.Index] && (small || a.Label == "form") {
			return true
		}
	}
	return false
}

// isCaption reports a short block in a small box holding an image and at
// most two other short lines: a photo caption or credit, not the
// article's text.
func (p *page) isCaption(b *block, imgs []bool) bool {
	if b.words > 30 || b.container == nil {
		return false
	}
	a := b.container
	for range 3 {
		if a == nil || p.end[a.Index]-p.first[a.Index] > 3 {
			return false
		}
		if imgs[a.Index] {
			// The box holds the image and at most a caption and a
			// credit: short lines only.
			for _, c := range p.blocks[p.first[a.Index]:p.end[a.Index]] {
				if c.words > 30 {
					return false
				}
			}
			return !p.featureCard(b, a, imgs)
		}
		a = a.Parent
	}
	return false
}

func headingNow(h []int) int {
	if len(h) == 0 {
		return 0
	}
	return h[len(h)-1]
}

func headingLevel(tag string) int {
	if len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6' {
		return int(tag[1] - '0')
	}
	return 0
}

func (p *page) classify(b *block) blockClass {
	ld := b.linkDensity()
	switch {
	case b.cue:
		return classBad
	case b.weak && (b.words < 2*p.opt.GoodWords || ld >= 0.1):
		return p.weakClass(b)
	case ld > p.opt.MaxLinkDensity:
		return classBad
	case b.pre && b.words >= 3:
		// A code sample the page sets in <pre> is shown on purpose: a
		// documentation page's content, not script leaking as text.
		return classGood
	case looksLikeCode(b.text):
		b.code = true
		return classBad
	case ledByLink(b):
		return classBad
	case furnitureText(b):
		return classBad
	case b.heading > 0 && b.words < 2*p.opt.GoodWords:
		// A heading; a long one is a standfirst set as a heading.
		return classShort
	case b.words >= p.opt.GoodWords:
		return classGood
	}
	return classShort
}

// weakClass is the class of a short or linked block b under a weak cue:
// navigation, unless it is a full sentence without links (a story's
// column "with-sidebar"), which its neighbours judge (smooth): article
// text amid article text, else navigation.
func (p *page) weakClass(b *block) blockClass {
	if b.linkWords == 0 && b.words >= max(p.opt.GoodWords, minSentenceWords) && endsSentence(b.text) {
		b.weakLine = true
		return classShort
	}
	return classBad
}

// furnitureText reports a byline, dateline, label, legal notice or chant; a
// date in a table's row of cells (dataCell) is the table's data ("5/1/2023"
// in a column of dates), not a dateline.
func furnitureText(b *block) bool {
	if b.words <= 16 && dataCell(b) && mostlyDate(treediff.Words(b.text)) {
		return false
	}
	return isBoilerLine(b) || isLegal(b) || b.words >= minChantWords && chant(b.text)
}

// dataCell reports a block that is a cell of a table's row of several
// cells (a layout table's cell holding a whole page is one of one).
func dataCell(b *block) bool {
	c := b.container
	if c == nil || c.Label != "td" && c.Label != "th" || c.Parent == nil {
		return false
	}
	cells := 0
	for _, x := range c.Parent.Children {
		if x.Label == "td" || x.Label == "th" {
			if cells++; cells == 2 {
				return true // stops at the second: linear on long rows
			}
		}
	}
	return false
}

// smooth reclassifies short blocks by their neighbours, as jusText does: a
// short block between article blocks is article text (a one-line paragraph,
// a subheading), one next to navigation is navigation. The nearest non-short
// class on each side is carried along in one pass each way (rescanning from
// every short block was quadratic on pages of many short blocks).
func (p *page) smooth() {
	next := make([]blockClass, len(p.blocks))
	c := classBad // the page's edges count as navigation
	for i := len(p.blocks) - 1; i >= 0; i-- {
		next[i] = c
		if k := p.blocks[i].class; k != classShort {
			c = k
		}
	}
	prev := classBad
	for i, b := range p.blocks {
		k := b.class
		if k == classShort && prev == classGood && next[i] == classGood {
			b.class = classGood
		} else if b.weakLine && k == classShort {
			b.class = classBad
		}
		if k != classShort {
			// A short block turned article text lies after article text:
			// skipping it leaves prev as it was.
			prev = k
		}
	}
}

// weight is what a block adds to the score of an element holding it.
func (p *page) weight(b *block) float64 {
	if b.code {
		// Script or an ad's markup: its "words" say nothing of how much
		// text the page has around it.
		return -boundaryCost
	}
	switch b.class {
	case classGood:
		return float64(b.words) * (1 - b.linkDensity())
	case classBad:
		return -float64(b.words)
	}
	if b.dataCell {
		// A data table's cell is the article's as much as its
		// paragraphs (markDataTables), if less than a sentence.
		return dataCellWeight * float64(b.words)
	}
	if sentenceLike(b) {
		// A one-sentence paragraph reads as the article's ("Do you know
		// what it means?"): it joins the text beside it.
		return 0.5 * float64(b.words)
	}
	return -0.1 * float64(b.words)
}

// mainElement returns the element whose blocks have the largest total
// weight; ties go to the deeper element.
func (p *page) mainElement() *treediff.Node {
	if len(p.blocks) == 0 {
		return nil
	}
	prefix := make([]float64, len(p.blocks)+1)
	for i, b := range p.blocks {
		prefix[i+1] = prefix[i] + p.weight(b)
	}
	var best *treediff.Node
	bestScore := 0.0
	for _, n := range p.t.Nodes {
		if p.opt.stopped(n.Index + 1) {
			return nil
		}
		if n.Kind != treediff.Element || p.end[n.Index] <= p.first[n.Index] {
			continue
		}
		s := prefix[p.end[n.Index]] - prefix[p.first[n.Index]]
		if best == nil || s > bestScore || (s == bestScore && n.Depth > best.Depth) {
			best, bestScore = n, s
		}
	}
	if bestScore <= 0 {
		return nil
	}
	return best
}

// span returns the blocks of the article under n, blocks[lo:hi]: the run
// of consecutive blocks with the largest total weight (a maximum subarray,
// as in Body Text Extraction), where each run of navigation blocks costs
// boundaryCost words more than its own words. It drops teasers and bylines before or after the
// article that n happens to hold too.
func (p *page) span(n *treediff.Node) (lo, hi int) {
	first, end := p.first[n.Index], p.end[n.Index]
	best, sum := 0.0, 0.0
	lo, hi = first, first
	start := first
	for i := first; i < end; i++ {
		if sum <= 0 {
			sum, start = 0, i
		}
		sum += p.spanWeight(i, i-1, first)
		if sum > best {
			best, lo, hi = sum, start, i+1
		}
	}
	if hi == lo {
		return lo, hi
	}
	// The article may begin or end outside n (a lead paragraph in the
	// headline's box): extend the run over neighbouring blocks while what
	// it gains pays for what it crosses.
	gain := 0.0
	for i := lo - 1; i >= 0 && i >= lo-maxReach; i-- {
		gain += p.spanWeight(i, i+1, -1)
		if gain > 0 {
			lo, gain = i, 0
		}
	}
	gain = 0
	for i := hi; i < len(p.blocks) && i < hi+maxReach; i++ {
		gain += p.spanWeight(i, i-1, -1)
		if gain > 0 {
			hi, gain = i+1, 0
		}
	}
	return lo, hi
}

// maxReach bounds how many blocks outside the chosen element the article's
// run may extend over.
const maxReach = 12

// spanWeight is block i's weight in a run coming from block prev: inside
// the article's element, a box of links (related stories) interrupts the
// text rather than ends it, so its link words cost less, but each run of
// navigation blocks costs boundaryCost. edge is the index where runs start
// anew (-1 for none).
func (p *page) spanWeight(i, prev, edge int) float64 {
	b := p.blocks[i]
	if b.class != classBad || b.code {
		return p.weight(b)
	}
	w := -float64(b.words-b.linkWords) - 0.3*float64(b.linkWords)
	if i == edge || prev < 0 || prev >= len(p.blocks) || p.blocks[prev].class != classBad {
		w -= boundaryCost
	}
	return w
}

// maxEchoWords bounds the blocks left out when repeated (a caption, a
// pull quote).
const maxEchoWords = 40

// boundaryCost is the least weight, in words, a navigation block takes off
// a run of article text: a few short links between the article and a
// teaser are enough to part them.
const boundaryCost = 10

// listItem reports a plain item (a few words, no link) of a list that
// holds article text.
func listItem(b *block, lists map[*treediff.Node]bool) bool {
	return b.class != classBad && b.linkWords == 0 && b.words >= 4 && b.container != nil &&
		b.container.Label == "li" && lists[b.container.Parent]
}

// subheading reports whether block i, before block hi, is a heading of the
// article: a short h2-h6 line followed by article text.
func (p *page) subheading(i, hi int) bool {
	b := p.blocks[i]
	if b.heading < 2 || b.cue || b.inLink || b.words > 25 || b.class == classBad && !b.weak {
		return false
	}
	return i+1 < hi && p.blocks[i+1].class == classGood
}

// bodyOf returns the paragraphs of the article under n, a confidence
// (the share of the page's article-like words that n holds) and the words
// of the lines kept between them (spanLine).
func (p *page) bodyOf(n *treediff.Node, title string) ([]string, float64, int) {
	good := p.goodWords()
	lo, hi := p.span(n)
	if lo > 0 && p.subheading(lo-1, hi) {
		lo-- // the article's first section heading
	}
	lists := p.articleLists(lo, hi)
	var paras []string
	inside, lines := 0, 0
	seen, tables := map[string]bool{}, map[*treediff.Node]uint64{}
	kept := map[int]bool{}
	for i, b := range p.blocks[lo:hi] {
		own := p.keeps(b, lo+i, hi, lists)
		key := echoKey(b, tables)
		if !own && !p.spanLine(b) && !p.announcedItem(b, lo+i, kept, lists) || echoAt(b, key, i, seen, title) {
			continue
		}
		seen[key], kept[lo+i] = true, true
		if b.class == classGood {
			inside += b.words
		}
		if !own {
			lines += b.words
		}
		paras = append(paras, b.text)
	}
	if good == 0 {
		return paras, 0, lines
	}
	return paras, float64(inside) / float64(good), lines
}

// goodWords counts the words of the page's article-like blocks.
func (p *page) goodWords() int {
	good := 0
	for _, b := range p.blocks {
		if b.class == classGood {
			good += b.words
		}
	}
	return good
}

// articleLists are the lists holding article text among blocks lo to hi:
// their other plain items are kept too ("Story highlights", key points).
func (p *page) articleLists(lo, hi int) map[*treediff.Node]bool {
	lists := map[*treediff.Node]bool{}
	for _, b := range p.blocks[lo:hi] {
		if b.class == classGood && b.container != nil && b.container.Label == "li" {
			lists[b.container.Parent] = true
		}
	}
	return lists
}

// keeps reports whether block b, the page's i-th, is the article's own
// text in a body spanning blocks up to hi: article text, a data table's
// cell, a sentence, a section heading or an item of a list holding
// article text.
func (p *page) keeps(b *block, i, hi int, lists map[*treediff.Node]bool) bool {
	return b.class == classGood || b.dataCell || sentenceLike(b) || p.subheading(i, hi) || listItem(b, lists)
}

// spanLine reports a line the article's span holds between its paragraphs
// that the body keeps too: a short line (a heading, a list's items, a
// label) or a linked line (linkedLine). The span ends where navigation
// begins, and what lies between its paragraphs is what the page says
// there: on WCXB's article and service pages, 77 % of the words of the
// short blocks left out of the span's body were the gold's. Their words
// are not the body's prose: whether the body is a fragment of the page's
// units or main region is weighed without them (Result.lineWords).
func (p *page) spanLine(b *block) bool {
	return b.class == classShort || p.linkedLine(b)
}

// maxLinkedHeading bounds the words of a heading made of one link that the
// body keeps (a ranked list's "3. Name"); a longer one is a teaser's
// headline.
const maxLinkedHeading = 12

// linkedLine reports a block of the article's span judged navigation by its
// links alone (their density, or a linked lead before a summary), under no
// cue: an item that names what it links to ("Official website: Name",
// "Product – what it does") or a section heading set as a link. Between
// the article's paragraphs it is the article's, unless it is links only
// and no short heading (a "Read more" line, a menu).
func (p *page) linkedLine(b *block) bool {
	if b.class != classBad || b.cue || b.weak || b.code || isBoilerLine(b) || isLegal(b) {
		return false
	}
	if b.linkDensity() <= p.opt.MaxLinkDensity && !ledByLink(b) {
		return false
	}
	return !b.inLink || b.heading > 0 && b.words < maxLinkedHeading
}

// minAnnounceWords is the least words of a line announcing a list of
// links: "Related stories:" or "See also:" is a label over a box of
// links, "For more information, see:" a sentence of the text.
const minAnnounceWords = 5

// announcedItem reports an item of a list of links that a line the body
// keeps (kept, by block index) announces right above it: a sentence
// ending in a colon ("Redis supports the following types:", "For more
// information, see:"), or the text of the item the list is nested in, in
// a list holding article text (lists; a kept item "SQL code assist" over
// the links to its guides). The list is
// what the line says, not a menu. Each item is a short link alone (at
// most maxLinkedHeading words).
func (p *page) announcedItem(b *block, at int, kept map[int]bool, lists map[*treediff.Node]bool) bool {
	l := listOf(b)
	if l == nil || !shortLink(b) {
		return false
	}
	i := p.lineBefore(l, at)
	if i < 0 || !kept[i] {
		return false
	}
	a := p.blocks[i]
	if a.container != nil && a.container == l.Parent {
		// The list is nested in the kept item a, of a list holding
		// article text (not a box's label over its links).
		return lists[listOf(a)]
	}
	return announces(a)
}

// shortLink reports a block that is one short link (at most
// maxLinkedHeading words) under no cue.
func shortLink(b *block) bool {
	return b.inLink && b.words <= maxLinkedHeading && !b.cue && !b.weak && !b.code
}

// announces reports a sentence ending in a colon, not a heading nor a
// short label (minAnnounceWords).
func announces(a *block) bool {
	return a.heading == 0 && a.words >= minAnnounceWords && strings.HasSuffix(strings.TrimSpace(a.text), ":")
}

// lineBefore is the index of the block before the first item of list l
// (whose item block at is one), -1 for none: the text of the item the
// list is nested in may be cut as the list's first block.
func (p *page) lineBefore(l *treediff.Node, at int) int {
	i := p.first[l.Index]
	for i < at && !l.Contains(p.blocks[i].container) {
		i++
	}
	return i - 1
}

// ledByLink reports a block that opens with a link of a few words holding
// a fair share of it: a teaser, its linked headline followed by its
// summary.
func ledByLink(b *block) bool {
	return b.leadLink >= 3 && b.linkDensity() >= 0.15
}

// echo reports a block the body has already (seen) or that repeats the
// title near the body's start (i its rank in the body's span): a short
// block shown twice is a caption or a pull quote; a long paragraph said
// twice is the article's own.
func echo(b *block, i int, seen map[string]bool, title string) bool {
	return echoAt(b, b.text, i, seen, title)
}

// echoAt is echo with block b remembered in seen by key.
func echoAt(b *block, key string, i int, seen map[string]bool, title string) bool {
	return b.words <= maxEchoWords && seen[key] || i < 5 && isTitleEcho(b, title)
}

// echoKey is what the body remembers block b by against echoes: its text,
// or for a table's cell its text at its place in its table. A table says
// "Optional", "Rest" or its header row again on every row and table, and
// each is its own; a table shown twice (one for small screens, one for
// large) is an echo. tables caches a hash of each table's text, so that
// every table is read once.
func echoKey(b *block, tables map[*treediff.Node]uint64) string {
	c := b.container
	if c == nil || c.Label != "td" && c.Label != "th" {
		return b.text
	}
	t := c.Parent
	for t != nil && t.Label != "table" {
		t = t.Parent
	}
	if t == nil {
		return b.text
	}
	h, ok := tables[t]
	if !ok {
		f := fnv.New64a()
		f.Write([]byte(t.Text()))
		h = f.Sum64()
		tables[t] = h
	}
	return fmt.Sprintf("%x\x00%d\x00%s", h, c.Index-t.Index, b.text)
}

// title returns the page's headline: the element (a heading first) whose
// text best matches the document title (og:title, else <title>), so that
// the headline is taken as the page shows it, without the site name the
// document title adds; failing that the first <h1>; failing that the
// document title cut of its site-name part.
func (p *page) title(docTitle string, bodyStart int) string {
	ref := wordSet(docTitle)
	best, bestScore, ok := p.titleElement(ref)
	if !ok {
		return ""
	}
	bestText, bestAt := "", 0
	if best != nil {
		bestText, bestAt = strings.Join(strings.Fields(best.Text()), " "), p.first[best.Index]
	}
	if l, at := p.titleLine(ref, bestScore); l != "" {
		bestText, bestAt = l, at
	}
	if bestText != "" {
		return p.nearTitle(bestText, bestAt, best, bodyStart)
	}
	if h := p.firstH1(); h != "" {
		return h
	}
	if l := p.lineAbove(bodyStart); l != "" {
		return l
	}
	return cleanTitle(docTitle)
}

// titleElement returns the element whose text best matches the words of
// the document title ref (a heading first; ties go to the deeper element:
// the one holding the headline alone) and its score; false when the
// extraction's context ended.
func (p *page) titleElement(ref map[string]bool) (*treediff.Node, float64, bool) {
	words, hits := p.elementWords(ref)
	var best *treediff.Node
	bestScore := 0.0
	for _, n := range p.t.Nodes {
		if p.opt.stopped(n.Index + 1) {
			return nil, 0, false
		}
		if !p.titleCandidate(n, words[n.Index]) {
			continue
		}
		s, ok := p.titleScore(n, ref, words[n.Index], hits[n.Index])
		if ok && (s > bestScore || s == bestScore && best.Contains(n)) {
			best, bestScore = n, s
		}
	}
	return best, bestScore, true
}

// titleCandidate reports an element of w words (at most 40) that holds
// blocks, other than <title>.
func (p *page) titleCandidate(n *treediff.Node, w int) bool {
	return n.Kind == treediff.Element && w > 0 && w <= 40 && n.Label != "title" && p.end[n.Index] > p.first[n.Index]
}

// titleScore is how well element n (w words, hits of them in ref) matches
// the title's words ref, a heading scoring higher; false under half.
func (p *page) titleScore(n *treediff.Node, ref map[string]bool, w, hits int) (float64, bool) {
	h := headingLevel(n.Label)
	if h == 0 && p.blocks[p.first[n.Index]].cue {
		return 0, false
	}
	// An upper bound of the Dice coefficient from word counts spares
	// building the text of every small element.
	if 2*float64(min(hits, len(ref)))/float64(w+len(ref)) < 0.5 {
		return 0, false
	}
	s := overlap(wordSet(n.Text()), ref)
	if s < 0.5 {
		return 0, false
	}
	if h > 0 {
		s += 0.2 + float64(7-h)*0.01
	}
	return s, true
}

// titleLine returns the line cut by <br> inside one element
// ("Kicker<br>Headline<br>Byline") that matches ref best, above score
// floor, with its block; "" when none does.
func (p *page) titleLine(ref map[string]bool, floor float64) (string, int) {
	best, at := "", 0
	for i, b := range p.blocks {
		if len(b.lines) < 2 || b.cue {
			continue
		}
		for _, l := range b.lines {
			if s := overlap(wordSet(l), ref); s >= 0.5 && s > floor {
				best, floor, at = l, s, i
			}
		}
	}
	return best, at
}

// nearTitle returns the title matched (text, at block at; best its
// element, nil for a line), unless that match is far above the article and
// no heading: the site's name in the page header ("Magazine
// Restaurants"); a heading right above the body is the headline then.
func (p *page) nearTitle(text string, at int, best *treediff.Node, bodyStart int) string {
	if at < bodyStart-farTitle && (best == nil || headingLevel(best.Label) == 0) {
		if h := p.headingAbove(bodyStart); h != "" {
			return h
		}
	}
	return text
}

// firstH1 is the text of the page's first short <h1> block without a cue.
func (p *page) firstH1() string {
	for _, b := range p.blocks {
		if b.heading == 1 && !b.cue && b.words <= 40 {
			return b.text
		}
	}
	return ""
}

// lineAbove returns, when the document title does not name the story, the
// nearest line above the body that could be a headline ("" when none).
// The article's first block counts when it is "Headline<br>dateline".
func (p *page) lineAbove(bodyStart int) string {
	for i := min(bodyStart, len(p.blocks)-1); i >= 0 && i >= bodyStart-6; i-- {
		if l := p.headlineLine(i, bodyStart); l != "" {
			return l
		}
	}
	return ""
}

// headlineLine returns block i's first line when it could be a headline:
// "Headline<br>Posted: date" gives its first line, unless that is a
// dateline or byline (then the block is one: "By X<br>Writer").
func (p *page) headlineLine(i, bodyStart int) string {
	b := p.blocks[i]
	if b.cue || b.inLink || looksLikeCode(b.text) || i == bodyStart && len(b.lines) < 2 || len(b.lines) == 0 {
		return ""
	}
	l := b.lines[0]
	n := len(treediff.Words(l))
	if n < 2 || n > 25 || isBoilerLine(&block{text: l, words: n}) {
		return ""
	}
	return l
}

// farTitle is how many blocks above the article's first block a title
// match may lie before a heading nearer the article is preferred.
const farTitle = 25

// headingAbove returns the text of a heading (h1-h3) among the few blocks
// above block at, "" when there is none.
func (p *page) headingAbove(at int) string {
	for i := at - 1; i >= 0 && i >= at-6; i-- {
		b := p.blocks[i]
		if b.heading >= 1 && b.heading <= 3 && !b.cue && !b.inLink && b.words >= 1 && b.words <= 25 {
			return b.text
		}
	}
	return ""
}

// splitLines cuts s at newlines, collapses whitespace and drops empty lines.
func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// elementWords returns, per node index, the number of words under it
// outside skipped and hidden elements, and how many of them are in ref.
func (p *page) elementWords(ref map[string]bool) (words, hits []int) {
	words = make([]int, len(p.t.Nodes))
	hits = make([]int, len(p.t.Nodes))
	for i := len(p.t.Nodes) - 1; i >= 0; i-- {
		n := p.t.Nodes[i]
		switch {
		case n.Kind != treediff.Element:
			for _, w := range treediff.Words(n.Label) {
				words[i]++
				if ref[strings.ToLower(w.Text)] {
					hits[i]++
				}
			}
		case skipTags[n.Label] || p.opt.hides(n):
			words[i], hits[i] = 0, 0
			continue
		}
		if n.Parent != nil {
			words[n.Parent.Index] += words[i]
			hits[n.Parent.Index] += hits[i]
		}
	}
	return words, hits
}

// isTitleEcho reports a block that repeats the headline, possibly with a
// kicker or a byline around it.
func isTitleEcho(b *block, title string) bool {
	if title == "" {
		return false
	}
	t := strings.ToLower(strings.Join(strings.Fields(title), " "))
	x := strings.ToLower(b.text)
	return x == t || strings.Contains(x, t) && b.words <= len(treediff.Words(title))+12
}

// overlap is the share of ref's words found in a, scaled down when a holds
// many other words.
func overlap(a, ref map[string]bool) float64 {
	if len(a) == 0 || len(ref) == 0 {
		return 0
	}
	n := 0
	for w := range a {
		if ref[w] {
			n++
		}
	}
	// Harmonic mean of the shares on both sides (a Dice coefficient).
	return 2 * float64(n) / float64(len(a)+len(ref))
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range treediff.Words(s) {
		m[strings.ToLower(w.Text)] = true
	}
	return m
}

// cleanTitle drops the site-name part of a document title ("Story - Site"):
// the longest part between separators.
func cleanTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	best := s
	for _, sep := range []string{" | ", " - ", " — ", " – ", " :: ", " : ", " » "} {
		if !strings.Contains(s, sep) {
			continue
		}
		longest := ""
		for _, part := range strings.Split(s, sep) {
			if len(part) > len(longest) {
				longest = part
			}
		}
		if len(longest) < len(best) {
			best = longest
		}
	}
	return strings.TrimSpace(best)
}
