package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/netguard"
)

func init() {
	register(&command{
		name:  "fixtures",
		short: "serve the generated fixture news sites, or export their gold as a manifest",
		run:   runFixtures,
	})
}

const fixturesUsage = `Usage:
  gleaner fixtures serve [--addr 127.0.0.1:0] [--seed N] [--articles N] [--distinct-ips] [--manifest DIR] [--log]
                        [--slow 400ms] [--crawl-delay 1s]
      serve the fixture sites until interrupted; prints one base URL per site
  gleaner fixtures manifest --out DIR [--addr 127.0.0.1:8700] [--seed N] [--articles N] [--per-site N] [--distinct-ips]
      write DIR/manifest.tsv, html/, gold/ and relevance.tsv for "gleaner eval --manifest";
      the URLs are those "gleaner fixtures serve" uses with the same --addr and --seed
  gleaner fixtures replay --manifest M.tsv [--per-round 5] [--min-pages 1] [--shuffle N] [--every 0] [--rounds 0]
      serve an annotated dataset's pages as live sites on 127.0.0.1, one port per site, at their
      original URL paths, with a home page, an RSS feed and a sitemap; each round publishes
      --per-round more pages per site: every --every, or at each line read on stdin (--every 0);
      --rounds N stops publishing after N rounds

Site i listens on the port of --addr plus i (a random port each when the port is 0),
or on 127.0.0.(10+i) with --distinct-ips.
`

func runFixtures(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, fixturesUsage)
		if len(args) == 0 {
			return fmt.Errorf("%w: a subcommand is required (serve or manifest)", errUsage)
		}
		return nil
	}
	sub, rest := args[0], args[1:]
	if sub == "replay" {
		return runReplay(ctx, rest, os.Stdin, stdout, stderr)
	}
	fs := newFlagSet("fixtures "+sub, stderr)
	fs.Usage = func() { fmt.Fprint(stderr, fixturesUsage) }
	seed := fs.Int64("seed", 1, "seed of the generated web")
	articles := fs.Int("articles", 160, "articles per site")
	distinct := fs.Bool("distinct-ips", false, "one loopback address per site (127.0.0.10-13)")
	slow := fs.Duration("slow", 400*time.Millisecond, "delay of the slow resources (0: none)")
	delay := fs.Duration("crawl-delay", time.Second, "Crawl-delay declared by two sites' robots.txt (0: none)")
	options := func(addr string) fixtures.Options {
		o := fixtures.Options{Seed: *seed, Addr: addr, Articles: *articles, DistinctIPs: *distinct, Slow: *slow, CrawlDelay: *delay}
		if o.Slow == 0 {
			o.Slow = -1
		}
		if o.CrawlDelay == 0 {
			o.CrawlDelay = -1
		}
		return o
	}
	switch sub {
	case "serve":
		addr := fs.String("addr", "127.0.0.1:0", "address of the first site")
		manifest := fs.String("manifest", "", "also write the manifest of the served URLs to this folder")
		logHits := fs.Bool("log", false, "print one line per request")
		if err := fs.Parse(rest); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() > 0 {
			return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
		}
		opts := options(*addr)
		if *logHits {
			var mu sync.Mutex
			opts.OnHit = func(h fixtures.Hit) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintf(stdout, "%s %-9s %d %5.0fms %s %q\n", h.Start.Format("15:04:05.000"), h.Site, h.Status,
					float64(h.End.Sub(h.Start).Microseconds())/1000, h.Path, h.UserAgent)
			}
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
		fmt.Fprintf(stdout, "serving seed %d; interrupt to stop\n", *seed)
		<-ctx.Done()
		return srv.Close()
	case "manifest":
		addr := fs.String("addr", "127.0.0.1:8700", "address the sites will be served on (fixed port)")
		out := fs.String("out", "", "output folder (required)")
		perSite := fs.Int("per-site", 0, "at most this many article pages per site (0: all)")
		rendered := fs.Bool("rendered", false, "write the DOM Chromium renders instead of the served HTML")
		tabs := fs.Int("tabs", 2, "with --rendered: pages rendered at once")
		timeout := fs.Duration("timeout", 30*time.Second, "with --rendered: cap per page")
		if err := fs.Parse(rest); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if *out == "" || fs.NArg() > 0 {
			return fmt.Errorf("%w: --out DIR is required and no argument is taken", errUsage)
		}
		opts := options(*addr)
		mo := fixtures.ManifestOptions{PerSite: *perSite}
		var w *fixtures.Web
		if *rendered {
			srv, r, err := startRendering(ctx, opts, *tabs, *timeout, stderr)
			if err != nil {
				return err
			}
			defer srv.Close()
			defer r.Close()
			w = srv.Web
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
		} else {
			bases, err := fixtures.BaseURLs(*addr, *distinct)
			if err != nil {
				return fmt.Errorf("%w: %v", errUsage, err)
			}
			if w, err = fixtures.New(opts, bases); err != nil {
				return err
			}
		}
		start := time.Now()
		n, err := w.WriteManifest(*out, mo)
		if err != nil {
			return err
		}
		printSites(stdout, w)
		if *rendered {
			fmt.Fprintf(stdout, "manifest: %d rendered article pages in %s (%.1fs)\n", n, *out, time.Since(start).Seconds())
			return nil
		}
		fmt.Fprintf(stdout, "manifest: %d article pages in %s (%.1fs); serve them with: gleaner fixtures serve --seed %d --articles %d --addr %s%s\n",
			n, *out, time.Since(start).Seconds(), *seed, *articles, *addr, map[bool]string{true: " --distinct-ips"}[*distinct])
		return nil
	}
	return fmt.Errorf("%w: unknown subcommand %q (serve, manifest or replay)", errUsage, sub)
}

// startRendering serves the sites and starts Chromium for --rendered,
// guarded: it may reach the fixture sites' hosts on loopback, nothing else
// there.
func startRendering(ctx context.Context, opts fixtures.Options, tabs int, timeout time.Duration, stderr io.Writer) (*fixtures.Server, browser.ClosingFetcher, error) {
	srv, err := fixtures.Start(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	var policy netguard.Policy
	for _, s := range srv.Sites {
		u, err := url.Parse(s.Base)
		if err != nil {
			srv.Close()
			return nil, nil, fmt.Errorf("fixture site %s: %w", s.Base, err)
		}
		policy.Allowed = append(policy.Allowed, u.Host)
	}
	r, err := browser.NewFetcher(policy, true, browser.Options{Tabs: tabs, PageTimeout: timeout,
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
