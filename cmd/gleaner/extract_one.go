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

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/netguard"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
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

// onePage is a page read for extraction.
type onePage struct {
	name, url, contentType string
	src                    []byte
	visible                func(*treediff.Node) bool
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
	tree, err := treediff.Parse(p.name, p.src, treediff.ParseOptions{ContentType: p.contentType, Charset: *o.charset})
	if err != nil {
		return err
	}
	in := heuristics.Input{Page: tree, Src: p.src, Visible: p.visible}
	pj, err := o.extract(ctx, p, in, opt)
	if err != nil {
		return err
	}
	meta := pagemeta.Extract(tree, p.src, pagemeta.Options{URL: p.url, Text: pj.Body})
	pj.Meta = &meta
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
	isURL := strings.HasPrefix(o.target, "http://") || strings.HasPrefix(o.target, "https://")
	switch {
	case isURL && *o.url != "":
		return fmt.Errorf("%w: --url names the page of a FILE or -, not of a URL", errUsage)
	case !isURL && *o.plain:
		return fmt.Errorf("%w: --plain applies to a URL", errUsage)
	case !isURL && (*o.keepErrors || len(o.allow) > 0):
		return fmt.Errorf("%w: --keep-errors and --allow-host apply to a URL", errUsage)
	case o.site != "" && o.db == "":
		return fmt.Errorf("%w: --site with one page names the site whose templates to use: it needs --db", errUsage)
	case o.medoid != "" && o.db != "":
		return fmt.Errorf("%w: --medoid and --db both choose the page to compare with: give one", errUsage)
	}
	return nil
}

// read fetches, renders or reads the page.
func (o *oneFlags) read(ctx context.Context, stderr io.Writer) (*onePage, error) {
	switch {
	case strings.HasPrefix(o.target, "http://") || strings.HasPrefix(o.target, "https://"):
		return o.fetch(ctx, stderr)
	case o.target == "-":
		src, err := dataset.ReadPageFrom(stdin, treediff.DefaultMaxBytes)
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		return &onePage{name: "-", url: *o.url, src: src}, nil
	}
	src, err := dataset.ReadPage(o.target, treediff.DefaultMaxBytes)
	if err != nil {
		return nil, err
	}
	return &onePage{name: o.target, url: *o.url, src: src}, nil
}

// ErrHTTPStatus is wrapped by the error of `gleaner extract URL` when the
// server answered with an error status (400 or more) and --keep-errors was
// not given.
var ErrHTTPStatus = errors.New("HTTP error status")

// fetch renders the URL in Chromium, or fetches it with --plain, guarded
// as a crawl is (public addresses, and the hosts of --allow-host).
func (o *oneFlags) fetch(ctx context.Context, stderr io.Writer) (*onePage, error) {
	f, err := browser.NewFetcher(netguard.Policy{Allowed: o.allow}, !*o.plain, browser.Options{ExecPath: *o.chromium, Tabs: 1,
		PageTimeout: *o.timeout, Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := f.Fetch(ctx, o.target)
	if err != nil {
		return nil, err
	}
	if p.Status >= 400 {
		if !*o.keepErrors {
			return nil, fmt.Errorf("%s: status %d: %w (--keep-errors extracts the error page)", o.target, p.Status, ErrHTTPStatus)
		}
		fmt.Fprintf(stderr, "gleaner extract: %s: HTTP status %d, kept (--keep-errors)\n", o.target, p.Status)
	}
	sp, err := capture.ToStore(o.target, "", store.SiteFromDomain, p, nil)
	if err != nil {
		return nil, err
	}
	visible, err := capture.Visible(sp)
	if err != nil {
		fmt.Fprintf(stderr, "gleaner extract: %s: layout ignored: %v\n", o.target, err)
	}
	return &onePage{name: o.target, url: o.target, contentType: sp.ContentType, src: sp.HTML(), visible: visible}, nil
}

// extract runs the method the flags choose: against --medoid, against the
// templates stored in --db, else the single-page method.
func (o *oneFlags) extract(ctx context.Context, p *onePage, in heuristics.Input, opt heuristics.ExtractOptions) (extractPageJSON, error) {
	if o.medoid != "" {
		med, _, err := parseFile(o.medoid)
		if err != nil {
			return extractPageJSON{}, err
		}
		in.Medoid = med
	}
	site, note := o.site, ""
	if site == "" && p.url != "" {
		s, err := store.SiteOf(p.url, store.SiteFromDomain)
		if err != nil {
			return extractPageJSON{}, fmt.Errorf("%w: --url %q: %v", errUsage, p.url, err)
		}
		site = s
	}
	if o.db == "" || site == "" {
		if o.db != "" {
			note = "no site named (--url or --site): single-page method"
		}
		r, err := heuristics.Extract(in, opt)
		pj := pageJSON(p.name, r, nil)
		pj.Templates = note
		return pj, err
	}
	st, err := openStore(ctx, o.db)
	if err != nil {
		return extractPageJSON{}, err
	}
	defer st.Close()
	res, err := siteextract.One(ctx, st, site, in, siteextract.Options{Extract: opt, Visible: capture.Visible})
	if err != nil {
		return extractPageJSON{}, err
	}
	pj := pageJSON(p.name, res.Result, nil)
	pj.Templates = res.Note
	return pj, nil
}
