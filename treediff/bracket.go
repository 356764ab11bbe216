package treediff

import (
	"fmt"
	"strings"
)

// ParseBracket reads a tree in bracket notation, {label child1 child2 …} with
// no separators, e.g. {html{head{title{Hello}}}{body}}: the format of the
// ted-bench reference pairs. Labels hold no '{', '}' or '\'. Nodes are of kind
// Element; reading never recurses, so depth is unbounded.
func ParseBracket(name, s string) (*Tree, error) {
	s = strings.TrimSpace(s)
	t := &Tree{Name: name}
	var stack []*Node
	i := 0
	for i < len(s) {
		switch s[i] {
		case '{':
			j := i + 1
			for j < len(s) && s[j] != '{' && s[j] != '}' {
				j++
			}
			var parent *Node
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			} else if t.Root != nil {
				return nil, fmt.Errorf("tree %s: byte %d: a second root", name, i)
			}
			n := &Node{Kind: Element, Label: s[i+1 : j], Parent: parent, Offset: i}
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

// Bracket writes the tree in bracket notation (see ParseBracket). Token labels
// are written as they are; Text nodes are skipped.
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
		b.WriteString(f.n.Label)
		stack = append(stack, frame{f.n, true})
		for i := len(f.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{f.n.Children[i], false})
		}
	}
	return b.String()
}
