package treediff

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// ParseOptions bounds what Parse accepts. Zero fields take the defaults.
type ParseOptions struct {
	// ContentType is the HTTP Content-Type header, if any: its charset is used
	// when the bytes are not valid UTF-8.
	ContentType string
	// Charset, when set, forces the encoding (DecodeAs) whatever the page
	// and ContentType declare.
	Charset string
	// MaxBytes rejects larger sources (default 32 MiB).
	MaxBytes int
	// MaxNodes rejects pages with more nodes, text nodes included (default 1,000,000).
	MaxNodes int
	// MaxDepth caps nesting the way browsers do: an element opened deeper is
	// attached at this depth instead (default 512).
	MaxDepth int
}

// Default limits of ParseOptions.
const (
	DefaultMaxBytes = 32 << 20
	DefaultMaxNodes = 1_000_000
	DefaultMaxDepth = 512
)

func (o ParseOptions) withDefaults() ParseOptions {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxDepth < 3 {
		o.MaxDepth = 3 // html > body > content
	}
	return o
}

// ErrEmpty is returned for a source with no markup and no text.
var ErrEmpty = errors.New("empty document")

// ErrTooLarge is wrapped by errors about a page exceeding a size limit.
var ErrTooLarge = errors.New("too large")

// Parse decodes src (see Decode) and builds the page's full tree: elements and
// text nodes, with script, style, noscript, template, comments and doctype
// dropped. The builder is a simplified HTML5 tree construction (implied html,
// head and body; void elements; implied end tags for p, li, dt/dd, table
// parts, options and headings) that never recurses, so nesting depth costs no
// stack. name identifies the page in errors.
func Parse(name string, src []byte, opt ParseOptions) (*Tree, error) {
	opt = opt.withDefaults()
	if len(src) > opt.MaxBytes {
		return nil, fmt.Errorf("page %s: %d bytes, over the limit of %d: %w", name, len(src), opt.MaxBytes, ErrTooLarge)
	}
	text, _, err := decodeFor(src, opt)
	if err != nil {
		return nil, fmt.Errorf("page %s: %w", name, err)
	}
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("page %s: %w", name, ErrEmpty)
	}
	b := newBuilder(name, opt)
	if err := b.run(text); err != nil {
		return nil, err
	}
	return b.tree, nil
}

// decodeFor decodes src as opt says: the forced charset, else Decode.
func decodeFor(src []byte, opt ParseOptions) (string, string, error) {
	if opt.Charset != "" {
		return DecodeAs(src, opt.Charset)
	}
	return Decode(src, opt.ContentType)
}

// ParseReader is Parse on everything r yields, read up to opt.MaxBytes+1 bytes.
func ParseReader(name string, r io.Reader, opt ParseOptions) (*Tree, error) {
	o := opt.withDefaults()
	src, err := io.ReadAll(io.LimitReader(r, int64(o.MaxBytes)+1))
	if err != nil {
		return nil, fmt.Errorf("page %s: read: %w", name, err)
	}
	return Parse(name, src, opt)
}

var voidTags = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "param": true,
	"source": true, "track": true, "wbr": true, "keygen": true,
}

// skippedTags have content that is never page text.
var skippedTags = map[string]bool{"script": true, "style": true, "noscript": true, "template": true}

var headTags = map[string]bool{"title": true, "meta": true, "link": true, "base": true}

// closesP lists start tags that end an open <p>.
var closesP = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "center": true,
	"details": true, "dialog": true, "dir": true, "div": true, "dl": true, "fieldset": true,
	"figcaption": true, "figure": true, "footer": true, "form": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "header": true, "hgroup": true, "hr": true,
	"main": true, "menu": true, "nav": true, "ol": true, "p": true, "pre": true,
	"section": true, "summary": true, "table": true, "ul": true, "li": true, "dd": true, "dt": true,
}

