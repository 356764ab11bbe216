package treediff

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Kind says what a Node stands for.
type Kind uint8

const (
	// Element is an HTML element; its Label is the lower-case tag name.
	Element Kind = iota
	// Text is a run of character data (only in the full tree returned by Parse);
	// its Label is the decoded text.
	Text
	// Token is one word of a text node (only in the token view); its Label is the
	// word and its parent is the element that held the text.
	Token
)

func (k Kind) String() string {
	switch k {
	case Element:
		return "element"
	case Text:
		return "text"
	case Token:
		return "token"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Node is one node of an ordered labelled tree.
type Node struct {
	Kind     Kind
	Label    string
	Attrs    []html.Attribute // elements only, as written in the source
	Parent   *Node
	Children []*Node
	// Depth is the number of edges from the root (the root has depth 0).
	Depth int
	// Offset is the byte offset of the node's start in the decoded (UTF-8)
	// source: the '<' of an element's start tag, the first byte of a text or
	// token. Implied elements take the offset of what implied them.
	Offset int
	// Index is the node's preorder rank in its tree (the root is 0).
	Index int
	// Origin is, in a view made by Tree.View, the node of the full tree this
	// node was copied from (for a token: the text node it was cut from).
	Origin *Node

	// step is the node's rank (from 1) among its parent's children of its
	// kind (and tag, for elements), as Path numbers it: set for all the
	// children of a parent at once, 0 until then.
	step atomic.Int32
}

// Tree is an ordered labelled tree with its nodes listed in preorder.
type Tree struct {
	// Name identifies the tree in errors and reports (a file name, a URL).
	Name  string
	Root  *Node
	Nodes []*Node // preorder; Nodes[i].Index == i
}

// Len is the number of nodes.
func (t *Tree) Len() int { return len(t.Nodes) }

// Attr returns the value of the named attribute and whether it is present.
func (n *Node) Attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

// Path returns the XPath-like location of an element from the root, each step
// numbered among the siblings of the same tag, e.g. /html/body/div[2]/p[1].
// A token or text node is addressed through its parent with text()[i].
func (n *Node) Path() string {
	var steps []string
	for c := n; c != nil; c = c.Parent {
		name := c.Label
		if c.Kind != Element {
			name = "text()"
		}
		if c.Parent == nil {
			steps = append(steps, name)
			break
		}
		steps = append(steps, name+"["+strconv.Itoa(c.siblingStep())+"]")
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(steps[i])
	}
	return b.String()
}

// siblingStep is n's rank among its parent's children of its kind (and
// tag). The first call for a child of a parent numbers all its children in
// one pass, so the paths of all nodes cost time linear in their length, not
// in the square of the widest parent's children (issue #11: 100,000
// siblings). Children are only ever appended, so a rank never changes; a
// node missing from its parent's children gets the count of them all.
func (n *Node) siblingStep() int {
	if s := n.step.Load(); s > 0 {
		return int(s)
	}
	type key struct {
		kind  Kind
		label string
	}
	counts := map[key]int32{}
	for _, c := range n.Parent.Children {
		k := key{kind: c.Kind}
		if c.Kind == Element {
			k.label = c.Label
		}
		counts[k]++
		c.step.Store(counts[k])
	}
	if s := n.step.Load(); s > 0 {
		return int(s)
	}
	k := key{kind: n.Kind}
	if n.Kind == Element {
		k.label = n.Label
	}
	return int(counts[k])
}

// Contains reports whether m is n or one of its descendants.
func (n *Node) Contains(m *Node) bool {
	for ; m != nil; m = m.Parent {
		if m == n {
			return true
		}
	}
	return false
}

// Walk calls f on n and its descendants in preorder, without recursion; f
// returning false skips the node's children.
func (n *Node) Walk(f func(*Node) bool) {
	stack := []*Node{n}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !f(c) {
			continue
		}
		for i := len(c.Children) - 1; i >= 0; i-- {
			stack = append(stack, c.Children[i])
		}
	}
}

// View selects which nodes a tree keeps.
type View uint8

const (
	// TagView keeps elements only: the view used to group pages by template.
	TagView View = iota
	// TokenView keeps elements and, for each text node, its words as Token
	// leaves of the text's parent element: the view used to locate content.
	TokenView
)

func (v View) String() string {
	switch v {
	case TagView:
		return "tag"
	case TokenView:
		return "token"
	}
	return "view(" + strconv.Itoa(int(v)) + ")"
}

// ParseView reads a view name as written on a command line ("tag", "token").
func ParseView(s string) (View, error) {
	switch s {
	case "tag":
		return TagView, nil
	case "token":
		return TokenView, nil
	}
	return 0, fmt.Errorf("unknown tree view %q (want tag or token)", s)
}

// View returns a copy of the tree restricted to v. Every node of the copy
// records in Origin the node of t it comes from.
func (t *Tree) View(v View) *Tree {
	out := &Tree{Name: t.Name}
	type item struct {
		src    *Node
		parent *Node
	}
	stack := []item{{t.Root, nil}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s := it.src
		switch s.Kind {
		case Element:
			n := &Node{Kind: Element, Label: s.Label, Attrs: s.Attrs, Parent: it.parent, Offset: s.Offset, Origin: s}
			out.add(n)
			for i := len(s.Children) - 1; i >= 0; i-- {
				stack = append(stack, item{s.Children[i], n})
			}
		case Text:
			if v == TokenView && it.parent != nil {
				out.addTokens(s, it.parent)
			}
		case Token:
			if v == TokenView && it.parent != nil {
				out.add(&Node{Kind: Token, Label: s.Label, Parent: it.parent, Offset: s.Offset, Origin: s})
			}
		}
	}
	return out
}

// addTokens adds the words of text node s as tokens under parent.
func (t *Tree) addTokens(s, parent *Node) {
	for _, w := range Words(s.Label) {
		t.add(&Node{Kind: Token, Label: w.Text, Parent: parent, Offset: s.Offset + w.Offset, Origin: s})
	}
}

// add appends n in preorder position and links it to its parent.
func (t *Tree) add(n *Node) {
	n.Index = len(t.Nodes)
	t.Nodes = append(t.Nodes, n)
	if n.Parent == nil {
		t.Root = n
		n.Depth = 0
		return
	}
	n.Depth = n.Parent.Depth + 1
	n.Parent.Children = append(n.Parent.Children, n)
}

// Word is one token of a text with its byte offset in that text.
type Word struct {
	Text   string
	Offset int
}

// IsWordRune reports whether r belongs to a word: Unicode letters, digits and
// '_' (Python's \w; Go's regexp \w is ASCII-only).
func IsWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Words splits s into maximal runs of word runes; whitespace and punctuation
// separate words and are dropped. No case folding. Scripts written without
// spaces between words (Han, Hiragana, Katakana) count one word per
// character: a run of them is a sentence, not a word, and counting it as
// one would make every paragraph of a Japanese or Chinese page look short.
func Words(s string) []Word {
	var out []Word
	start := -1
	for i, r := range s {
		switch {
		case unspaced(r):
			if start >= 0 {
				out = append(out, Word{s[start:i], start})
				start = -1
			}
			out = append(out, Word{s[i : i+utf8.RuneLen(r)], i})
		case IsWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			out = append(out, Word{s[start:i], start})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, Word{s[start:], start})
	}
	return out
}

// unspaced reports a letter of a script written without spaces between
// words.
func unspaced(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

// Text returns the text under n (text nodes and tokens, in document order)
// as HTML lays it out: block-level elements and <br> break lines, while
// whitespace inside text, newlines included, is a space, except inside <pre>
// and <textarea>, whose newlines are kept. Whitespace runs inside a line are
// collapsed.
func (n *Node) Text() string {
	var b strings.Builder
	n.writeText(&b)
	return normalizeLines(b.String())
}

func (n *Node) writeText(b *strings.Builder) {
	type frame struct {
		n    *Node
		exit bool
		pre  bool // inside <pre> or <textarea>: newlines are kept
	}
	stack := []frame{{n, false, n.Parent != nil && n.Parent.preformatted()}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := f.n
		if f.exit {
			b.WriteByte('\n')
			continue
		}
		if writeLeaf(b, c, f.pre) {
			continue
		}
		if IsBlock(c.Label) {
			b.WriteByte('\n')
			stack = append(stack, frame{c, true, f.pre})
		}
		pre := f.pre || c.Label == "pre" || c.Label == "textarea"
		for i := len(c.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{c.Children[i], false, pre})
		}
	}
}

// writeLeaf writes the text of c if it has no text below it (a text node, a
// token, a <br>) and reports whether it did. pre keeps a text's newlines.
func writeLeaf(b *strings.Builder, c *Node, pre bool) bool {
	switch {
	case c.Kind == Text && pre:
		b.WriteString(c.Label)
	case c.Kind == Text:
		writeOneLine(b, c.Label)
	case c.Kind == Token:
		b.WriteString(c.Label)
		b.WriteByte(' ')
	case c.Label == "br":
		b.WriteByte('\n')
	default:
		return false
	}
	return true
}

// writeOneLine writes text with its line breaks as spaces.
func writeOneLine(b *strings.Builder, text string) {
	for _, r := range text {
		if r == '\n' || r == '\r' || r == '\f' {
			r = ' '
		}
		b.WriteRune(r)
	}
}

// preformatted reports whether n is, or is inside, a <pre> or <textarea>
// element, whose text keeps its line breaks.
func (n *Node) preformatted() bool {
	for a := n; a != nil; a = a.Parent {
		if a.Kind == Element && (a.Label == "pre" || a.Label == "textarea") {
			return true
		}
	}
	return false
}

// normalizeLines collapses horizontal whitespace, trims each line and keeps at
// most one blank line between paragraphs.
func normalizeLines(s string) string {
	var out []string
	blank := false
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "body": true,
	"dd": true, "details": true, "dialog": true, "div": true, "dl": true, "dt": true,
	"fieldset": true, "figcaption": true, "figure": true, "footer": true, "form": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"header": true, "hgroup": true, "hr": true, "html": true, "li": true, "main": true,
	"nav": true, "ol": true, "p": true, "pre": true, "section": true, "summary": true,
	"table": true, "tbody": true, "td": true, "tfoot": true, "th": true, "thead": true,
	"tr": true, "ul": true, "caption": true, "center": true, "frameset": true, "frame": true,
	"head": true, "title": true, "option": true, "legend": true, "menu": true,
}

// IsBlock reports whether tag starts a new line when its text is rendered.
func IsBlock(tag string) bool { return blockTags[tag] }

// Prune returns a copy of t without the nodes for which keep reports false,
// each removed with its whole subtree. The root is always kept (a tree needs
// one) and keep is not asked about it. Nodes of the copy share Label and
// Attrs with t's, get fresh Index, Depth, Parent and Children, and record in
// Origin the node of t they come from; a view made later from the copy
// points to the copy's nodes, whose Origin leads on to t.
func (t *Tree) Prune(keep func(*Node) bool) *Tree {
	out := &Tree{Name: t.Name}
	if t.Root == nil {
		return out
	}
	type item struct {
		src    *Node
		parent *Node
	}
	stack := []item{{t.Root, nil}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s := it.src
		if it.parent != nil && !keep(s) {
			continue
		}
		n := &Node{Kind: s.Kind, Label: s.Label, Attrs: s.Attrs, Parent: it.parent, Offset: s.Offset, Origin: s}
		out.add(n)
		for i := len(s.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{s.Children[i], n})
		}
	}
	return out
}
