package heuristics

import (
	"github.com/gleaner/gleaner/treediff"
)

// errNoExact: the exact mapping refused the trees (over its size budget).
var errNoExact = treediff.ErrBudget

// exactOptions is the cost model of the exact mapping: a token never matches
// an element of the same name (the token_kind model of ted-bench).
var exactOptions = treediff.Options{CompareKinds: true}

// exactMapping returns the exact edit mapping of two trees as node pairs
// (both sides non-nil: inserted and deleted nodes are left out).
func exactMapping(a, b *treediff.Tree) ([][2]*treediff.Node, error) {
	_, pairs, err := treediff.Mapping(a, b, exactOptions)
	if err != nil {
		return nil, err
	}
	out := make([][2]*treediff.Node, 0, len(pairs))
	for _, p := range pairs {
		if p.A != nil && p.B != nil {
			out = append(out, [2]*treediff.Node{p.A, p.B})
		}
	}
	return out, nil
}
