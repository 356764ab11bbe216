// Package tedreport computes the tree edit distance between two pages or
// bracket trees as "gleaner ted" reports it: the inputs read (HTML in a
// tree view, or bracket notation), the distance or the edit mapping with
// each node's index, kind, label and path, and what computing it took
// (wall clock, CPU time, peak memory).
package tedreport

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/process"
	"github.com/gleaner/gleaner/treediff"
)

// Node is one side of a mapping pair.
type Node struct {
	Index int    `json:"index"` // preorder rank in its tree
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Path  string `json:"path"`
}

// Pair is one pair of the edit mapping.
type Pair struct {
	Op string `json:"op"` // match, rename, delete, insert
	A  *Node  `json:"a,omitempty"`
	B  *Node  `json:"b,omitempty"`
}

// Tree names an input and counts its nodes.
type Tree struct {
	Name  string `json:"name"`
	Nodes int    `json:"nodes"`
}

// Stats are what the computation took.
type Stats struct {
	// Millis and CPUMillis time the distance or mapping computation alone
	// (wall clock, and CPU time, which shared machines disturb less).
	Millis    float64 `json:"millis"`
	CPUMillis float64 `json:"cpu_millis"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
}

// Result is the distance between two trees, with their mapping and the
// statistics when asked.
type Result struct {
	Distance int    `json:"distance"`
	View     string `json:"view,omitempty"` // of HTML inputs
	A        Tree   `json:"a"`
	B        Tree   `json:"b"`
	Stats    *Stats `json:"stats,omitempty"`
	Mapping  []Pair `json:"mapping,omitempty"`
}

// Options choose what Compute computes.
type Options struct {
	treediff.Options
	Mapping bool // the edit mapping too
	Stats   bool // time and memory
}

// Compute computes the distance of a and b (and their mapping, and
// statistics, as opt asks); view names the view of HTML inputs ("" for
// bracket trees).
func Compute(ctx context.Context, a, b *treediff.Tree, view string, opt Options) (*Result, error) {
	res := &Result{A: Tree{a.Name, a.Len()}, B: Tree{b.Name, b.Len()}, View: view}
	start, cpuStart := time.Now(), process.CPU()
	var pairs []treediff.Pair
	var err error
	if opt.Mapping {
		res.Distance, pairs, err = treediff.Mapping(a, b, opt.Options)
	} else {
		res.Distance, err = treediff.Distance(a, b, opt.Options)
	}
	if err != nil {
		return nil, err
	}
	elapsed, cpu := time.Since(start), process.CPU()-cpuStart
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.Stats {
		res.Stats = &Stats{Millis: ms(elapsed), CPUMillis: ms(cpu), PeakRSSMB: float64(process.PeakRSS()) / (1 << 20)}
	}
	if opt.Mapping {
		res.Mapping = make([]Pair, len(pairs))
		for i, p := range pairs {
			res.Mapping[i] = Pair{Op: p.Op(opt.Options), A: node(p.A), B: node(p.B)}
		}
	}
	return res, nil
}

func node(n *treediff.Node) *Node {
	if n == nil {
		return nil
	}
	return &Node{Index: n.Index, Kind: n.Kind.String(), Label: n.Label, Path: n.Path()}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Read reads one tree from file name (or r when name is "-"): a bracket
// tree as is, or an HTML page in view v.
func Read(name string, r io.Reader, bracket bool, v treediff.View) (*treediff.Tree, error) {
	var src []byte
	var err error
	if name == "-" {
		src, err = dataset.ReadPageFrom(r, treediff.DefaultMaxBytes)
	} else {
		src, err = dataset.ReadPage(name, treediff.DefaultMaxBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if bracket {
		return treediff.ParseBracket(name, strings.TrimSpace(string(src)))
	}
	t, err := treediff.Parse(name, src, treediff.ParseOptions{})
	if err != nil {
		return nil, err
	}
	return t.View(v), nil
}
