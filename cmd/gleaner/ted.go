package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/treediff"
)

func init() {
	register(&command{
		name:  "ted",
		short: "tree edit distance (and edit mapping) between two HTML pages or bracket trees",
		run:   runTED,
	})
}

// tedNode is one side of a mapping pair in the JSON output.
type tedNode struct {
	Index int    `json:"index"` // preorder rank in its tree
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Path  string `json:"path"`
}

type tedPair struct {
	Op string   `json:"op"` // match, rename, delete, insert
	A  *tedNode `json:"a,omitempty"`
	B  *tedNode `json:"b,omitempty"`
}

type tedTree struct {
	Name  string `json:"name"`
	Nodes int    `json:"nodes"`
}

type tedStats struct {
	// Millis and CPUMillis time the distance or mapping computation alone
	// (wall clock, and CPU time, which shared machines disturb less).
	Millis    float64 `json:"millis"`
	CPUMillis float64 `json:"cpu_millis"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
}

type tedResult struct {
	Distance int       `json:"distance"`
	View     string    `json:"view,omitempty"`
	A        tedTree   `json:"a"`
	B        tedTree   `json:"b"`
	Stats    *tedStats `json:"stats,omitempty"`
	Mapping  []tedPair `json:"mapping,omitempty"`
}

func runTED(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ted", stderr)
	bracket := fs.Bool("bracket", false, "inputs are trees in bracket notation ({html{body{p}}}, as in ted-bench), not HTML")
	view := fs.String("view", "tag", "tree `view` of HTML inputs: tag (elements) or token (elements and words)")
	kinds := fs.Bool("kinds", false, "a word never matches an element of the same label (compare node kinds)")
	mapping := fs.Bool("mapping", false, "print the edit mapping as JSON")
	stats := fs.Bool("stats", false, "add node counts, computation time and peak memory")
	maxCells := fs.Int64("max-cells", treediff.DefaultMaxCells, "size budget: largest product of the two trees' node counts")
	maxWork := fs.Int64("max-work", treediff.DefaultMaxWork, "time budget: largest number of subproblems computed")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner ted [flags] A B\n\nPrints the unit-cost tree edit distance between A and B (HTML files, or\nbracket trees with --bracket; - reads standard input). With --mapping, prints\nJSON with the edit mapping: every node of A and B once, op match, rename,\ndelete or insert, each node with its preorder index, label and path.\n\nFlags:")
		fs.PrintDefaults()
	}
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0)) // flags may follow the files
		args = fs.Args()[1:]
	}
	if len(files) != 2 {
		return fmt.Errorf("%w: want two inputs A B, got %d", errUsage, len(files))
	}
	v, err := treediff.ParseView(*view)
	if err != nil {
		return fmt.Errorf("%w: --view: %v", errUsage, err)
	}
	var trees [2]*treediff.Tree
	for i, f := range files {
		if trees[i], err = readTEDInput(f, *bracket, v); err != nil {
			return err
		}
	}
	opt := treediff.Options{CompareKinds: *kinds, MaxCells: *maxCells, MaxWork: *maxWork}
	res := tedResult{
		A: tedTree{trees[0].Name, trees[0].Len()},
		B: tedTree{trees[1].Name, trees[1].Len()},
	}
	if !*bracket {
		res.View = v.String()
	}
	start, cpuStart := time.Now(), cpuTime()
	var pairs []treediff.Pair
	if *mapping {
		res.Distance, pairs, err = treediff.Mapping(trees[0], trees[1], opt)
	} else {
		res.Distance, err = treediff.Distance(trees[0], trees[1], opt)
	}
	if err != nil {
		return err
	}
	elapsed, cpu := time.Since(start), cpuTime()-cpuStart
	if err := ctx.Err(); err != nil {
		return err
	}
	if *stats {
		res.Stats = &tedStats{Millis: ms(elapsed), CPUMillis: ms(cpu), PeakRSSMB: peakRSSMB()}
	}
	if !*mapping {
		if !*stats {
			_, err = fmt.Fprintln(stdout, res.Distance)
			return err
		}
		_, err = fmt.Fprintf(stdout, "distance\t%d\nnodes\t%d\t%d\ntime_ms\t%.3f\ncpu_ms\t%.3f\npeak_rss_mb\t%.1f\n",
			res.Distance, res.A.Nodes, res.B.Nodes, res.Stats.Millis, res.Stats.CPUMillis, res.Stats.PeakRSSMB)
		return err
	}
	res.Mapping = make([]tedPair, len(pairs))
	for i, p := range pairs {
		res.Mapping[i] = tedPair{Op: p.Op(opt), A: jsonNode(p.A), B: jsonNode(p.B)}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	return enc.Encode(res)
}

func jsonNode(n *treediff.Node) *tedNode {
	if n == nil {
		return nil
	}
	return &tedNode{Index: n.Index, Kind: n.Kind.String(), Label: n.Label, Path: n.Path()}
}

// readTEDInput reads one tree: a bracket tree as is, or an HTML page in view v.
func readTEDInput(name string, bracket bool, v treediff.View) (*treediff.Tree, error) {
	var src []byte
	var err error
	if name == "-" {
		src, err = dataset.ReadPageFrom(os.Stdin, treediff.DefaultMaxBytes)
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

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// cpuTime is the user and system CPU time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSSMB is the peak resident memory of this process so far (Linux
// reports ru_maxrss in KiB).
func peakRSSMB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}
