package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/pageextract"
)

// stdin is what `gleaner extract -` reads (tests replace it).
var stdin io.Reader = os.Stdin

// oneFlags are the flags and arguments of `gleaner extract` on one page.
type oneFlags struct {
	url, charset, chromium *string
	plain, keepErrors      *bool
	timeout                *time.Duration
	allow                  listFlag

	target, medoid, site, db string
	asJSON                   bool
}

func (o *oneFlags) add(fs *flag.FlagSet) {
	o.url = fs.String("url", "", "with FILE or -: the page's `URL` (names its site for --db)")
	o.plain = fs.Bool("plain", false, "with a URL: plain HTTP fetch instead of rendering in Chromium")
	o.charset = fs.String("charset", "", "with one page: decode it with this `charset` (shift_jis, gb18030, utf-16le...) whatever it declares")
	o.chromium = fs.String("chromium", "", "with a URL: Chromium `binary` (default: $GLEANER_CHROMIUM, chromium on PATH, /usr/bin/chromium)")
	o.timeout = fs.Duration("timeout", 30*time.Second, "with a URL: cap on fetching or rendering it")
	o.keepErrors = fs.Bool("keep-errors", false, "with a URL: extract an HTTP error page (status 400 or more) instead of failing")
	fs.Var(&o.allow, "allow-host", "with a URL: allow this private/loopback `host[:port]` (repeatable), as crawl does")
}

// pageOnly reports whether a flag that applies to one page only was given.
func (o *oneFlags) pageOnly() bool {
	return *o.url != "" || *o.plain || *o.charset != "" || *o.keepErrors || len(o.allow) > 0
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// run extracts one page and prints it.
func (o *oneFlags) run(ctx context.Context, opt heuristics.ExtractOptions, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	p, err := o.read(ctx, stderr)
	if err != nil {
		return err
	}
	pj, err := pageextract.Extract(ctx, p, pageextract.Options{Charset: *o.charset, Medoid: o.medoid, DB: o.db, Site: o.site, Extract: opt})
	if errors.Is(err, pageextract.ErrPageURL) {
		return fmt.Errorf("%w: --url: %v", errUsage, err)
	}
	if err != nil {
		return err
	}
	if o.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(pj)
	}
	printExtraction(stdout, pj)
	return nil
}

// check refuses flags that do not fit the page argument.
func (o *oneFlags) check() error {
	if err := o.checkURLFlags(); err != nil {
		return err
	}
	switch {
	case o.site != "" && o.db == "":
		return fmt.Errorf("%w: --site with one page names the site whose templates to use: it needs --db", errUsage)
	case o.medoid != "" && o.db != "":
		return fmt.Errorf("%w: --medoid and --db both choose the page to compare with: give one", errUsage)
	}
	return nil
}

// checkURLFlags refuses --url with a URL, and the flags of a fetch without
// one.
func (o *oneFlags) checkURLFlags() error {
	isURL := isHTTPURL(o.target)
	switch {
	case isURL && *o.url != "":
		return fmt.Errorf("%w: --url names the page of a FILE or -, not of a URL", errUsage)
	case isURL:
		return nil
	case *o.plain:
		return fmt.Errorf("%w: --plain applies to a URL", errUsage)
	case *o.keepErrors || len(o.allow) > 0:
		return fmt.Errorf("%w: --keep-errors and --allow-host apply to a URL", errUsage)
	}
	return nil
}

// isHTTPURL reports whether s is an http or https URL.
func isHTTPURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// read fetches, renders or reads the page.
func (o *oneFlags) read(ctx context.Context, stderr io.Writer) (*pageextract.Page, error) {
	switch {
	case isHTTPURL(o.target):
		return pageextract.Fetch(ctx, o.target, pageextract.FetchOptions{Plain: *o.plain, Chromium: *o.chromium, Timeout: *o.timeout,
			Allow: o.allow, KeepErrors: *o.keepErrors, Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }})
	case o.target == "-":
		p, err := pageextract.Read("-", *o.url, stdin)
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		return p, nil
	}
	return pageextract.ReadFile(o.target, *o.url)
}
