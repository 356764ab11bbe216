// Command fitconfidence fits Gleaner's page type classifier and its
// calibrated confidence on annotated datasets, cross-validated by site, and
// writes them as pagetype/pagetype_model.go and
// singlepage/calibrate_model.go.
//
// It extracts every page with Gleaner's full method (eval.Learned: the
// site's templates learned, pair diff, rules, single page with
// go-trafilatura's second opinion), keeps each page's evidence
// (singlepage.Evidence) and the word F1 of its scored text against the
// gold, then
//
//   - fits a multinomial logistic regression of the page type (the
//     manifest's era, where it is one of pagetype.Types) on
//     pagetype.Features, and reports its accuracy and confusion
//     matrix over folds that never split a site;
//   - fits a logistic regression of the word F1 on the evidence (with the
//     page type probabilities of the fold's own classifier), then an
//     isotonic map of its score to the F1 (fitted on the scores the pages
//     get from the regression fitted without their sites), and reports per dataset the
//     calibration table (confidence decile: pages, mean word F1) and the
//     share of pages at confidence ≥ 0.9 with word F1 ≥ 0.8, before (the
//     methods' own confidence) and after (the held-out fold's calibrated
//     confidence);
//   - fits both on all pages and writes the two files.
//
// Rerun it, from the repository root, whenever the extraction changes:
//
//	go run ./heuristics/internal/fitconfidence \
//	  --manifest ../shared/data/wcxb-dev/manifest.tsv \
//	  --manifest ../shared/data/wide-dev/manifest.tsv \
//	  --manifest ../shared/data/big9-dev/manifest.tsv \
//	  --body-only article,service,forum,product,collection,listing,documentation,readability \
//	  --article-sources dragnet,l3s-gn1 --records /tmp/fitconfidence.jsonl
//
// --records caches the extraction (rerun with --reuse to fit again without
// extracting; the extraction of each manifest can run apart, in parallel,
// into its own file, with --write=false so that a run on one set does not
// write models fitted on that set alone (the page type model it writes would
// change the next set's extraction), and --reuse --records a.jsonl,b.jsonl
// fit on all).
//
// With --chooser it fits instead the single-page method's chooser between
// its own body and the candidates (singlepage.Choices: go-trafilatura's
// body and the fusion of the two; per candidate a logistic regression of
// "the candidate's word F1 beats the base's", each page weighed by the
// difference, taken over its own bar, --above) and writes
// singlepage/choose_model.go; it reports per set and source the mean word
// F1 of the block model, the base (with its units), the fixed rule,
// go-trafilatura alone, the fusion alone, the chooser (held-out folds by
// site, and in-sample) and each page's best candidate. Run it first when the block model changes, then the command
// above (the calibration weighs the chosen bodies):
//
//	go run ./heuristics/internal/fitconfidence --chooser \
//	  --manifest ../shared/data/wcxb-dev/manifest.tsv \
//	  --manifest ../shared/data/wide-dev/manifest.tsv \
//	  --manifest ../shared/data/big9-dev/manifest.tsv \
//	  --body-only article,service,forum,product,collection,listing,documentation,readability \
//	  --records /tmp/chooser.jsonl
//
// Each body is scored twice: as found, and as the page ends with it
// (singlepage.Choice.Settled: an article's closing bio left out, a body
// barely found read again from <noscript>, with hidden boxes shown, from a
// thread's description), which is what evalcmp measures. The report gives
// the settled scores when the records hold them (written since session
// 13), and the column "shipped" is the chooser as built
// (choose_model.go) on them; the chooser is fitted on the scores as found
// unless --labels settled. --chooser-l2 sets its regressions' L2 penalty.
//
// The chooser's records keep the base's and each candidate's body:
// --reuse --text-evidence plain (or article) adds to the recorded
// evidence what the two bodies' lines tell (textevidence.go) and reports
// the held-out figures without writing a model, to try such evidence in
// seconds before putting it in singlepage's Candidate.Features.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/singlepage"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fitconfidence:", err)
		os.Exit(1)
	}
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// record is one page's extraction as the fit needs it.
type record struct {
	Set    string              `json:"set"`
	ID     string              `json:"id"`
	Site   string              `json:"site"`
	Era    string              `json:"era"`
	F1     float64             `json:"f1"`
	Err    string              `json:"err,omitempty"`
	Ev     singlepage.Evidence `json:"evidence"`
	Method string              `json:"method"`
	// Body is the extracted body, kept to read its shape again
	// (singlepage.ReadShape) when that changes.
	Body string `json:"body,omitempty"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fitconfidence", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var manifests listFlag
	fs.Var(&manifests, "manifest", "dataset `manifest` (repeatable)")
	bodyOnly := fs.String("body-only", "", "comma-separated `sources` (era column) scored on the body alone")
	recordsPath := fs.String("records", "", "cache of the extraction records (JSONL) `file` (with --reuse: comma-separated files)")
	reuse := fs.Bool("reuse", false, "read --records instead of extracting")
	out := fs.String("out", ".", "repository `root` under which the generated model files are written (pagetype/, singlepage/)")
	folds := fs.Int("folds", 5, "cross-validation `folds` (by site)")
	write := fs.Bool("write", true, "write the model files")
	articles := fs.String("article-sources", "", "comma-separated `sources` (era column) whose pages are all articles: page type training examples")
	articleWeight := fs.Float64("article-weight", 0.25, "`weight` of an article source's page in the page type fit (a typed page weighs 1)")
	heldOut := fs.String("held-out", "", "write each page's held-out calibrated confidence and page type (JSONL) to this `file`")
	chooser := fs.Bool("chooser", false, "fit the single-page chooser (singlepage/choose_model.go) on the pages' candidates instead")
	textEv := fs.String("text-evidence", "", "with --chooser: add the bodies' text evidence (`mode` plain or article) to the recorded features, report only (nothing written)")
	candidates := fs.String("candidates", singlepage.CandidateTrafilatura+","+singlepage.CandidateFused, "comma-separated `names` of the candidates the chooser may take (with --chooser)")
	above := fs.String("above", "0.65,0.85", "comma-separated `probabilities` over which the chooser takes each candidate of --candidates, in order (the last for the rest; with --chooser)")
	l2 := fs.Float64("chooser-l2", l2Choice, "L2 `penalty` of the chooser's regressions (with --chooser)")
	labels := fs.String("labels", "raw", "with --chooser: the bodies' `scores` the chooser is fitted on, raw (as found) or settled (as the page ends with them; reported so when the records hold them)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *chooser {
		if *labels != "raw" && *labels != "settled" {
			return fmt.Errorf("--labels %q: want raw or settled", *labels)
		}
		bars, err := parseFloats(*above)
		if err != nil {
			return fmt.Errorf("--above: %w", err)
		}
		return runChooser(ctx, chooserArgs{manifests: manifests, bodyOnly: eval.SplitList(*bodyOnly), records: *recordsPath,
			reuse: *reuse, folds: *folds, out: *out, write: *write && *textEv == "", names: eval.SplitList(*candidates), above: bars,
			textEvidence: *textEv, l2: *l2, labels: *labels}, stdout, stderr)
	}
	recs, err := loadRecords(ctx, *reuse, *recordsPath, manifests, eval.SplitList(*bodyOnly), stderr)
	if err != nil {
		return err
	}
	f := fitter{recs: recs, folds: *folds, articleSources: eval.SplitList(*articles), articleWeight: *articleWeight}
	pt, err := f.pageTypes(stdout)
	if err != nil {
		return err
	}
	cal := f.calibration(stdout)
	if *heldOut != "" {
		if err := f.writeHeldOut(*heldOut); err != nil {
			return err
		}
	}
	if !*write {
		return nil
	}
	if err := writeGo(filepath.Join(*out, "pagetype", "pagetype_model.go"), pt.goSource()); err != nil {
		return err
	}
	return writeGo(filepath.Join(*out, "singlepage", "calibrate_model.go"), cal.goSource())
}

// loadRecords reads the records (reuse) from the comma-separated files
// records, or extracts them from the manifests and writes them there.
func loadRecords(ctx context.Context, reuse bool, records string, manifests, bodyOnly []string, stderr io.Writer) ([]record, error) {
	if reuse {
		var recs []record
		var err error
		for _, path := range eval.SplitList(records) {
			rs, rerr := readRecords(path)
			recs, err = append(recs, rs...), errors.Join(err, rerr)
		}
		for i := range recs {
			if recs[i].Body != "" {
				recs[i].Ev.Shape = singlepage.ReadShape(recs[i].Body)
			}
		}
		return recs, err
	}
	recs, err := extractAll(ctx, manifests, bodyOnly, stderr)
	if err == nil && records != "" {
		err = writeRecords(records, recs)
	}
	return recs, err
}

// extractAll extracts every page of the manifests with eval.Learned.
func extractAll(ctx context.Context, manifests, bodyOnly []string, stderr io.Writer) ([]record, error) {
	if len(manifests) == 0 {
		return nil, errors.New("no --manifest given")
	}
	var recs []record
	for _, m := range manifests {
		set := filepath.Base(filepath.Dir(m))
		ds, err := eval.LoadDataset(m)
		if err != nil {
			return nil, err
		}
		gold := map[string]string{}
		for _, p := range ds.Pages {
			gold[p.ID] = p.Gold
		}
		rep, err := eval.Run(ctx, m, eval.Options{BodyOnly: bodyOnly})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m, err)
		}
		for _, p := range rep.Pages {
			r := record{Set: set, ID: p.ID, Site: set + "/" + p.Site, Era: p.Source, Err: p.Err, Method: p.Method, Body: p.Body,
				F1: singlepage.WordOverlap(p.Text, gold[p.ID])}
			if p.Evidence != nil {
				r.Ev = *p.Evidence
			}
			recs = append(recs, r)
		}
		fmt.Fprintf(stderr, "%s: %d pages extracted in %.0fs\n", set, len(rep.Pages), rep.Seconds)
	}
	slices.SortFunc(recs, func(a, b record) int { return strings.Compare(a.Set+a.ID, b.Set+b.ID) })
	return recs, nil
}

func writeRecords(path string, recs []record) error { return writeJSONL(path, recs) }

func readRecords(path string) ([]record, error) { return readJSONL[record](path) }

// writeJSONL writes recs to path, one JSON value a line.
func writeJSONL[T any](path string, recs []T) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return fmt.Errorf("records %s: %w", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("records %s: %w", path, err)
	}
	return f.Close()
}

// readJSONL reads the JSON values, one a line, of path.
func readJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	defer f.Close()
	var recs []T
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		var r T
		if err := dec.Decode(&r); errors.Is(err, io.EOF) {
			return recs, nil
		} else if err != nil {
			return nil, fmt.Errorf("records %s: %w", path, err)
		}
		recs = append(recs, r)
	}
}

// foldOf is a site's fold among folds (dataset.SiteFold): a site's pages
// are always held out together.
func foldOf(site string, folds int) int { return dataset.SiteFold(site, folds) }

// heldOut is one page's held-out outcome (--held-out).
type heldOut struct {
	Set        string  `json:"set"`
	ID         string  `json:"id"`
	Era        string  `json:"era"`
	Method     string  `json:"method"`
	PageType   string  `json:"page_type"`
	Raw        float64 `json:"raw"`
	Agreement  float64 `json:"agreement"`
	Confidence float64 `json:"confidence"`
	F1         float64 `json:"f1"`
}

func (f *fitter) writeHeldOut(path string) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("held-out: %w", err)
	}
	enc := json.NewEncoder(out)
	for i, r := range f.recs {
		h := heldOut{Set: r.Set, ID: r.ID, Era: r.Era, Method: r.Method, Raw: r.Ev.Raw, Agreement: r.Ev.Agreement,
			Confidence: f.held[i], F1: r.F1}
		if f.typeProbs[i] != nil {
			h.PageType = pagetype.Types[argmax(f.typeProbs[i])]
		}
		if err := enc.Encode(h); err != nil {
			out.Close()
			return fmt.Errorf("held-out %s: %w", path, err)
		}
	}
	return out.Close()
}

// parseFloats reads comma-separated numbers.
func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range eval.SplitList(s) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", s, err)
		}
		out = append(out, v)
	}
	return out, nil
}
