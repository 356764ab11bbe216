// Command evalcmp runs Gleaner's extraction and go-trafilatura on the same
// annotated pages in the same run and prints them side by side per site
// (shingle F1, exactitude: share of pages with cos >= 0.9), per source (the
// manifest's era column: F1, precision, recall, exactitude) and pages/s, as
// package eval scores them.
//
// It lives in its own module so that Gleaner's binary does not carry
// go-trafilatura and its dependencies.
//
// Usage:
//
//	go run . --manifest ../../shared/data/big9-dev/manifest.tsv [--methods single,gleaner,trafilatura] [--json]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "evalcmp:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("evalcmp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	manifest := fs.String("manifest", "", "dataset manifest (TSV: id, site, url, html_path, gold_path)")
	methods := fs.String("methods", "single,trafilatura", "comma-separated `methods` to compare: single (Gleaner's single-page extractor), block (its block model alone, no go-trafilatura candidate), gleaner (template learning + pair diff + vote + single-page fallback), trafilatura")
	asJSON := fs.Bool("json", false, "print the reports as JSON")
	bodyOnly := fs.String("body-only", "", "comma-separated `sources` (era column) whose gold has no headline: score their body alone (wide-dev: readability)")
	meta := fs.String("meta", "", "compare metadata (date, author, title) instead, on the pages of these comma-separated page `types` (era column or gold page_type; \"all\" for every page), against the gold meta/<id>.json (see meta.go)")
	pagesOut := fs.String("pages", "", "write every page's extraction and scores, one JSON line per page and method, to `file`")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *manifest == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: --manifest is required and no argument is taken", errUsage)
	}
	if *meta != "" {
		return runMeta(ctx, *manifest, *meta, *asJSON, stdout)
	}
	var ms []string
	for _, m := range strings.Split(*methods, ",") {
		m = strings.TrimSpace(m)
		if _, ok := extractors[m]; !ok {
			return fmt.Errorf("%w: unknown method %q (want single, block, gleaner or trafilatura)", errUsage, m)
		}
		ms = append(ms, m)
	}
	c, err := compare(ctx, *manifest, ms, eval.SplitList(*bodyOnly))
	if err != nil {
		return err
	}
	if *pagesOut != "" {
		if err := c.writePages(*pagesOut); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	return c.write(stdout)
}

// extractors are the methods evalcmp can run; t, when not nil, receives
// the split of Learned's time.
var extractors = map[string]func(t *eval.Timing) eval.SiteExtractor{
	"single":      func(*eval.Timing) eval.SiteExtractor { return eval.Single },
	"gleaner":     func(t *eval.Timing) eval.SiteExtractor { return eval.Learned(eval.LearnOptions{Timing: t}) },
	"trafilatura": func(*eval.Timing) eval.SiteExtractor { return trafilaturaSite },
	"block":       func(*eval.Timing) eval.SiteExtractor { return blockSite },
}

// blockSite runs Gleaner's single-page block model alone, without the
// go-trafilatura candidate (SecondOpinionBelow -1), on each page.
func blockSite(ctx context.Context, site string, docs []eval.Doc) []eval.Outcome {
	out := make([]eval.Outcome, len(docs))
	for i, d := range docs {
		if err := ctx.Err(); err != nil {
			out[i].Err = err
			continue
		}
		t, err := treediff.Parse(d.ID, d.Src, treediff.ParseOptions{})
		if err != nil {
			out[i].Err = fmt.Errorf("page %s: %w", d.ID, err)
			continue
		}
		out[i].Result, out[i].Err = singlepage.ExtractContext(ctx, t, singlepage.Options{Source: d.Src, SecondOpinionBelow: -1})
	}
	return out
}

// comparison holds the reports of one run, one per method, in the order
// asked, and, when the dataset gives snippets (WCXB's meta/<id>.json), each
// method's snippet rates per source ("" for all pages), in the same order.
type comparison struct {
	Reports  []*eval.Report              `json:"reports"`
	Snippets []map[string]snippetSummary `json:"snippets,omitempty"`
	// pages are each report's pages, kept apart for --pages.
	pages [][]eval.PageResult
}

// pageLine is one line of --pages: a page's result under one method.
type pageLine struct {
	Method string `json:"method_run"`
	eval.PageResult
}

