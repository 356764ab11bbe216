package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/renderbatch"
	"github.com/gleaner/gleaner/store"
)

// renderFlags are the options of gleaner render.
type renderFlags struct {
	db, urlsFile, block, loadMore, screenshots, chromium, siteFrom, dataset *string
	tabs, retries, scroll, clicks                                           *int
	timeout                                                                 *time.Duration
	plain, noBlock, isolate, keepConsent                                    *bool
	record                                                                  *recordFlags
	allow                                                                   listFlag
	region                                                                  []string
	mode                                                                    store.SiteMode
	urls                                                                    []string
}

func parseRenderFlags(args []string, stderr io.Writer) (*renderFlags, error) {
	fs := newFlagSet("render", stderr)
	f := &renderFlags{db: addDBFlag(fs)}
	f.urlsFile = fs.String("urls", "", "read URLs from `file`, one per line (\"-\": standard input), besides the arguments")
	f.tabs = fs.Int("tabs", 2, "pages rendered at once")
	f.timeout = fs.Duration("timeout", 30*time.Second, "hard cap per page; a page still loading then is stored as it is, marked partial")
	f.retries = fs.Int("retries", 1, "retries of a page after the browser crashed")
	f.plain = fs.Bool("plain", false, "plain HTTP fetch, no browser (static pages)")
	f.record = addRecordFlags(fs, "each page (the document and, rendered, its subresources)")
	f.noBlock = fs.Bool("no-block", false, "download images, media and fonts too")
	f.block = fs.String("block", "", "resource `types` not downloaded (Image, Media, Font, Stylesheet; default "+strings.Join(browser.DefaultBlock, ",")+", none with --record-media)")
	f.isolate = fs.Bool("isolate", false, "give every page a browser context of its own (default: the pages of a site share one, cookies included)")
	fs.Bool("share-cookies", true, "the default now (see --isolate); kept for older scripts")
	f.scroll = fs.Int("scroll", 10, "scroll steps for lazy and infinite content (0: none)")
	f.loadMore = fs.String("load-more", "", "CSS `selector` of a \"load more\" control (default: found by its text)")
	f.clicks = fs.Int("load-more-clicks", 5, "clicks on \"load more\" at most (0: none)")
	f.keepConsent = fs.Bool("keep-consent", false, "leave cookie-consent overlays in place")
	f.screenshots = fs.String("screenshots", "", "write a JPEG of each page into `dir`")
	f.chromium = fs.String("chromium", "", "Chromium `binary` (default: $GLEANER_CHROMIUM, chromium on PATH, /usr/bin/chromium)")
	f.siteFrom = fs.String("site-from", "domain", "how a page's site is found: domain (registrable domain) or host")
	f.dataset = fs.String("dataset", "", "dataset `name` to file the pages under (default: none, crawled pages)")
	fs.Var(&f.allow, "allow-host", "allow this private/loopback `host[:port]` (repeatable), as crawl does")
	fs.Func("content-selector", "CSS `selector` of the pages' content region (repeatable, tried in order; a value is one selector or selector list, its commas are CSS's): a page is ready as soon as it shows settled text there, even with requests still in flight; a page where none matches gets the normal wait", func(s string) error {
		if s = strings.TrimSpace(s); s != "" {
			f.region = append(f.region, s)
		}
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner render [flags] URL...\n\nRenders each URL, prints one line per page and stores the pages (rendered DOM,\nstatus, redirects, title, links, layout) in the database. A page that fails is\nstored with its error.\n\nFlags:")
		fs.PrintDefaults()
	}
	urls, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	f.urls = urls
	return f, f.check()
}

// check rejects bad values and flags that do not go together, reads
// --urls and checks every URL.
func (f *renderFlags) check() error {
	var err error
	switch {
	case *f.timeout < 0 || *f.retries < 0:
		return fmt.Errorf("%w: --timeout and --retries must not be negative", errUsage)
	case *f.tabs < 1:
		return fmt.Errorf("%w: --tabs must be at least 1", errUsage)
	case *f.plain && len(f.region) > 0:
		return fmt.Errorf("%w: --content-selector needs the browser (a plain fetch does not wait for anything)", errUsage)
	}
	if f.mode, err = store.ParseSiteMode(*f.siteFrom); err != nil {
		return fmt.Errorf("%w: --site-from: %v", errUsage, err)
	}
	if *f.urlsFile != "" {
		more, err := readURLList(*f.urlsFile)
		if err != nil {
			return err
		}
		f.urls = append(f.urls, more...)
	}
	return f.checkURLs()
}

// checkURLs rejects an empty list and URLs that are not absolute http(s).
func (f *renderFlags) checkURLs() error {
	if len(f.urls) == 0 {
		return fmt.Errorf("%w: no URL to render", errUsage)
	}
	for _, u := range f.urls {
		if _, err := store.SiteOf(u, f.mode); err != nil || !(strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) {
			return fmt.Errorf("%w: %q is not an absolute http(s) URL", errUsage, u)
		}
	}
	return nil
}

// browserOptions are the renderer's options the flags give.
func (f *renderFlags) browserOptions(stderr io.Writer) browser.Options {
	opt := browser.Options{
		ExecPath: *f.chromium, Tabs: *f.tabs, PageTimeout: *f.timeout, Retries: *f.retries,
		Isolate: *f.isolate, Screenshot: *f.screenshots != "", NoBlock: *f.noBlock, Record: f.record.options(),
		Wait: browser.WaitOptions{
			ScrollSteps: orNegative(*f.scroll), LoadMoreSelector: *f.loadMore,
			LoadMoreClicks: orNegative(*f.clicks), KeepConsent: *f.keepConsent,
		},
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) },
	}
	if !*f.noBlock && *f.block != "" {
		opt.Block = eval.SplitList(*f.block)
		opt.NoBlock = len(opt.Block) == 0
	}
	return opt
}

