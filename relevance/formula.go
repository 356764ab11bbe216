package relevance

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/gleaner/gleaner/treediff"
)

// Formula is a Boolean condition over the words of a document, written with
// & (and), | (or), ^ (not) and parentheses, e.g. "(graphe | graphes) & (^image)"
// (Nguyen's crawler, seed 000). Words match case-insensitively, whole words
// only. Adjacent words without an operator are read as "and".
type Formula struct {
	src  string
	root *formulaNode
}

type formulaOp uint8

const (
	opWord formulaOp = iota
	opAnd
	opOr
	opNot
)

type formulaNode struct {
	op   formulaOp
	word string
	kids []*formulaNode
}

// maxFormulaLen bounds a formula read from a flag or config.
const maxFormulaLen = 4096

// ParseFormula reads a Boolean formula. The error names the position of what
// is wrong.
func ParseFormula(s string) (*Formula, error) {
	if len(s) > maxFormulaLen {
		return nil, fmt.Errorf("formula: %d bytes, over the limit of %d", len(s), maxFormulaLen)
	}
	p := &formulaParser{src: s}
	p.lex()
	if p.err != nil {
		return nil, p.err
	}
	if len(p.toks) == 0 {
		return nil, fmt.Errorf("formula %q: empty", s)
	}
	root := p.parseOr(0)
	if p.err != nil {
		return nil, p.err
	}
	if p.i < len(p.toks) {
		t := p.toks[p.i]
		return nil, fmt.Errorf("formula %q: unexpected %q at byte %d", s, t.text, t.pos)
	}
	return &Formula{src: s, root: root}, nil
}

// String returns the formula as written.
func (f *Formula) String() string { return f.src }

// Words returns the positive words of the formula (those not under ^): the
// seed terms a lexicon can start from.
func (f *Formula) Words() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(n *formulaNode, neg bool)
	walk = func(n *formulaNode, neg bool) {
		switch n.op {
		case opWord:
			if !neg && !seen[n.word] {
				seen[n.word] = true
				out = append(out, n.word)
			}
		case opNot:
			walk(n.kids[0], !neg)
		default:
			for _, k := range n.kids {
				walk(k, neg)
			}
		}
	}
	walk(f.root, false)
	return out
}

// Match reports whether the formula holds on a text.
func (f *Formula) Match(text string) bool {
	words := map[string]bool{}
	for _, w := range treediff.Words(text) {
		words[strings.ToLower(w.Text)] = true
	}
	return f.MatchWords(words)
}

// MatchWords reports whether the formula holds on a set of lower-cased words.
func (f *Formula) MatchWords(words map[string]bool) bool { return f.root.eval(words) }

func (n *formulaNode) eval(words map[string]bool) bool {
	switch n.op {
	case opWord:
		return words[n.word]
	case opNot:
		return !n.kids[0].eval(words)
	case opAnd:
		for _, k := range n.kids {
			if !k.eval(words) {
				return false
			}
		}
		return true
	default:
		for _, k := range n.kids {
			if k.eval(words) {
				return true
			}
		}
		return false
	}
}

type formulaTok struct {
	text string
	pos  int
}

type formulaParser struct {
	src  string
	toks []formulaTok
	i    int
	err  error
}

func (p *formulaParser) lex() {
	start := -1
	flush := func(end int) {
		if start >= 0 {
			p.toks = append(p.toks, formulaTok{strings.ToLower(p.src[start:end]), start})
			start = -1
		}
	}
	for i, r := range p.src {
		switch {
		case strings.ContainsRune("&|^()", r):
			flush(i)
			p.toks = append(p.toks, formulaTok{string(r), i})
		case unicode.IsSpace(r):
			flush(i)
		case treediff.IsWordRune(r):
			if start < 0 {
				start = i
			}
		default:
			p.err = fmt.Errorf("formula %q: unexpected character %q at byte %d", p.src, r, i)
			return
		}
	}
	flush(len(p.src))
}

func (p *formulaParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

// maxFormulaDepth bounds parenthesis nesting so parsing cannot exhaust the stack.
const maxFormulaDepth = 100

func (p *formulaParser) parseOr(depth int) *formulaNode {
	n := &formulaNode{op: opOr, kids: []*formulaNode{p.parseAnd(depth)}}
	for p.err == nil && p.peek() == "|" {
		p.i++
		n.kids = append(n.kids, p.parseAnd(depth))
	}
	if len(n.kids) == 1 {
		return n.kids[0]
	}
	return n
}

func (p *formulaParser) parseAnd(depth int) *formulaNode {
	n := &formulaNode{op: opAnd, kids: []*formulaNode{p.parseUnary(depth)}}
	for p.err == nil {
		switch t := p.peek(); {
		case t == "&":
			p.i++
		case t == "" || t == "|" || t == ")":
			if len(n.kids) == 1 {
				return n.kids[0]
			}
			return n
		}
		n.kids = append(n.kids, p.parseUnary(depth))
	}
	return n
}

func (p *formulaParser) parseUnary(depth int) *formulaNode {
	if p.err != nil {
		return nil
	}
	if depth > maxFormulaDepth {
		p.err = fmt.Errorf("formula %q: nested deeper than %d", p.src, maxFormulaDepth)
		return nil
	}
	if p.i >= len(p.toks) {
		p.err = fmt.Errorf("formula %q: ends where a word, ^ or ( was expected", p.src)
		return nil
	}
	t := p.toks[p.i]
	switch t.text {
	case "^":
		p.i++
		k := p.parseUnary(depth + 1)
		return &formulaNode{op: opNot, kids: []*formulaNode{k}}
	case "(":
		p.i++
		n := p.parseOr(depth + 1)
		if p.err != nil {
			return nil
		}
		if p.peek() != ")" {
			p.err = fmt.Errorf("formula %q: missing ) for ( at byte %d", p.src, t.pos)
			return nil
		}
		p.i++
		return n
	case "&", "|", ")":
		p.err = fmt.Errorf("formula %q: unexpected %q at byte %d", p.src, t.text, t.pos)
		return nil
	}
	p.i++
	return &formulaNode{op: opWord, word: t.text}
}