// writePages writes every page of every method as JSON lines to path.
func (c *comparison) writePages(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("pages: %w", err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for i, ps := range c.pages {
		for _, p := range ps {
			if err := enc.Encode(pageLine{Method: c.Reports[i].Method, PageResult: p}); err != nil {
				f.Close()
				return fmt.Errorf("pages %s: %w", path, err)
			}
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("pages %s: %w", path, err)
	}
	return nil
}

// snippetSummary is the mean, over the pages that have such phrases, of
// the share of "with" phrases found in the scored text and of "without"
// phrases absent from it (WCXB's snippet checks; higher is better for both).
type snippetSummary struct {
	With        float64 `json:"with"`
	WithPages   int     `json:"with_pages"`
	Without     float64 `json:"without_absent"`
	WithoutPage int     `json:"without_pages"`
}

// loadSnippets reads the snippets of each page from meta/<id>.json beside
// the manifest; none (nil, no error) when that folder is absent.
func loadSnippets(manifest string) (map[string]eval.Snippets, error) {
	dir := filepath.Join(filepath.Dir(manifest), "meta")
	if _, err := os.Stat(dir); err != nil {
		return nil, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("snippets in %s: %w", dir, err)
	}
	out := make(map[string]eval.Snippets, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("snippets: %w", err)
		}
		var s eval.Snippets
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("snippets %s: %w", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = s
	}
	return out, nil
}

// snippetRates averages each page's snippet rates per source and over all
// pages ("").
func snippetRates(pages []eval.PageResult, snip map[string]eval.Snippets) map[string]snippetSummary {
	out := map[string]snippetSummary{}
	for _, p := range pages {
		s, ok := snip[p.ID]
		if !ok {
			continue
		}
		found, absent, okWith, okWithout := eval.SnippetRates(p.Text, s)
		for _, key := range []string{"", p.Source} {
			row := out[key]
			if okWith {
				row.With += found
				row.WithPages++
			}
			if okWithout {
				row.Without += absent
				row.WithoutPage++
			}
			out[key] = row
		}
	}
	for k, row := range out {
		row.With /= max(1, float64(row.WithPages))
		row.Without /= max(1, float64(row.WithoutPage))
		out[k] = row
	}
	return out
}

func compare(ctx context.Context, manifest string, methods []string, bodyOnly []string) (*comparison, error) {
	c := &comparison{}
	snip, err := loadSnippets(manifest)
	if err != nil {
		return nil, err
	}
	for _, m := range methods {
		var t eval.Timing
		r, err := eval.Run(ctx, manifest, eval.Options{Extract: extractors[m](&t), Method: m, BodyOnly: bodyOnly})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m, err)
		}
		if m == "gleaner" {
			r.SetTiming(&t)
		}
		if snip != nil {
			c.Snippets = append(c.Snippets, snippetRates(r.Pages, snip))
		}
		c.pages = append(c.pages, r.Pages)
		r.Pages = nil
		c.Reports = append(c.Reports, r)
	}
	return c, nil
}

// trafilaturaSite runs go-trafilatura on each page, configured as the
// scrapinghub article-extraction-benchmark runs it (fallback extractors on),
// on the same decoded text Gleaner parses. The scored text is its content
// (ContentText) alone, as that benchmark scores it: adding its metadata
// title scores lower on big9-dev (F1 0.938 against 0.941), the title often
// carrying the site's name.
func trafilaturaSite(ctx context.Context, site string, docs []eval.Doc) []eval.Outcome {
	out := make([]eval.Outcome, len(docs))
	for i, d := range docs {
		if err := ctx.Err(); err != nil {
			out[i].Err = err
			continue
		}
		out[i].Result, out[i].Err = trafilaturaDoc(d)
	}
	return out
}

func trafilaturaDoc(d eval.Doc) (singlepage.Result, error) {
	text, _, err := treediff.Decode(d.Src, "")
	if err != nil {
		return singlepage.Result{}, fmt.Errorf("page %s: %w", d.ID, err)
	}
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return singlepage.Result{}, fmt.Errorf("page %s: %w", d.ID, err)
	}
	r, err := trafilatura.ExtractDocument(doc, trafilatura.Options{EnableFallback: true})
	if err != nil {
		return singlepage.Result{}, fmt.Errorf("page %s: trafilatura: %w", d.ID, err)
	}
	res := singlepage.Result{
		Body:   strings.TrimSpace(r.ContentText),
		Method: "trafilatura",
		Author: r.Metadata.Author,
	}
	if !r.Metadata.Date.IsZero() {
		res.Date = r.Metadata.Date.Format("2006-01-02")
	}
	return res, nil
}