func runRender(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseRenderFlags(args, stderr)
	if err != nil {
		return err
	}
	if *f.screenshots != "" {
		if err := os.MkdirAll(*f.screenshots, 0o755); err != nil {
			return fmt.Errorf("--screenshots: %w", err)
		}
	}
	// The guard of crawl, with its defaults: no private, loopback or
	// link-local target unless allowed.
	fetcher, err := browser.NewFetcher(fetchpolicy.TargetGuard{Allowed: f.allow}, !*f.plain, f.browserOptions(stderr))
	if err != nil {
		return err
	}
	defer fetcher.Close()
	st, err := openStore(ctx, *f.db)
	if err != nil {
		return err
	}
	defer st.Close()
	opt := renderbatch.Options{Workers: *f.tabs, Page: browser.PageOptions{ContentSelectors: f.region}, Dataset: *f.dataset, SiteMode: f.mode}
	n, err := renderbatch.Run(ctx, fetcher, st, f.urls, opt, func(r renderbatch.Result) { f.report(r, stdout, stderr) })
	fmt.Fprintf(stdout, "rendered %d of %d pages (%d partial, %d failed), %d stored in %s\n", len(f.urls)-n.Failed, len(f.urls), n.Partial, n.Failed, n.Stored, *f.db)
	switch {
	case err != nil:
		return err
	case ctx.Err() != nil:
		return ctx.Err()
	case n.Failed > 0:
		return fmt.Errorf("%d of %d pages failed", n.Failed, len(f.urls))
	}
	return st.Close()
}

// report prints one page's line and writes its screenshot.
func (f *renderFlags) report(r renderbatch.Result, stdout, stderr io.Writer) {
	if r.Err != nil {
		fmt.Fprintf(stdout, "ERR   %s: %v\n", r.URL, r.Err)
		return
	}
	p := r.Page
	flag := ""
	if p.Partial {
		flag = " PARTIAL(" + p.PartialReason + ")"
	}
	fmt.Fprintf(stdout, "%d   %s %.1fs %d links%s %q\n", p.Status, p.FinalURL, p.Elapsed.Seconds(), len(p.Links), flag, p.Title)
	if *f.screenshots != "" && len(p.Screenshot) > 0 {
		name := filepath.Join(*f.screenshots, fmt.Sprintf("%04d.jpg", r.Index+1))
		if err := os.WriteFile(name, p.Screenshot, 0o644); err != nil {
			fmt.Fprintf(stderr, "gleaner render: screenshot of %s: %v\n", r.URL, err)
		}
	}
}

// orNegative maps the command's "0 means none" to the options' "negative
// means none".
func orNegative(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

// readURLList reads the URL list of --urls: a file, or standard input
// for "-".
func readURLList(name string) ([]string, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("--urls: %w", err)
		}
		defer f.Close()
		r = f
	}
	urls, err := renderbatch.ReadURLs(r)
	if err != nil {
		return nil, fmt.Errorf("--urls %s: %w", name, err)
	}
	return urls, nil
}
