package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/pageextract"
)

// extractPageJSON is one page of the --json output.
type extractPageJSON = pageextract.Result

// extractSiteJSON is one site of the --json output.
type extractSiteJSON = pageextract.SiteResult

func runExtract(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("extract", stderr)
	db := addDBFlag(fs)
	site := fs.String("site", "", "extract only this `site` (default: every site in the store); with a page, the site whose templates to use (default: the site of its URL)")
	asJSON := fs.Bool("json", false, "print the extractions as JSON")
	medoid := fs.String("medoid", "", "with a FILE argument: the template medoid `M.html` to compare the page with (none: single-page extraction)")
	rulesFirst := fs.Bool("rules-first", false, "extract pages of a cluster that has a rule with the rule alone (fast), the pair diff only where the rule selects nothing")
	minConf := fs.Float64("min-confidence", heuristics.DefaultMinConfidence, "pair-diff `confidence` under which the cluster rule or the single-page extractor is consulted")
	var one oneFlags
	one.add(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner extract [--db PATH] [--site S] [--json] [--rules-first]\n"+
			"       gleaner extract URL | FILE.html | - [--url U] [--db PATH [--site S]] [--plain] [--charset NAME] [--medoid M.html] [--json]\n\n"+
			"Extracts every stored page with the site's latest learning run: each page is compared\n"+
			"with its template medoid (pair diff), each cluster votes a rule (a CSS selector) that\n"+
			"settles low-confidence pages, outliers get the single-page extractor. Extractions and\n"+
			"rules are stored.\n\n"+
			"With one page (a URL, rendered in Chromium unless --plain; a FILE; - for standard input),\n"+
			"prints its title, body, date and author and stores nothing: with --db, a page of a site\n"+
			"whose templates are learned there is compared with the medoid of its nearest template\n"+
			"(pair diff), otherwise the single-page method is used; the output says which.\n\nFlags:")
		fs.PrintDefaults()
	}
	targets, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	opt := heuristics.ExtractOptions{RulesFirst: *rulesFirst, MinConfidence: *minConf}
	if *minConf <= 0 || *minConf > 1 {
		return fmt.Errorf("%w: --min-confidence %v: want a value in (0, 1]", errUsage, *minConf)
	}
	switch {
	case len(targets) > 1:
		return fmt.Errorf("%w: one page (URL, FILE or -) at a time, got %q", errUsage, targets)
	case len(targets) == 1:
		one.target, one.medoid, one.site, one.asJSON = targets[0], *medoid, *site, *asJSON
		if flagSet(fs, "db") {
			one.db = *db
		}
		return one.run(ctx, opt, stdout, stderr)
	case *medoid != "":
		return fmt.Errorf("%w: --medoid needs a FILE to compare with it", errUsage)
	case one.pageOnly():
		return fmt.Errorf("%w: --url, --plain and --charset apply to one page (URL, FILE or -)", errUsage)
	}
	return extractStored(ctx, *db, *site, opt, *asJSON, stdout, stderr)
}

// extractStored extracts the stored pages of site (every site when "")
// and prints them, as JSON with asJSON.
func extractStored(ctx context.Context, db, site string, opt heuristics.ExtractOptions, asJSON bool, stdout, stderr io.Writer) error {
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	sites, err := selectSites(ctx, st, site, db)
	if err != nil {
		return err
	}
	var out []extractSiteJSON
	for _, s := range sites {
		res, err := pageextract.Site(ctx, st, s, opt, func(format string, args ...any) { fmt.Fprintf(stderr, "gleaner extract: "+format+"\n", args...) })
		if err != nil {
			return err
		}
		if asJSON {
			out = append(out, res)
		} else {
			printExtractSite(stdout, res)
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"sites": out}); err != nil {
			return err
		}
	}
	return st.Close()
}

func printExtractSite(w io.Writer, s extractSiteJSON) {
	methods := map[string]int{}
	failed := 0
	for _, p := range s.Pages {
		if p.Error != "" {
			failed++
			continue
		}
		methods[p.Method]++
	}
	var ms []string
	for m, n := range methods {
		ms = append(ms, fmt.Sprintf("%s %d", m, n))
	}
	sort.Strings(ms)
	fmt.Fprintf(w, "site %s: run %d, %d pages (%s), %d failed\n", s.Site, s.Run, len(s.Pages), strings.Join(ms, ", "), failed)
	for _, r := range s.Rules {
		if r.Voters == 0 {
			fmt.Fprintf(w, "  rule cluster %d %s: %s  (support %.2f, stored)\n", r.Cluster, r.Field, r.Selector, r.Support)
			continue
		}
		fmt.Fprintf(w, "  rule cluster %d %s: %s  (support %.2f, %d/%d pages)\n", r.Cluster, r.Field, r.Selector, r.Support, r.Votes, r.Voters)
	}
	for _, p := range s.Pages {
		if p.Error != "" {
			fmt.Fprintf(w, "  %s: error: %s\n", p.Page, p.Error)
			continue
		}
		fmt.Fprintf(w, "  %s: %s %.2f %q (%d words) %s\n", p.Page, p.Method, p.Confidence, p.Title, len(strings.Fields(p.Body)), p.Selector)
	}
}

func printExtraction(w io.Writer, p extractPageJSON) {
	fmt.Fprintf(w, "page: %s\nmethod: %s\nconfidence: %.3f\nselector: %s\n", p.Page, p.Method, p.Confidence, p.Selector)
	if p.Date != "" {
		fmt.Fprintf(w, "date: %s\n", p.Date)
	}
	if p.Author != "" {
		fmt.Fprintf(w, "author: %s\n", p.Author)
	}
	if p.Templates != "" {
		fmt.Fprintf(w, "templates: %s\n", p.Templates)
	}
	fmt.Fprintf(w, "title: %s\n\n%s\n", p.Title, p.Body)
}
