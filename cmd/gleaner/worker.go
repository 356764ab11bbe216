package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/store"
)

// workerUsage is the usage text of gleaner worker.
//
//go:embed usage/worker.txt
var workerUsage string

// workerFlags are the flags of gleaner worker.
type workerFlags struct {
	db, crawl, chromium string
	workers, tabs       int
	plain, exitIdle     bool
	poll                time.Duration
}

func runWorker(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("worker", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, workerUsage); fs.PrintDefaults() }
	var f workerFlags
	fs.StringVar(&f.db, "db", defaultDB, "database: a postgres:// URL shared by the workers (or a SQLite `path`, workers on this machine)")
	fs.StringVar(&f.crawl, "crawl", "", "work on this crawl `name` only (default: every running crawl)")
	fs.IntVar(&f.workers, "workers", 0, "pages this process fetches at once (default: the crawl's)")
	fs.BoolVar(&f.plain, "plain", false, "plain HTTP fetch, no browser (static sites)")
	fs.IntVar(&f.tabs, "tabs", 2, "browser tabs (pages rendered at once)")
	fs.StringVar(&f.chromium, "chromium", "", "Chromium `binary`")
	fs.BoolVar(&f.exitIdle, "exit-idle", false, "without --crawl: exit when no crawl is running")
	fs.DurationVar(&f.poll, "poll", 5*time.Second, "without --crawl: how often to look for running crawls")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 || f.workers < 0 || f.tabs < 1 || f.poll <= 0 {
		return fmt.Errorf("%w: worker takes no argument; --workers must not be negative, --tabs and --poll positive", errUsage)
	}
	st, err := store.Open(ctx, f.db)
	if err != nil {
		return err
	}
	defer st.Close()
	if f.crawl != "" {
		return workOn(ctx, st, f, f.crawl, stdout, stderr)
	}
	return workOnAll(ctx, st, f, stdout, stderr)
}

// workOnAll joins every running crawl, each in its own goroutine, until ctx
// ends (or, with --exit-idle, until none is running).
func workOnAll(ctx context.Context, st *store.DB, f workerFlags, stdout, stderr io.Writer) error {
	work := func(ctx context.Context, name string) error { return workOn(ctx, st, f, name, stdout, stderr) }
	return crawler.WorkOnRunning(ctx, st, f.poll, f.exitIdle, work, func(err error) { fmt.Fprintf(stderr, "gleaner worker: %v\n", err) })
}

// workOn runs this process as a worker of crawl name until it stops.
func workOn(ctx context.Context, st *store.DB, f workerFlags, name string, stdout, stderr io.Writer) error {
	cfg, err := crawler.StoredConfig(ctx, st, name)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no crawl named %q in %s (start it with gleaner crawl)", name, f.db)
	}
	if err != nil {
		return err
	}
	opt := crawler.JoinOptions{Workers: f.workers,
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, name+": "+format+"\n", a...) }}
	if !f.plain {
		r, err := cfg.Renderer(f.chromium, f.tabs, opt.Logf)
		if err != nil {
			return err
		}
		defer r.Close()
		opt.Fetcher = r
		if opt.Workers == 0 {
			opt.Workers = f.tabs
		}
	}
	c, err := crawler.Join(ctx, st, name, opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "worker of crawl %s (db %s)\n", name, f.db)
	sum, runErr := c.Run(ctx)
	printCrawlSummary(stdout, sum)
	return sum.Err(name, runErr)
}
