package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/eval"
)

func init() {
	register(&command{
		name:  "eval",
		short: "extract an annotated dataset and score it against its gold texts",
		run:   runEval,
	})
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", stderr)
	manifest := fs.String("manifest", "", "dataset manifest (TSV: id, site, html_path, gold_path)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pages := fs.Bool("pages", false, "also list every page, failing pages first")
	predictions := fs.String("predictions", "", "write one JSON line per page {id, title, body, text[, error]} to this file")
	db := fs.String("db", "", "also import the dataset into this store `path` (SQLite) and cache tree edit distances there")
	method := fs.String("method", "gleaner", "method: gleaner (learn each site's templates, pair diff against the medoid, cluster vote, single-page fallback) or single (single-page extractor alone)")
	seed := fs.Int64("seed", 1, "`seed` of template learning")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *manifest == "" || fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: --manifest is required and no argument is taken", errUsage)
	}
	opt := eval.Options{Method: *method}
	var timing eval.Timing
	lo := eval.LearnOptions{Cluster: cluster.Options{Seed: *seed}, Timing: &timing}
	if *db != "" {
		st, err := openStore(ctx, *db)
		if err != nil {
			return err
		}
		defer st.Close()
		opt.Store = st
		lo.Cluster.Cache = st
	}
	switch *method {
	case "gleaner":
		opt.Extract = eval.Learned(lo)
	case "single":
		opt.Extract = eval.Single
	default:
		return fmt.Errorf("%w: unknown --method %q (want gleaner or single)", errUsage, *method)
	}
	rep, err := eval.Run(ctx, *manifest, opt)
	if err != nil {
		return err
	}
	if *method == "gleaner" {
		rep.SetTiming(&timing)
	}
	if *predictions != "" {
		f, err := os.Create(*predictions)
		if err != nil {
			return fmt.Errorf("predictions: %w", err)
		}
		if err := rep.WritePredictions(f); err != nil {
			f.Close()
			return fmt.Errorf("predictions %s: %w", *predictions, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("predictions %s: %w", *predictions, err)
		}
	}
	if *asJSON {
		if !*pages {
			rep.Pages = nil
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if err := rep.WriteTables(stdout); err != nil {
		return err
	}

	if *pages {
		fmt.Fprintln(stdout)
		return rep.WritePages(stdout)
	}
	return nil
}
