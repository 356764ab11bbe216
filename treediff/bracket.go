package treediff

import (
	"fmt"
	"strings"
)

// ParseBracket reads a tree in bracket notation, {label child1 child2 …} with
// no separators, e.g. {html{head{title{Hello}}}{body}}: the format of the
// ted-bench reference pairs. A '\' in a label escapes the next byte (so
// labels may hold '{', '}' and '\'). Nodes are of kind Element; reading never
// recurses, so depth is unbounded.
func ParseBracket(name, s string) (*Tree, error) {
	s = strings.TrimSpace(s)
	t := &Tree{Name: name}
	var stack []*Node
	i := 0
	for i < len(s) {
		switch s[i] {
		case '{':
			label, j := readLabel(s, i+1)
			var parent *Node
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			} else if t.Root != nil {
				return nil, fmt.Errorf("tree %s: byte %d: a second root", name, i)
			}
			n := &Node{Kind: Element, Label: label, Parent: parent, Offset: i}
			t.add(n)
			stack = append(stack, n)
			i = j
		case '}':
			if len(stack) == 0 {
				return nil, fmt.Errorf("tree %s: byte %d: unbalanced '}'", name, i)
			}
			stack = stack[:len(stack)-1]
			i++
		default:
			return nil, fmt.Errorf("tree %s: byte %d: expected '{' or '}', found %q", name, i, s[i])
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("tree %s: %d unclosed '{' at end of input", name, len(stack))
	}
	if t.Root == nil {
		return nil, fmt.Errorf("tree %s: %w", name, ErrEmpty)
	}
	return t, nil
}

// readLabel reads the label starting at s[i], up to the next unescaped
// '{' or '}', and returns it unescaped with the index where it ends.
func readLabel(s string, i int) (string, int) {
	j := i
	escaped := false
	for j < len(s) && s[j] != '{' && s[j] != '}' {
		if s[j] == '\\' && j+1 < len(s) {
			escaped = true
			j++
		}
		j++
	}
	if escaped {
		return unescapeLabel(s[i:j]), j
	}
	return s[i:j], j
}

// Bracket writes the tree in bracket notation (see ParseBracket), escaping
// '{', '}' and '\' in labels with '\'; Text nodes are skipped.
func (t *Tree) Bracket() string {
	var b strings.Builder
	type frame struct {
		n    *Node
		exit bool
	}
	stack := []frame{{t.Root, false}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.exit {
			b.WriteByte('}')
			continue
		}
		if f.n.Kind == Text {
			continue
		}
		b.WriteByte('{')
		writeLabel(&b, f.n.Label)
		stack = append(stack, frame{f.n, true})
		for i := len(f.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{f.n.Children[i], false})
		}
	}
	return b.String()
}

func writeLabel(b *strings.Builder, label string) {
	if !strings.ContainsAny(label, "{}\\") {
		b.WriteString(label)
		return
	}
	for i := 0; i < len(label); i++ {
		if c := label[i]; c == '{' || c == '}' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(label[i])
	}
}

func unescapeLabel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
