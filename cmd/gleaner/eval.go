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

// evalFlags are the options of gleaner eval.
type evalFlags struct {
	manifest, bodyOnly, predictions, db, method, compare *string
	asJSON, pages                                        *bool
	seed                                                 *int64
}

func parseEvalFlags(args []string, stderr io.Writer) (*evalFlags, error) {
	fs := newFlagSet("eval", stderr)
	f := &evalFlags{
		manifest:    fs.String("manifest", "", "dataset manifest (TSV: id, site, html_path, gold_path)"),
		asJSON:      fs.Bool("json", false, "print the report as JSON"),
		bodyOnly:    fs.String("body-only", "", "comma-separated `sources` (era column) whose gold has no headline: score their body alone (wide-dev: readability)"),
		pages:       fs.Bool("pages", false, "also list every page, failing pages first"),
		predictions: fs.String("predictions", "", "write one JSON line per page {id, source, title, body, date (ISO 8601), author, text[, error], method, confidence, page_type} to this `file`"),
		db:          fs.String("db", "", "also import the dataset into this store `path` (SQLite) and cache tree edit distances there"),
		method:      fs.String("method", "gleaner", "method: gleaner (learn each site's templates, pair diff against the medoid, cluster vote, single-page fallback) or single (single-page extractor alone)"),
		seed:        fs.Int64("seed", 1, "`seed` of template learning"),
		compare:     fs.String("compare", "", "also run this `extractor` on the same pages and print both side by side (trafilatura: go-trafilatura, through the "+evalcmpName+" program built from the evalcmp module)"),
	}
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, err)
	}
	if *f.manifest == "" || fs.NArg() > 0 {
		fs.Usage()
		return nil, fmt.Errorf("%w: --manifest is required and no argument is taken", errUsage)
	}
	switch {
	case *f.method != "gleaner" && *f.method != "single":
		return nil, fmt.Errorf("%w: unknown --method %q (want gleaner or single)", errUsage, *f.method)
	case *f.compare != "" && *f.compare != "trafilatura":
		return nil, fmt.Errorf("%w: unknown --compare %q (want trafilatura)", errUsage, *f.compare)
	}
	return f, nil
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseEvalFlags(args, stderr)
	if err != nil {
		return err
	}
	if *f.compare == "trafilatura" {
		cargs := []string{"--manifest", *f.manifest, "--methods", *f.method + ",trafilatura"}
		if *f.asJSON {
			cargs = append(cargs, "--json")
		}
		return runEvalcmp(ctx, cargs, stdout, stderr)
	}
	opt := eval.Options{Method: *f.method, BodyOnly: eval.SplitList(*f.bodyOnly)}
	var timing eval.Timing
	lo := eval.LearnOptions{Cluster: cluster.Options{Seed: *f.seed}, Timing: &timing}
	if *f.db != "" {
		st, err := openStore(ctx, *f.db)
		if err != nil {
			return err
		}
		defer st.Close()
		opt.Store = st
		lo.Cluster.Cache = sitelearn.Cache(st)
	}
	opt.Extract = eval.Single
	if *f.method == "gleaner" {
		opt.Extract = eval.Learned(lo)
	}
	rep, err := eval.Run(ctx, *f.manifest, opt)
	if err != nil {
		return err
	}
	if *f.method == "gleaner" {
		rep.SetTiming(&timing)
	}
	if err := writePredictions(rep, *f.predictions); err != nil {
		return err
	}
	return printEvalReport(stdout, rep, *f.asJSON, *f.pages)
}

// writePredictions writes the report's predictions to path ("" for none).
func writePredictions(rep *eval.Report, path string) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("predictions: %w", err)
	}
	if err := rep.WritePredictions(f); err != nil {
		f.Close()
		return fmt.Errorf("predictions %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("predictions %s: %w", path, err)
	}
	return nil
}

// printEvalReport prints the report: as JSON (its pages with pages), or
// its tables and calibration (and its pages with pages).
func printEvalReport(stdout io.Writer, rep *eval.Report, asJSON, pages bool) error {
	if asJSON {
		if !pages {
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
	if pages {
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
