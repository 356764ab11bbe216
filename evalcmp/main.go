// Command evalcmp runs Gleaner's extraction and go-trafilatura on the same
// annotated pages in the same run and prints both side by side per site:
// shingle F1, exactitude (share of pages with cos >= 0.9) and pages/s.
//
// It lives in its own module so that Gleaner's binary does not carry
// go-trafilatura and its dependencies.
//
// Usage:
//
//	go run . --manifest ../../shared/data/big9-dev/manifest.tsv [--json]
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
	"strings"
	"text/tabwriter"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/heuristics"
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
	manifest := fs.String("manifest", "", "dataset manifest (TSV: id, site, html_path, gold_path)")
	asJSON := fs.Bool("json", false, "print both reports as JSON")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *manifest == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: --manifest is required and no argument is taken", errUsage)
	}
	c, err := compare(ctx, *manifest)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	return c.write(stdout)
}

// comparison holds the two reports of one run.
type comparison struct {
	Gleaner     *eval.Report `json:"gleaner"`
	Trafilatura *eval.Report `json:"trafilatura"`
}

func compare(ctx context.Context, manifest string) (*comparison, error) {
	g, err := eval.Run(ctx, manifest, eval.Options{})
	if err != nil {
		return nil, fmt.Errorf("gleaner: %w", err)
	}
	tr, err := eval.Run(ctx, manifest, eval.Options{Extract: trafilaturaSite})
	if err != nil {
		return nil, fmt.Errorf("trafilatura: %w", err)
	}
	g.Pages, tr.Pages = nil, nil
	return &comparison{Gleaner: g, Trafilatura: tr}, nil
}

// trafilaturaSite runs go-trafilatura on each page, configured as the
// scrapinghub article-extraction-benchmark runs it (fallback extractors on),
// on the same decoded text Gleaner parses.
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

func trafilaturaDoc(d eval.Doc) (heuristics.Result, error) {
	text, _, err := treediff.Decode(d.Src, "")
	if err != nil {
		return heuristics.Result{}, fmt.Errorf("page %s: %w", d.ID, err)
	}
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return heuristics.Result{}, fmt.Errorf("page %s: %w", d.ID, err)
	}
	r, err := trafilatura.ExtractDocument(doc, trafilatura.Options{EnableFallback: true})
	if err != nil {
		return heuristics.Result{}, fmt.Errorf("page %s: trafilatura: %w", d.ID, err)
	}
	return heuristics.Result{
		Title:  strings.TrimSpace(r.Metadata.Title),
		Body:   strings.TrimSpace(r.ContentText),
		Method: "trafilatura",
		Date:   r.Metadata.Date.Format("2006-01-02"),
		Author: r.Metadata.Author,
	}, nil
}

// write prints one table: per site, F1 and exactitude of both extractors.
func (c *comparison) write(w io.Writer) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "site\tpages\tF1 gleaner\tF1 trafilatura\texact gleaner\texact trafilatura\tcos gleaner\tcos trafilatura\t\n")
	row := func(name string, g, t eval.Summary) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.1f%%\t%.1f%%\t%.3f\t%.3f\t\n", name, g.Pages, g.F1, t.F1, 100*g.Exactitude, 100*t.Exactitude, g.MeanCos, t.MeanCos)
	}
	tsites := map[string]eval.Summary{}
	for _, s := range c.Trafilatura.Sites {
		tsites[s.Site] = s.Summary
	}
	for _, s := range c.Gleaner.Sites {
		row(s.Site, s.Summary, tsites[s.Site])
	}
	row("overall", c.Gleaner.Overall, c.Trafilatura.Overall)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&buf, "\npages/s: gleaner %.1f, trafilatura %.1f (%d pages, parsing included)\n",
		c.Gleaner.PagesPerSecond, c.Trafilatura.PagesPerSecond, c.Gleaner.Overall.Pages)
	_, err := w.Write(buf.Bytes())
	return err
}
