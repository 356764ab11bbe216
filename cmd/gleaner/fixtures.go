package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/netguard"
)

// fixturesUsage is the usage text of gleaner fixtures.
//
//go:embed usage/fixtures.txt
var fixturesUsage string

func runFixtures(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, fixturesUsage)
		if len(args) == 0 {
			return fmt.Errorf("%w: a subcommand is required (serve or manifest)", errUsage)
		}
		return nil
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "replay":
		return runReplay(ctx, rest, os.Stdin, stdout, stderr)
	case "serve":
		return runFixturesServe(ctx, newFixtureFlags(sub, stderr), rest, stdout)
	case "manifest":
		return runFixturesManifest(ctx, newFixtureFlags(sub, stderr), rest, stdout, stderr)
	}
	return fmt.Errorf("%w: unknown subcommand %q (serve, manifest or replay)", errUsage, sub)
}

// fixtureFlags are the flags of the generated web shared by fixtures
// serve and manifest.
type fixtureFlags struct {
	fs          *flag.FlagSet
	seed        *int64
	articles    *int
	distinct    *bool
	slow, delay *time.Duration
}

func newFixtureFlags(sub string, stderr io.Writer) *fixtureFlags {
	fs := newFlagSet("fixtures "+sub, stderr)
	fs.Usage = func() { fmt.Fprint(stderr, fixturesUsage) }
	return &fixtureFlags{fs: fs,
		seed:     fs.Int64("seed", 1, "seed of the generated web"),
		articles: fs.Int("articles", 160, "articles per site"),
		distinct: fs.Bool("distinct-ips", false, "one loopback address per site (127.0.0.10-13)"),
		slow:     fs.Duration("slow", 400*time.Millisecond, "delay of the slow resources (0: none)"),
		delay:    fs.Duration("crawl-delay", time.Second, "Crawl-delay declared by two sites' robots.txt (0: none)"),
	}
}

// options are the web's options, its first site on addr.
func (f *fixtureFlags) options(addr string) fixtures.Options {
	o := fixtures.Options{Seed: *f.seed, Addr: addr, Articles: *f.articles, DistinctIPs: *f.distinct, Slow: *f.slow, CrawlDelay: *f.delay}
	if o.Slow == 0 {
		o.Slow = -1
	}
	if o.CrawlDelay == 0 {
		o.CrawlDelay = -1
	}
	return o
}

// runFixturesServe serves the fixture web until interrupted.
func runFixturesServe(ctx context.Context, f *fixtureFlags, args []string, stdout io.Writer) error {
	addr := f.fs.String("addr", "127.0.0.1:0", "address of the first site")
	manifest := f.fs.String("manifest", "", "also write the manifest of the served URLs to this folder")
	logHits := f.fs.Bool("log", false, "print one line per request")
	if err := f.fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if f.fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, f.fs.Arg(0))
	}
	opts := f.options(*addr)
	if *logHits {
		opts.OnHit = hitLogger(stdout)
	}
	srv, err := fixtures.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	printSites(stdout, srv.Web)
	if *manifest != "" {
		n, err := srv.WriteManifest(*manifest, fixtures.ManifestOptions{})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "manifest: %d article pages in %s\n", n, *manifest)
	}
	fmt.Fprintf(stdout, "serving seed %d; interrupt to stop\n", *f.seed)
	<-ctx.Done()
	return srv.Close()
}

// hitLogger prints one line per request to w.
func hitLogger(w io.Writer) func(fixtures.Hit) {
	var mu sync.Mutex
	return func(h fixtures.Hit) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "%s %-9s %d %5.0fms %s %q\n", h.Start.Format("15:04:05.000"), h.Site, h.Status,
			float64(h.End.Sub(h.Start).Microseconds())/1000, h.Path, h.UserAgent)
	}
}