// write prints the per-site table (F1 and exactitude of each method), the
// per-source table when the manifest names sources (F1, precision, recall
// and exactitude of each method), then each method's pages/s.
func (c *comparison) write(w io.Writer) error {
	if len(c.Reports) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if err := c.writeSites(&buf); err != nil {
		return err
	}
	if len(c.Reports[0].Sources) > 0 {
		fmt.Fprintln(&buf)
		if err := c.writeSources(&buf); err != nil {
			return err
		}
	}
	fmt.Fprintln(&buf)
	for _, r := range c.Reports {
		fmt.Fprintf(&buf, "%s: %.1f pages/s (%d pages, parsing included)", r.Method, r.PagesPerSecond, r.Overall.Pages)
		if r.LearnSeconds > 0 || r.LocateSeconds > 0 {
			fmt.Fprintf(&buf, "; template learning %.1fs, locating content %.1f pages/s", r.LearnSeconds, float64(r.Overall.Pages)/max(r.LocateSeconds, 1e-9))
		}
		fmt.Fprintln(&buf)
	}
	fmt.Fprintln(&buf)
	if err := c.writeCalibration(&buf); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// writeCalibration prints each method's calibration table (confidence
// decile: pages, mean word F1) side by side.
func (c *comparison) writeCalibration(w io.Writer) error {
	names := make([]string, len(c.Reports))
	cals := make([]eval.Calibration, len(c.Reports))
	for i, r := range c.Reports {
		names[i], cals[i] = r.Method, r.Calibration
	}
	return eval.WriteCalibrationSideBySide(w, names, cals...)
}

// column is one measure of a summary, printed for each method.
type column struct {
	name string
	val  func(eval.Summary) string
}

var (
	wordColumn  = column{"wordF1", func(s eval.Summary) string { return fmt.Sprintf("%.3f", s.WordF1) }}
	f1Column    = column{"F1", func(s eval.Summary) string { return fmt.Sprintf("%.3f", s.F1) }}
	precColumn  = column{"P", func(s eval.Summary) string { return fmt.Sprintf("%.3f", s.Precision) }}
	recColumn   = column{"R", func(s eval.Summary) string { return fmt.Sprintf("%.3f", s.Recall) }}
	exactColumn = column{"exact", func(s eval.Summary) string { return fmt.Sprintf("%.1f%%", 100*s.Exactitude) }}
)

// table prints rows of summaries, one per method, under the columns.
func (c *comparison) table(w io.Writer, key string, names []string, rows func(i int) []eval.Summary, cols []column) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tpages\t", key)
	for _, col := range cols {
		for _, r := range c.Reports {
			fmt.Fprintf(tw, "%s %s\t", col.name, r.Method)
		}
	}
	fmt.Fprintln(tw)
	for i, name := range names {
		ss := rows(i)
		fmt.Fprintf(tw, "%s\t%d\t", name, ss[0].Pages)
		for _, col := range cols {
			for _, s := range ss {
				fmt.Fprintf(tw, "%s\t", col.val(s))
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// writeSites prints F1 and exactitude per site and overall.
func (c *comparison) writeSites(w io.Writer) error {
	sites := c.Reports[0].Sites
	names := make([]string, 0, len(sites)+1)
	for _, s := range sites {
		names = append(names, s.Site)
	}
	names = append(names, "overall")
	return c.table(w, "site", names, func(i int) []eval.Summary {
		var ss []eval.Summary
		for _, r := range c.Reports {
			if i < len(sites) {
				ss = append(ss, r.Sites[i].Summary)
			} else {
				ss = append(ss, r.Overall)
			}
		}
		return ss
	}, []column{wordColumn, f1Column, exactColumn})
}

// writeSources prints, per source and for all pages, WCXB's word F1, the
// shingle F1, precision, recall and exactitude, and, when the dataset gives
// snippets, the share of "with" phrases found and of "without" phrases
// absent, each for every method.
func (c *comparison) writeSources(w io.Writer) error {
	sources := c.Reports[0].Sources
	cols := []column{wordColumn, f1Column, precColumn, recColumn, exactColumn}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "source\tpages\t")
	for _, col := range cols {
		for _, r := range c.Reports {
			fmt.Fprintf(tw, "%s %s\t", col.name, r.Method)
		}
	}
	if len(c.Snippets) > 0 {
		for _, name := range []string{"with", "without"} {
			for _, r := range c.Reports {
				fmt.Fprintf(tw, "%s %s\t", name, r.Method)
			}
		}
	}
	fmt.Fprintln(tw)
	for i := 0; i <= len(sources); i++ {
		name, key := "overall", ""
		if i < len(sources) {
			name, key = sources[i].Source, sources[i].Source
		}
		var ss []eval.Summary
		for _, r := range c.Reports {
			if i < len(sources) {
				ss = append(ss, r.Sources[i].Summary)
			} else {
				ss = append(ss, r.Overall)
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t", name, ss[0].Pages)
		for _, col := range cols {
			for _, s := range ss {
				fmt.Fprintf(tw, "%s\t", col.val(s))
			}
		}
		for _, without := range []bool{false, true} {
			for _, m := range c.Snippets {
				v := m[key].With
				if without {
					v = m[key].Without
				}
				fmt.Fprintf(tw, "%.1f%%\t", 100*v)
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
