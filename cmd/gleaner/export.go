package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/store"
)

func init() {
	register(&command{
		name:  "export",
		short: "write the extracted pages as a corpus: CoNLL-U, vertical, TEI, JSONL, WARC, link graph, terms, matrix",
		run:   runExport,
	})
}

// openForExport opens an existing database read-only (export only reads,
// so a database it may not write is fine), and a missing one as usual.
func openForExport(ctx context.Context, path string) (store.Store, error) {
	if _, err := os.Stat(path); err != nil {
		return openStore(ctx, path)
	}
	return store.OpenReadOnly(ctx, path)
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner export --db D --format F[,F…] --out DIR [--site S] [--run R] [--gold] [--crawl NAME [--kind K] [--min-relevance X]]\n"+
			"       gleaner export --db D --format F[,F…] --out DIR --monitor NAME [--round R] [--site HOST] [--lang L] [--since T] [--until T]\n\n"+
			"Runs the linguistic chain over the extracted pages of the store (or those of a crawl,\n"+
			"or a monitor's selected documents) and writes:")
		names := make([]string, 0, len(export.Formats))
		for k := range export.Formats {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(stderr, "  %-9s %s\n", k, export.Formats[k])
		}
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	if *out == "" || *formats == "" {
		return fmt.Errorf("%w: give --format and --out", errUsage)
	}
	fl, err := export.ParseFormats(*formats)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *digest != "sha256" && *digest != "sha1" {
		return fmt.Errorf("%w: --warc-digest %q: want sha256 or sha1", errUsage, *digest)
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
	err = intoFolderAtomic(*out, func(tmp string) error {
		tmpDir = tmp
		opt.Out = tmp
		stats, err = export.Corpus(ctx, st, c, opt)
		return err
	})
	if err != nil {
		return err
	}
	secs := stats.Elapsed.Seconds()
	fmt.Fprintf(stdout, "exported %d documents, %d tokens, %d link edges in %.1fs (%.1f docs/s)\n", stats.Documents, stats.Tokens, stats.Edges, secs, float64(stats.Documents)/max(secs, 1e-9))
	for _, m := range []struct {
		name string
		m    map[string]int
	}{{"languages", stats.Languages}, {"taggers", stats.Taggers}} {
		keys := make([]string, 0, len(m.m))
		for k := range m.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			name := k
			if name == "" {
				name = "(not identified)"
			}
			fmt.Fprintf(stdout, "  %s: %s: %d documents\n", m.name, name, m.m[k])
		}
	}
	for _, f := range stats.Files {
		// The files were written into a temporary folder, then moved.
		if rel, err := filepath.Rel(tmpDir, f); err == nil {
			f = filepath.Join(*out, rel)
		}
		fmt.Fprintln(stdout, "  wrote", f)
	}
	return nil
}
