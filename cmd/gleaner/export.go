package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/gleaner/gleaner/atomicfile"
	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/store"
)

// openForExport opens an existing database read-only (export only reads,
// so a database it may not write is fine), and a missing one as usual.
func openForExport(ctx context.Context, path string) (store.Store, error) {
	if _, err := os.Stat(path); err != nil {
		return openStore(ctx, path)
	}
	return store.OpenReadOnly(ctx, path)
}

// runExport is "gleaner export": a corpus, or "export pack".
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "pack" {
		return runExportPack(ctx, args[1:], stdout, stderr)
	}
	return runExportCorpus(ctx, args, stdout, stderr)
}

// runExportCorpus writes the corpus formats of the store's pages.
func runExportCorpus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", stderr)
	db := addDBFlag(fs)
	cf := addChainFlags(fs)
	formats := fs.String("format", "", "comma-separated `formats`: conllu, vertical, tei, jsonl, warc, wacz, graph, terms, matrix, or all")
	waczText := fs.Bool("wacz-text", false, "put each page's extracted text in the WACZ's pages/pages.jsonl (full-text search in replay tools)")
	digest := fs.String("warc-digest", "sha256", "digest `algorithm` of WARC records: sha256 or sha1")
	out := fs.String("out", "", "output `folder` (created if missing)")
	site := fs.String("site", "", "export only this `site`")
	runID := fs.Int64("run", 0, "export the extractions of this learning `run` (default: each page's latest)")
	gold := fs.Bool("gold", false, "export the pages' gold annotations instead of extractions")
	limit := fs.Int("limit", 0, "stop after `N` pages (0: all)")
	sf := addSelectFlags(fs)
	fs.Usage = func() { exportUsage(fs, stderr) }
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	fl, err := checkExportFlags(fs, *out, *formats, *digest)
	if err != nil {
		return err
	}
	opt := export.CorpusOptions{Formats: fl, Site: *site, RunID: *runID, Gold: *gold, Limit: *limit, Progress: stderr, Workers: *cf.workers,
		WACZ: export.WACZOptions{Text: *waczText, WARC: export.WARCOptions{Software: "gleaner", Digest: *digest}}}
	if err := sf.check(opt); err != nil {
		return err
	}
	c, err := cf.newChain()
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := sf.open(ctx, *db, &opt)
	if err != nil {
		return err
	}
	defer st.Close()
	var stats *export.CorpusStats
	var tmpDir string
	err = atomicfile.IntoFolder(*out, func(tmp string) error {
		tmpDir = tmp
		opt.Out = tmp
		stats, err = export.Corpus(ctx, st, c, opt)
		return err
	})
	if err != nil {
		return err
	}
	printExportStats(stdout, stats, tmpDir, *out)
	return nil
}

// exportUsage prints the command's usage, its formats and its flags.
func exportUsage(fs *flag.FlagSet, stderr io.Writer) {
	fmt.Fprintln(stderr, "Usage: gleaner export --db D --format F[,F…] --out DIR [--site S] [--run R] [--gold] [--crawl NAME [--kind K] [--min-relevance X]]\n"+
		"       gleaner export --db D --format F[,F…] --out DIR --monitor NAME [--round R] [--site HOST] [--lang L] [--since T] [--until T]\n"+
		"       gleaner export pack --out FILE.wacz WARC.gz...   (WARC files as they are in one WACZ)\n\n"+
		"Runs the linguistic chain over the extracted pages of the store (or those of a crawl,\n"+
		"or a monitor's selected documents) and writes:")
	for _, k := range slices.Sorted(maps.Keys(export.Formats)) {
		fmt.Fprintf(stderr, "  %-9s %s\n", k, export.Formats[k])
	}
	fmt.Fprintln(stderr, "\nFlags:")
	fs.PrintDefaults()
}

// checkExportFlags rejects arguments and missing or bad values, and
// returns the formats.
func checkExportFlags(fs *flag.FlagSet, out, formats, digest string) ([]string, error) {
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	if out == "" || formats == "" {
		return nil, fmt.Errorf("%w: give --format and --out", errUsage)
	}
	fl, err := export.ParseFormats(formats)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if digest != "sha256" && digest != "sha1" {
		return nil, fmt.Errorf("%w: --warc-digest %q: want sha256 or sha1", errUsage, digest)
	}
	return fl, nil
}

// printExportStats prints what an export wrote: counts, languages,
// taggers, and the files, written into tmpDir and moved into out.
func printExportStats(stdout io.Writer, stats *export.CorpusStats, tmpDir, out string) {
	secs := stats.Elapsed.Seconds()
	fmt.Fprintf(stdout, "exported %d documents, %d tokens, %d link edges in %.1fs (%.1f docs/s)\n", stats.Documents, stats.Tokens, stats.Edges, secs, float64(stats.Documents)/max(secs, 1e-9))
	printDocumentCounts(stdout, "languages", stats.Languages)
	printDocumentCounts(stdout, "taggers", stats.Taggers)
	for _, f := range stats.Files {
		if rel, err := filepath.Rel(tmpDir, f); err == nil {
			f = filepath.Join(out, rel)
		}
		fmt.Fprintln(stdout, "  wrote", f)
	}
	if stats.Uncaptured > 0 {
		fmt.Fprintf(stdout, "  note: %d of %d pages were not recorded when fetched (recording off, or imported): the archive holds their rendered DOM"+
			" as resource records, not the pages as served; fetch with recording on (crawl, render, monitor record by default) for captures\n",
			stats.Uncaptured, stats.Documents)
	}
}

// printDocumentCounts prints the documents per key of what, by key.
func printDocumentCounts(stdout io.Writer, what string, counts map[string]int) {
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(stdout, "  %s: %s: %d documents\n", what, cmp.Or(k, "(not identified)"), counts[k])
	}
}
