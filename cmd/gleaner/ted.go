package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/gleaner/gleaner/tedreport"
	"github.com/gleaner/gleaner/treediff"
)

// tedResult is the --mapping and --stats output.
type tedResult = tedreport.Result

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
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
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
		if trees[i], err = tedreport.Read(f, os.Stdin, *bracket, v); err != nil {
			return err
		}
	}
	viewName := v.String()
	if *bracket {
		viewName = ""
	}
	opt := tedreport.Options{Options: treediff.Options{CompareKinds: *kinds, MaxCells: *maxCells, MaxWork: *maxWork}, Mapping: *mapping, Stats: *stats}
	res, err := tedreport.Compute(ctx, trees[0], trees[1], viewName, opt)
	if err != nil {
		return err
	}
	return printTED(stdout, res, *mapping)
}

// printTED prints the distance alone, with its statistics, or the JSON
// of the result with its mapping.
func printTED(stdout io.Writer, res *tedResult, mapping bool) error {
	var err error
	switch {
	case !mapping && res.Stats == nil:
		_, err = fmt.Fprintln(stdout, res.Distance)
	case !mapping:
		_, err = fmt.Fprintf(stdout, "distance\t%d\nnodes\t%d\t%d\ntime_ms\t%.3f\ncpu_ms\t%.3f\npeak_rss_mb\t%.1f\n",
			res.Distance, res.A.Nodes, res.B.Nodes, res.Stats.Millis, res.Stats.CPUMillis, res.Stats.PeakRSSMB)
	default:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		err = enc.Encode(res)
	}
	return err
}
