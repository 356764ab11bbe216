package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

func init() {
	register(&command{
		name:  "extract",
		short: "extract title, body, date and author of stored pages (pair diff with template medoids, cluster rules)",
		run:   runExtract,
	})
}

// extractPageJSON is one page of the --json output.
type extractPageJSON struct {
	Page       string  `json:"page"`
	Method     string  `json:"method"`
	Selector   string  `json:"selector,omitempty"`
	Confidence float64 `json:"confidence"`
	// PageType is the page's kind (pagetype.Types).
	PageType string `json:"page_type,omitempty"`
	Title    string `json:"title"`
	Body     string `json:"body"`
	Date     string `json:"date,omitempty"`
	Author   string `json:"author,omitempty"`
	// Templates says, for one page, which templates were consulted and why
	// the method was chosen.
	Templates string `json:"templates,omitempty"`
	Error     string `json:"error,omitempty"`
	// Meta is, for one page, everything it states about itself
	// (modification date, authors, language, site name, canonical URL,
	// section) and where each came from.
	Meta *pagemeta.Meta `json:"meta,omitempty"`
}

type extractRuleJSON struct {
	Cluster  int     `json:"cluster"`
	Field    string  `json:"field"`
	Selector string  `json:"selector"`
	Support  float64 `json:"support"`
	Votes    int     `json:"votes"`
	Voters   int     `json:"voters"`
}

type extractSiteJSON struct {
	Site  string            `json:"site"`
	Run   int64             `json:"run"`
	Rules []extractRuleJSON `json:"rules"`
	Pages []extractPageJSON `json:"pages"`
}

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
	// Flags may follow the page argument.
	var targets []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() == 0 {
			break
		}
		targets = append(targets, fs.Arg(0))
		rest = fs.Args()[1:]
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
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	sites, err := selectSites(ctx, st, *site, *db)
	if err != nil {
		return err
	}
	var out []extractSiteJSON
	for _, s := range sites {
		res, err := extractSite(ctx, st, s, opt, stderr)
		if err != nil {
			return err
		}
		if *asJSON {
			out = append(out, res)
		} else {
			printExtractSite(stdout, res)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"sites": out}); err != nil {
			return err
		}
	}
	return st.Close()
}

func parseFile(path string) (*treediff.Tree, []byte, error) {
	src, err := dataset.ReadPage(path, treediff.DefaultMaxBytes)
	if err != nil {
		return nil, nil, err
	}
	t, err := treediff.Parse(path, src, treediff.ParseOptions{})
	if err != nil {
		return nil, nil, err
	}
	return t, src, nil
}

func pageJSON(name string, r singlepage.Result, err error) extractPageJSON {
	if err != nil {
		return extractPageJSON{Page: name, Error: err.Error()}
	}
	return extractPageJSON{Page: name, Method: r.Method, Selector: r.Selector, Confidence: r.Confidence,
		PageType: r.PageType, Title: r.Title, Body: r.Body, Date: r.Date, Author: r.Author}
}

// extractSite extracts the pages of one stored site with the site
// pipeline (siteextract.Site: the latest finished run's templates, the
// extractions and voted rules stored).
func extractSite(ctx context.Context, st store.Store, site string, opt heuristics.ExtractOptions, stderr io.Writer) (extractSiteJSON, error) {
	out := extractSiteJSON{Site: site, Rules: []extractRuleJSON{}, Pages: []extractPageJSON{}}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "gleaner extract: "+format+"\n", args...) }
	res, err := siteextract.Site(ctx, st, site, siteextract.Options{Extract: opt, Visible: capture.Visible, Logf: logf})
	if err != nil {
		return out, err
	}
	if res.Run == nil {
		logf("site %s has no learning run (gleaner learn): single-page extraction only", site)
	} else {
		out.Run = res.Run.ID
	}
	for _, p := range res.Pages {
		if p.Err != nil {
			logf("page %s: %v", p.Name, p.Err)
		}
		out.Pages = append(out.Pages, pageJSON(p.Name, p.Result, p.Err))
	}
	ruleClusters, voted := siteextract.VotedRules(res.Rules)
	for i, r := range voted {
		out.Rules = append(out.Rules, extractRuleJSON{Cluster: ruleClusters[i], Field: r.Field, Selector: r.Selector, Support: r.Support, Votes: r.Votes, Voters: r.Pages})
	}
	return out, nil
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
