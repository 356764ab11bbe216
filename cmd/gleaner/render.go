package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/store"
)

func init() {
	register(&command{
		name:  "render",
		short: "render pages in headless Chromium and store them with their capture data",
		run:   runRender,
	})
}

func runRender(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("render", stderr)
	db := addDBFlag(fs)
	urlsFile := fs.String("urls", "", "read URLs from `file`, one per line (\"-\": standard input), besides the arguments")
	tabs := fs.Int("tabs", 2, "pages rendered at once")
	timeout := fs.Duration("timeout", 30*time.Second, "hard cap per page; a page still loading then is stored as it is, marked partial")
	retries := fs.Int("retries", 1, "retries of a page after the browser crashed")
	plain := fs.Bool("plain", false, "plain HTTP fetch, no browser (static pages)")
	record := fs.Bool("record", false, "keep each page's HTTP exchanges as served (HTTPS included), for export --format warc,wacz")
	noBlock := fs.Bool("no-block", false, "download images, media and fonts too")
	block := fs.String("block", strings.Join(browser.DefaultBlock, ","), "resource `types` not downloaded (Image, Media, Font, Stylesheet)")
	isolate := fs.Bool("isolate", false, "give every page a browser context of its own (default: the pages of a site share one, cookies included)")
	fs.Bool("share-cookies", true, "the default now (see --isolate); kept for older scripts")
	scroll := fs.Int("scroll", 10, "scroll steps for lazy and infinite content (0: none)")
	loadMore := fs.String("load-more", "", "CSS `selector` of a \"load more\" control (default: found by its text)")
	clicks := fs.Int("load-more-clicks", 5, "clicks on \"load more\" at most (0: none)")
	keepConsent := fs.Bool("keep-consent", false, "leave cookie-consent overlays in place")
	screenshots := fs.String("screenshots", "", "write a JPEG of each page into `dir`")
	chromium := fs.String("chromium", "", "Chromium `binary` (default: $GLEANER_CHROMIUM, chromium on PATH, /usr/bin/chromium)")
	siteFrom := fs.String("site-from", "domain", "how a page's site is found: domain (registrable domain) or host")
	dataset := fs.String("dataset", "", "dataset `name` to file the pages under (default: none, crawled pages)")
	var allow listFlag
	fs.Var(&allow, "allow-host", "allow this private/loopback `host[:port]` (repeatable), as crawl does")
	var region []string
	fs.Func("content-selector", "CSS `selector` of the pages' content region (repeatable, tried in order; a value is one selector or selector list, its commas are CSS's): a page is ready as soon as it shows settled text there, even with requests still in flight; a page where none matches gets the normal wait", func(s string) error {
		if s = strings.TrimSpace(s); s != "" {
			region = append(region, s)
		}
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner render [flags] URL...\n\nRenders each URL, prints one line per page and stores the pages (rendered DOM,\nstatus, redirects, title, links, layout) in the database. A page that fails is\nstored with its error.\n\nFlags:")
		fs.PrintDefaults()
	}
	urls, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *timeout < 0 || *retries < 0 {
		return fmt.Errorf("%w: --timeout and --retries must not be negative", errUsage)
	}
	mode, err := store.ParseSiteMode(*siteFrom)
	if err != nil {
		return fmt.Errorf("%w: --site-from: %v", errUsage, err)
	}
	if *tabs < 1 {
		return fmt.Errorf("%w: --tabs must be at least 1", errUsage)
	}
	if *plain && len(region) > 0 {
		return fmt.Errorf("%w: --content-selector needs the browser (a plain fetch does not wait for anything)", errUsage)
	}
	if *urlsFile != "" {
		more, err := readURLList(*urlsFile)
		if err != nil {
			return err
		}
		urls = append(urls, more...)
	}
	if len(urls) == 0 {
		return fmt.Errorf("%w: no URL to render", errUsage)
	}
	for _, u := range urls {
		if _, err := store.SiteOf(u, mode); err != nil || !(strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) {
			return fmt.Errorf("%w: %q is not an absolute http(s) URL", errUsage, u)
		}
	}
	if *screenshots != "" {
		if err := os.MkdirAll(*screenshots, 0o755); err != nil {
			return fmt.Errorf("--screenshots: %w", err)
		}
	}

	// The guard of crawl, with its defaults: no private, loopback or
	// link-local target unless allowed.
	guard := fetchpolicy.TargetGuard{Allowed: allow}
	opt := browser.Options{
		ExecPath: *chromium, Tabs: *tabs, PageTimeout: *timeout, Retries: *retries,
		Isolate: *isolate, Screenshot: *screenshots != "", NoBlock: *noBlock, Record: browser.RecordOptions{On: *record},
		Wait: browser.WaitOptions{
			ScrollSteps: orNegative(*scroll), LoadMoreSelector: *loadMore,
			LoadMoreClicks: orNegative(*clicks), KeepConsent: *keepConsent,
		},
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) },
	}
	if !*noBlock {
		opt.Block = eval.SplitList(*block)
		if len(opt.Block) == 0 {
			opt.NoBlock = true
		}
	}
	f, err := browser.NewFetcher(guard, !*plain, opt)
	if err != nil {
		return err
	}
	defer f.Close()

	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()

	type result struct {
		i   int
		url string
		p   *browser.Page
		err error
	}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for range *tabs {
		wg.Go(func() {
			for i := range jobs {
				p, err := fetchPage(ctx, f, urls[i], browser.PageOptions{ContentSelectors: region})
				results <- result{i, urls[i], p, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := range urls {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var failed, partial, stored int
	var storeErr error
	for res := range results {
		sp, err := capture.ToStore(res.url, *dataset, mode, res.p, res.err)
		if err != nil {
			fmt.Fprintf(stdout, "ERR   %s: %v\n", res.url, err)
			failed++
			continue
		}
		if res.err != nil {
			failed++
			fmt.Fprintf(stdout, "ERR   %s: %v\n", res.url, res.err)
		} else {
			p := res.p
			flag := ""
			if p.Partial {
				partial++
				flag = " PARTIAL(" + p.PartialReason + ")"
			}
			fmt.Fprintf(stdout, "%d   %s %.1fs %d links%s %q\n", p.Status, p.FinalURL, p.Elapsed.Seconds(), len(p.Links), flag, p.Title)
			if *screenshots != "" && len(p.Screenshot) > 0 {
				name := filepath.Join(*screenshots, fmt.Sprintf("%04d.jpg", res.i+1))
				if err := os.WriteFile(name, p.Screenshot, 0o644); err != nil {
					fmt.Fprintf(stderr, "gleaner render: screenshot of %s: %v\n", res.url, err)
				}
			}
		}
		if err := st.PutPages(ctx, []*store.Page{sp}); err != nil && storeErr == nil {
			storeErr = fmt.Errorf("store %s: %w", res.url, err)
		} else if err == nil {
			stored++
		}
	}
	fmt.Fprintf(stdout, "rendered %d of %d pages (%d partial, %d failed), %d stored in %s\n", len(urls)-failed, len(urls), partial, failed, stored, *db)
	if storeErr != nil {
		return storeErr
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d pages failed", failed, len(urls))
	}
	return st.Close()
}

// fetchPage fetches u with po when f takes page options, as f.Fetch
// otherwise.
func fetchPage(ctx context.Context, f browser.Fetcher, u string, po browser.PageOptions) (*browser.Page, error) {
	if pf, ok := f.(browser.PageFetcher); ok {
		return pf.FetchPage(ctx, u, po)
	}
	return f.Fetch(ctx, u)
}

// orNegative maps the command's "0 means none" to the options' "negative
// means none".
func orNegative(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

// readURLList reads one URL per line, skipping blank lines and # comments.
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
	var urls []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			urls = append(urls, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--urls %s: %w", name, err)
	}
	return urls, nil
}
