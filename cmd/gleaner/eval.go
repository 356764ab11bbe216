package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/sitelearn"
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
	bodyOnly := fs.String("body-only", "", "comma-separated `sources` (era column) whose gold has no headline: score their body alone (wide-dev: readability)")
	pages := fs.Bool("pages", false, "also list every page, failing pages first")
	predictions := fs.String("predictions", "", "write one JSON line per page {id, source, title, body, date (ISO 8601), author, text[, error], method, confidence, page_type} to this `file`")
	db := fs.String("db", "", "also import the dataset into this store `path` (SQLite) and cache tree edit distances there")
	method := fs.String("method", "gleaner", "method: gleaner (learn each site's templates, pair diff against the medoid, cluster vote, single-page fallback) or single (single-page extractor alone)")
	seed := fs.Int64("seed", 1, "`seed` of template learning")
	compare := fs.String("compare", "", "also run this `extractor` on the same pages and print both side by side (trafilatura: go-trafilatura, through the "+evalcmpName+" program built from the evalcmp module)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *manifest == "" || fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: --manifest is required and no argument is taken", errUsage)
	}
	switch *compare {
	case "":
	case "trafilatura":
		if *method != "gleaner" && *method != "single" {
			return fmt.Errorf("%w: unknown --method %q (want gleaner or single)", errUsage, *method)
		}
		cargs := []string{"--manifest", *manifest, "--methods", *method + ",trafilatura"}
		if *asJSON {
			cargs = append(cargs, "--json")
		}
		return runEvalcmp(ctx, cargs, stdout, stderr)
	default:
		return fmt.Errorf("%w: unknown --compare %q (want trafilatura)", errUsage, *compare)
	}
	opt := eval.Options{Method: *method, BodyOnly: eval.SplitList(*bodyOnly)}
	var timing eval.Timing
	lo := eval.LearnOptions{Cluster: cluster.Options{Seed: *seed}, Timing: &timing}
	if *db != "" {
		st, err := openStore(ctx, *db)
		if err != nil {
			return err
		}
		defer st.Close()
		opt.Store = st
		lo.Cluster.Cache = sitelearn.Cache(st)
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
	fmt.Fprintln(stdout)
	if err := eval.WriteCalibration(stdout, rep.Calibration); err != nil {
		return err
	}

	if *pages {
		fmt.Fprintln(stdout)
		return rep.WritePages(stdout)
	}
	return nil
}

// evalcmpName is the program, built from the separate evalcmp module, that
// runs go-trafilatura beside Gleaner: the dependency stays out of this
// binary.
const evalcmpName = "gleaner-evalcmp"

// runEvalcmp runs gleaner-evalcmp, found next to this executable or on the
// PATH, with args.
func runEvalcmp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	path := ""
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), evalcmpName); isExecutable(p) {
			path = p
		}
	}
	if path == "" {
		p, err := exec.LookPath(evalcmpName)
		if err != nil {
			return fmt.Errorf("--compare trafilatura needs the %s program (go-trafilatura is kept out of gleaner): build it with\n  (cd evalcmp && go build -o ../bin/%s .)\nand put it next to gleaner or on the PATH: %w", evalcmpName, evalcmpName, err)
		}
		path = p
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", evalcmpName, err)
	}
	return nil
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}