var headings = map[string]bool{"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true}

// scopeFence stops the search for an element to close: an end tag or an
// implied end never reaches across these.
var scopeFence = map[string]bool{"table": true, "td": true, "th": true, "caption": true, "html": true, "body": true, "marquee": true, "object": true, "applet": true}

type builder struct {
	name  string
	opt   ParseOptions
	tree  *Tree
	html  *Node
	head  *Node
	body  *Node
	stack []openEl // open elements below body (or head)
	pos   int
	// noRawEnd records the raw-text tags with no complete end tag left.
	noRawEnd map[string]bool
	src      string          // the page's text
	z        *html.Tokenizer // reads src from pos (restarted after raw text)
	// skipDepth > 0 while inside a dropped element (templates nest), named
	// skipTag.
	skipDepth int
	skipTag   string
}

func newBuilder(name string, opt ParseOptions) *builder {
	t := &Tree{Name: name}
	b := &builder{name: name, opt: opt, tree: t, noRawEnd: map[string]bool{}}
	b.html = &Node{Kind: Element, Label: "html"}
	t.add(b.html)
	b.head = &Node{Kind: Element, Label: "head", Parent: b.html}
	t.add(b.head)
	return b
}

func (b *builder) newNode(n *Node) error {
	if len(b.tree.Nodes) >= b.opt.MaxNodes {
		return fmt.Errorf("page %s: more than %d nodes: %w", b.name, b.opt.MaxNodes, ErrTooLarge)
	}
	b.tree.add(n)
	return nil
}

func (b *builder) ensureBody(offset int) error {
	if b.body != nil {
		return nil
	}
	b.body = &Node{Kind: Element, Label: "body", Parent: b.html, Offset: offset}
	if err := b.newNode(b.body); err != nil {
		return err
	}
	b.stack = []openEl{{b.body, tagSets["body"]}}
	return nil
}

func (b *builder) current() *Node {
	if len(b.stack) == 0 {
		return b.head
	}
	return b.stack[len(b.stack)-1].n
}

// push makes n the current open element.
func (b *builder) push(n *Node) {
	b.stack = append(b.stack, openEl{n, tagSets[n.Label]})
}

// closeTo pops open elements up to and including the nearest one in the
// set target (or, with target 0, labelled name), unless an element of the set
// fence comes first. It reports whether one was closed. Sets are bit masks
// cached on the stack, so the scan costs no map lookup: pages opening
// thousands of elements against a deep stack stay fast.
func (b *builder) closeTo(target, fence tagSet, name string) bool {
	for i := len(b.stack) - 1; i >= 1; i-- {
		e := b.stack[i]
		if e.set&target != 0 || (target == 0 && e.n.Label == name) {
			b.stack = b.stack[:i]
			return true
		}
		if e.set&fence != 0 {
			return false
		}
	}
	return false
}

// openEl is an open element with the tag sets its label belongs to.
type openEl struct {
	n   *Node
	set tagSet
}

// tagSet is a set of the tag groups below, as bits.
type tagSet uint32

const (
	setP tagSet = 1 << iota
	setLi
	setDtDd
	setOption
	setA
	setTr
	setTdTh
	setTSections
	fenceScope
	fenceList
	fenceDl
	fenceRow
	fenceCell
	fenceSel
	fenceP
)

// tagSets maps a tag to the groups it belongs to.
var tagSets = func() map[string]tagSet {
	m := map[string]tagSet{}
	for bit, group := range map[tagSet]map[string]bool{
		setP: onlyP, setLi: onlyLi, setDtDd: dtdd, setOption: onlyOption, setA: onlyA,
		setTr: onlyTr, setTdTh: tdth, setTSections: tsections, fenceScope: scopeFence,
		fenceList: listFence, fenceDl: dlFence, fenceRow: rowFence, fenceCell: cellFence,
		fenceSel: selFence, fenceP: pFence,
	} {
		for tag := range group {
			m[tag] |= bit
		}
	}
	return m
}()

var (
	onlyP      = map[string]bool{"p": true}
	onlyLi     = map[string]bool{"li": true}
	dtdd       = map[string]bool{"dt": true, "dd": true}
	onlyOption = map[string]bool{"option": true}
	onlyA      = map[string]bool{"a": true}
	onlyTr     = map[string]bool{"tr": true}
	tdth       = map[string]bool{"td": true, "th": true}
	tsections  = map[string]bool{"thead": true, "tbody": true, "tfoot": true}
	listFence  = map[string]bool{"ul": true, "ol": true, "table": true, "td": true, "th": true, "html": true, "body": true}
	dlFence    = map[string]bool{"dl": true, "table": true, "td": true, "th": true, "html": true, "body": true}
	rowFence   = map[string]bool{"table": true, "html": true, "body": true}
	cellFence  = map[string]bool{"tr": true, "table": true, "html": true, "body": true}
	selFence   = map[string]bool{"select": true, "datalist": true, "html": true, "body": true}
	pFence     = map[string]bool{"button": true, "table": true, "td": true, "th": true, "caption": true, "html": true, "body": true, "marquee": true, "object": true, "applet": true}
)

// implyEnds closes what the start of tag ends implicitly and opens the
// table sections and rows it implies (tbody around a tr written directly in a
// table, tr around a cell), as browsers do.
func (b *builder) implyEnds(tag string, offset int) error {
	if closesP[tag] {
		b.closeTo(setP, fenceP, "")
	}
	for _, c := range impliedCloses[tag] {
		b.closeTo(c.target, c.fence, "")
	}
	if headings[tag] {
		b.closeOpenHeading()
	}
	return b.openImpliedTableParts(tag, offset)
}

// impliedClose is an open element a start tag ends: the nearest one in
// target, unless one in fence comes first.
type impliedClose struct{ target, fence tagSet }

// impliedCloses lists, per start tag, the open elements it ends, in order.
// A link never contains a link: a new <a> ends the open one.
var impliedCloses = map[string][]impliedClose{
	"li":     {{setLi, fenceList}},
	"dt":     {{setDtDd, fenceDl}},
	"dd":     {{setDtDd, fenceDl}},
	"option": {{setOption, fenceSel}},
	"tr":     {{setTdTh, fenceRow}, {setTr, fenceRow}},
	"td":     {{setTdTh, fenceCell}},
	"th":     {{setTdTh, fenceCell}},
	"thead":  {{setTdTh, fenceRow}, {setTr, fenceRow}, {setTSections, fenceRow}},
	"tbody":  {{setTdTh, fenceRow}, {setTr, fenceRow}, {setTSections, fenceRow}},
	"tfoot":  {{setTdTh, fenceRow}, {setTr, fenceRow}, {setTSections, fenceRow}},
	"a":      {{setA, fenceScope}},
}

// closeOpenHeading ends the current element if it is a heading: a heading
// never contains a heading.
func (b *builder) closeOpenHeading() {
	if cur := b.current(); headings[cur.Label] && len(b.stack) > 1 {
		b.stack = b.stack[:len(b.stack)-1]
	}
}

// openImpliedTableParts opens the tbody a row or cell written directly in a
// table implies, and the tr a cell written directly in a table section
// implies.
func (b *builder) openImpliedTableParts(tag string, offset int) error {
	if tag != "tr" && tag != "td" && tag != "th" {
		return nil
	}
	if b.current().Label == "table" {
		if err := b.open("tbody", offset); err != nil {
			return err
		}
	}
	if tag != "tr" && tsections[b.current().Label] {
		return b.open("tr", offset)
	}
	return nil
}

// open adds an implied element under the current one and makes it current.
func (b *builder) open(tag string, offset int) error {
	n := &Node{Kind: Element, Label: tag, Parent: b.current(), Offset: offset}
	if err := b.newNode(n); err != nil {
		return err
	}
	if n.Depth < b.opt.MaxDepth {
		b.push(n)
	}
	return nil
}

// run builds the tree from src, token by token.
func (b *builder) run(src string) error {
	b.src = src
	b.z = newFragmentTokenizer(src)
	for {
		tt := b.z.Next()
		if tt == html.ErrorToken {
			if err := b.z.Err(); err != nil && err != io.EOF {
				return fmt.Errorf("page %s: tokenize at byte %d: %w", b.name, b.pos, err)
			}
			break
		}
		offset := b.pos
		b.pos += len(b.z.Raw())
		if err := b.token(tt, offset); err != nil {
			return err
		}
	}
	if b.body == nil {
		return b.ensureBody(b.pos)
	}
	return nil
}

// newFragmentTokenizer tokenizes src with no bound on its buffer.
func newFragmentTokenizer(src string) *html.Tokenizer {
	z := html.NewTokenizerFragment(strings.NewReader(src), "")
	z.SetMaxBuf(0)
	return z
}

// token adds the token just read, which starts at offset, to the tree.
func (b *builder) token(tt html.TokenType, offset int) error {
	if b.skipDepth > 0 {
		b.trackSkipped(tt)
		return nil
	}
	switch tt {
	case html.TextToken:
		return b.text(string(b.z.Text()), offset)
	case html.StartTagToken, html.SelfClosingTagToken:
		return b.startTag(tt, b.z.Token(), offset)
	case html.EndTagToken:
		name, _ := b.z.TagName()
		return b.endTag(string(name), offset)
	}
	return nil
}

// trackSkipped follows the nesting of the dropped element being skipped
// (templates nest): its start tags go one level deeper, its end tags one up.
func (b *builder) trackSkipped(tt html.TokenType) {
	if tt != html.StartTagToken && tt != html.EndTagToken {
		return
	}
	if name, _ := b.z.TagName(); string(name) != b.skipTag {
		return
	}
	if tt == html.StartTagToken {
		b.skipDepth++
	} else {
		b.skipDepth--
	}
}

// text adds a text node. Whitespace is kept only inside the body's
// elements; other text before the body starts it, except a title's.
func (b *builder) text(text string, offset int) error {
	if strings.TrimSpace(text) == "" {
		if b.body == nil || len(b.stack) <= 1 {
			return nil
		}
	} else if b.body == nil && b.current().Label != "title" {
		if err := b.ensureBody(offset); err != nil {
			return err
		}
	}
	return b.newNode(&Node{Kind: Text, Label: text, Parent: b.current(), Offset: offset})
}

// startTag adds the element tok starts (or a self-closing one) and opens
// it, unless its content is dropped or it is the page's html, head or body.
func (b *builder) startTag(tt html.TokenType, tok html.Token, offset int) error {
	tag := tok.Data
	if skippedTags[tag] {
		if tt == html.StartTagToken {
			b.skipRawText(tag)
		}
		return nil
	}
	if done, err := b.structureTag(tag, tok.Attr, offset); done {
		return err
	}
	if err := b.prepareFor(tag, offset); err != nil {
		return err
	}
	n := &Node{Kind: Element, Label: tag, Attrs: tok.Attr, Parent: b.current(), Offset: offset}
	if err := b.newNode(n); err != nil {
		return err
	}
	if tt == html.StartTagToken && !voidTags[tag] {
		b.pushStarted(n)
	}
	return nil
}

// skipRawText drops the content of the raw-text element tag just started:
// tokenizing resumes after its complete end tag, or, with none, every token
// is skipped until its end.
func (b *builder) skipRawText(tag string) {
	// A failed search fails again further on: remembering it keeps
	// pages with many unclosed raw-text elements linear.
	end := -1
	if !b.noRawEnd[tag] {
		end = rawTextEnd(b.src[b.pos:], tag)
	}
	if end < 0 {
		b.noRawEnd[tag] = true
		b.skipDepth, b.skipTag = 1, tag
		return
	}
	b.pos += end
	b.z = newFragmentTokenizer(b.src[b.pos:])
}

// structureTag merges the attributes of the page's html, head or body start
// tag into the element the builder made; it reports whether tag was one.
func (b *builder) structureTag(tag string, attrs []html.Attribute, offset int) (bool, error) {
	switch tag {
	case "html":
		b.html.Attrs = mergeAttrs(b.html.Attrs, attrs)
	case "head":
		if b.body == nil {
			b.head.Attrs = mergeAttrs(b.head.Attrs, attrs)
			b.head.Offset = offset
		}
	case "body":
		if err := b.ensureBody(offset); err != nil {
			return true, err
		}
		b.body.Attrs = mergeAttrs(b.body.Attrs, attrs)
	default:
		return false, nil
	}
	return true, nil
}

// prepareFor starts the body where tag cannot be in the head, and closes
// what tag ends implicitly.
func (b *builder) prepareFor(tag string, offset int) error {
	if b.body == nil && !(headTags[tag] && len(b.stack) == 0) {
		if err := b.ensureBody(offset); err != nil {
			return err
		}
	}
	if b.body == nil {
		return nil
	}
	return b.implyEnds(tag, offset)
}

// pushStarted makes the element just started current: in the head only a
// title (its text stays in the head), in the body any above the depth bound.
func (b *builder) pushStarted(n *Node) {
	if b.body == nil {
		if n.Label == "title" {
			b.push(n)
		}
	} else if n.Depth < b.opt.MaxDepth {
		b.push(n)
	}
}

// endTag closes the element tag ends, as browsers do: </p> with none open
// makes an empty paragraph, </br> a line break, and content after </body>
// still belongs to the body.
func (b *builder) endTag(tag string, offset int) error {
	if b.body == nil {
		if tag == "title" && len(b.stack) > 0 {
			b.stack = b.stack[:0]
		}
		return nil
	}
	switch tag {
	case "p":
		if !b.closeTo(setP, fenceP, "") {
			return b.newNode(&Node{Kind: Element, Label: "p", Parent: b.current(), Offset: offset})
		}
	case "br":
		return b.newNode(&Node{Kind: Element, Label: "br", Parent: b.current(), Offset: offset})
	case "body", "html":
	default:
		b.closeElement(tag)
	}
	return nil
}

// closeElement closes the nearest open element labelled tag, unless a
// scope fence comes first (none does for a fence's own end tag).
func (b *builder) closeElement(tag string) {
	fence := fenceScope
	if scopeFence[tag] {
		fence = 0
	}
	b.closeTo(0, fence, tag)
}

// rawTextEnd returns the length of text up to and including the first
// complete end tag of the raw-text element tag (script, style, noscript):
// "</tag", optional whitespace, ">", in any case. An end tag missing its '>'
// (as in "</style <link …>") does not close the element, so the text up to
// the next complete one is dropped with it. It returns -1 for other tags or
// when no complete end tag follows.
func rawTextEnd(text, tag string) int {
	if tag != "script" && tag != "style" && tag != "noscript" {
		return -1
	}
	for i := 0; ; {
		j := indexFold(text[i:], "</"+tag)
		if j < 0 {
			return -1
		}
		if k := tagClose(text, i+j+2+len(tag)); k >= 0 {
			return k
		}
		i += j + 2
	}
}

// tagClose returns the index after the '>' that closes a tag at text[k],
// after optional whitespace; -1 if none does.
func tagClose(text string, k int) int {
	for k < len(text) && isHTMLSpace(text[k]) {
		k++
	}
	if k < len(text) && text[k] == '>' {
		return k + 1
	}
	return -1
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// indexFold is strings.Index ignoring ASCII case of text.
func indexFold(text, lowerSub string) int {
	for i := 0; i+len(lowerSub) <= len(text); i++ {
		if text[i] == '<' && strings.EqualFold(text[i:i+len(lowerSub)], lowerSub) {
			return i
		}
	}
	return -1
}

func mergeAttrs(have, add []html.Attribute) []html.Attribute {
	for _, a := range add {
		found := false
		for _, h := range have {
			if h.Key == a.Key {
				found = true
				break
			}
		}
		if !found {
			have = append(have, a)
		}
	}
	return have
}

// SourceAsRead returns src as Parse with opt reads it, for readers that
// decode the bytes by themselves (Decode, the page's own declarations):
// src itself when they read it alike, else the decoded text, declared
// UTF-8, when opt forces a charset or the content type names one the page
// does not (extract FILE --charset, a served Content-Type).
func SourceAsRead(src []byte, opt ParseOptions) ([]byte, error) {
	if opt.Charset == "" && opt.ContentType == "" {
		return src, nil
	}
	text, used, err := decodeFor(src, opt)
	if err != nil {
		return nil, err
	}
	if _, own, err := Decode(src, ""); err == nil && own == used {
		return src, nil
	}
	return []byte(`<meta charset="utf-8">` + text), nil
}