// runFixturesManifest writes the fixture web's manifest, its pages as
// served or as Chromium renders them.
func runFixturesManifest(ctx context.Context, f *fixtureFlags, args []string, stdout, stderr io.Writer) error {
	addr := f.fs.String("addr", "127.0.0.1:8700", "address the sites will be served on (fixed port)")
	out := f.fs.String("out", "", "output folder (required)")
	perSite := f.fs.Int("per-site", 0, "at most this many article pages per site (0: all)")
	rendered := f.fs.Bool("rendered", false, "write the DOM Chromium renders instead of the served HTML")
	tabs := f.fs.Int("tabs", 2, "with --rendered: pages rendered at once")
	timeout := f.fs.Duration("timeout", 30*time.Second, "with --rendered: cap per page")
	if err := f.fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *out == "" || f.fs.NArg() > 0 {
		return fmt.Errorf("%w: --out DIR is required and no argument is taken", errUsage)
	}
	mo := fixtures.ManifestOptions{PerSite: *perSite}
	if !*rendered {
		return writeServedManifest(f, *addr, *out, mo, stdout)
	}
	srv, r, err := startRendering(ctx, f.options(*addr), *tabs, *timeout, stderr)
	if err != nil {
		return err
	}
	defer srv.Close()
	defer r.Close()
	mo.Workers = *tabs
	mo.Render = func(a *fixtures.Article, url string) ([]byte, error) {
		p, err := r.Fetch(ctx, url)
		if err != nil {
			return nil, err
		}
		if p.Partial {
			fmt.Fprintf(stderr, "gleaner fixtures: %s: partial render (%s)\n", a.ID, p.PartialReason)
		}
		return []byte(p.HTML), nil
	}
	start := time.Now()
	n, err := srv.WriteManifest(*out, mo)
	if err != nil {
		return err
	}
	printSites(stdout, srv.Web)
	fmt.Fprintf(stdout, "manifest: %d rendered article pages in %s (%.1fs)\n", n, *out, time.Since(start).Seconds())
	return nil
}

// writeServedManifest writes the manifest of the pages as the sites on
// addr serve them, without serving them.
func writeServedManifest(f *fixtureFlags, addr, out string, mo fixtures.ManifestOptions, stdout io.Writer) error {
	bases, err := fixtures.BaseURLs(addr, *f.distinct)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	w, err := fixtures.New(f.options(addr), bases)
	if err != nil {
		return err
	}
	start := time.Now()
	n, err := w.WriteManifest(out, mo)
	if err != nil {
		return err
	}
	printSites(stdout, w)
	fmt.Fprintf(stdout, "manifest: %d article pages in %s (%.1fs); serve them with: gleaner fixtures serve --seed %d --articles %d --addr %s%s\n",
		n, out, time.Since(start).Seconds(), *f.seed, *f.articles, addr, map[bool]string{true: " --distinct-ips"}[*f.distinct])
	return nil
}

// startRendering serves the sites and starts Chromium for --rendered,
// guarded: it may reach the fixture sites' hosts on loopback, nothing else
// there.
func startRendering(ctx context.Context, opts fixtures.Options, tabs int, timeout time.Duration, stderr io.Writer) (*fixtures.Server, browser.ClosingFetcher, error) {
	srv, err := fixtures.Start(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	r, err := browser.NewFetcher(netguard.Policy{Allowed: srv.Hosts()}, true, browser.Options{Tabs: tabs, PageTimeout: timeout,
		Logf: func(format string, args ...any) { fmt.Fprintf(stderr, "gleaner fixtures: "+format+"\n", args...) }})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return srv, r, nil
}

func printSites(w io.Writer, web *fixtures.Web) {
	for _, s := range web.Sites {
		lang := string(s.Lang)
		if lang == "" {
			lang = "en,fr,de"
		}
		fmt.Fprintf(w, "%-10s %s/  (%s, %d articles)\n", s.Name, s.Base, lang, len(s.Articles))
		fmt.Fprintf(w, "           %s: %s\n", s.Title, strings.Join(s.Behaviours, "; "))
	}
}
