package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/heuristics"
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
	Title      string  `json:"title"`
	Body       string  `json:"body"`
	Date       string  `json:"date,omitempty"`
	Author     string  `json:"author,omitempty"`
	Error      string  `json:"error,omitempty"`
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
	site := fs.String("site", "", "extract only this `site` (default: every site in the store)")
	asJSON := fs.Bool("json", false, "print the extractions as JSON")
	medoid := fs.String("medoid", "", "with a FILE argument: the template medoid `M.html` to compare the page with (none: single-page extraction)")
	rulesFirst := fs.Bool("rules-first", false, "extract pages of a cluster that has a rule with the rule alone (fast), the pair diff only where the rule selects nothing")
	minConf := fs.Float64("min-confidence", heuristics.DefaultMinConfidence, "pair-diff `confidence` under which the cluster rule or the single-page extractor is consulted")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner extract [--db PATH] [--site S] [--json] [--rules-first]\n"+
			"       gleaner extract FILE.html [--medoid M.html] [--json]\n\n"+
			"Extracts every stored page with the site's latest learning run: each page is compared\n"+
			"with its template medoid (pair diff), each cluster votes a rule (a CSS selector) that\n"+
			"settles low-confidence pages, outliers get the single-page extractor. Extractions and\n"+
			"rules are stored. With a FILE, extracts that one page against --medoid and stores nothing.\n\nFlags:")
		fs.PrintDefaults()
	}
	// Flags may follow the FILE argument.
	var files []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	opt := heuristics.ExtractOptions{RulesFirst: *rulesFirst, MinConfidence: *minConf}
	if *minConf <= 0 || *minConf > 1 {
		return fmt.Errorf("%w: --min-confidence %v: want a value in (0, 1]", errUsage, *minConf)
	}
	switch {
	case len(files) > 1:
		return fmt.Errorf("%w: one FILE at a time, got %q", errUsage, files)
	case len(files) == 1:
		if *site != "" {
			return fmt.Errorf("%w: --site applies to stored pages, not to a FILE", errUsage)
		}
		return extractFile(files[0], *medoid, *asJSON, opt, stdout)
	case *medoid != "":
		return fmt.Errorf("%w: --medoid needs a FILE to compare with it", errUsage)
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

// extractFile extracts one page file, against a medoid file when given.
func extractFile(path, medoidPath string, asJSON bool, opt heuristics.ExtractOptions, stdout io.Writer) error {
	page, src, err := parseFile(path)
	if err != nil {
		return err
	}
	in := heuristics.Input{Page: page, Src: src}
	if medoidPath != "" {
		if in.Medoid, _, err = parseFile(medoidPath); err != nil {
			return err
		}
	}
	r, err := heuristics.Extract(in, opt)
	if err != nil {
		return err
	}
	pj := pageJSON(path, r, nil)
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(pj)
	}
	printExtraction(stdout, pj)
	return nil
}

func parseFile(path string) (*treediff.Tree, []byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	t, err := treediff.Parse(path, src, treediff.ParseOptions{})
	if err != nil {
		return nil, nil, err
	}
	return t, src, nil
}

func pageJSON(name string, r heuristics.Result, err error) extractPageJSON {
	if err != nil {
		return extractPageJSON{Page: name, Error: err.Error()}
	}
	return extractPageJSON{Page: name, Method: r.Method, Selector: r.Selector, Confidence: r.Confidence,
		Title: r.Title, Body: r.Body, Date: r.Date, Author: r.Author}
}

// extractSite extracts the pages of one stored site with its latest finished
// learning run, and stores the extractions and the voted rules.
func extractSite(ctx context.Context, st store.Store, site string, opt heuristics.ExtractOptions, stderr io.Writer) (extractSiteJSON, error) {
	out := extractSiteJSON{Site: site, Rules: []extractRuleJSON{}, Pages: []extractPageJSON{}}
	metas, err := st.Pages(ctx, store.PageQuery{Site: site})
	if err != nil {
		return out, fmt.Errorf("extract %s: %w", site, err)
	}
	if len(metas) == 0 {
		return out, fmt.Errorf("extract %s: no pages stored for this site", site)
	}
	run, err := st.LatestRun(ctx, site, store.RunDone)
	var clusters []store.Cluster
	var members []store.Membership
	switch {
	case err == nil:
		out.Run = run.ID
		if clusters, err = st.Clusters(ctx, run.ID); err != nil {
			return out, err
		}
		if members, err = st.Memberships(ctx, run.ID); err != nil {
			return out, err
		}
	case isNotFound(err):
		fmt.Fprintf(stderr, "gleaner extract: site %s has no learning run (gleaner learn): single-page extraction only\n", site)
	default:
		return out, err
	}
	if opt.RulesFirst && out.Run != 0 {
		if opt.Rules, err = storedRules(ctx, st, run); err != nil {
			return out, err
		}
	}
	sitePages, names, err := sitePagesOf(ctx, st, metas, clusters, members)
	if err != nil {
		return out, fmt.Errorf("extract %s: %w", site, err)
	}
	for _, p := range sitePages.noLayout {
		fmt.Fprintf(stderr, "gleaner extract: page %s: layout ignored: %v\n", p.name, p.err)
	}
	se, err := heuristics.ExtractSite(ctx, sitePages.pages, opt)
	if err != nil {
		return out, fmt.Errorf("extract %s: %w", site, err)
	}
	var xs []store.Extraction
	for i, r := range se.Results {
		out.Pages = append(out.Pages, pageJSON(names[i], r, se.Errs[i]))
		if se.Errs[i] != nil {
			fmt.Fprintf(stderr, "gleaner extract: page %s: %v\n", names[i], se.Errs[i])
			continue
		}
		xs = append(xs, r.StoreExtraction(sitePages.ids[i], out.Run))
	}
	// Pages that could not be parsed are reported, not silently dropped.
	for _, bad := range sitePages.bad {
		out.Pages = append(out.Pages, extractPageJSON{Page: bad.name, Error: bad.err.Error()})
		fmt.Fprintf(stderr, "gleaner extract: page %s: %v\n", bad.name, bad.err)
	}
	if err := st.PutExtractions(ctx, xs); err != nil {
		return out, err
	}
	ruleClusters, voted := heuristics.VotedRules(se.Rules)
	for i, r := range voted {
		out.Rules = append(out.Rules, extractRuleJSON{Cluster: ruleClusters[i], Field: r.Field, Selector: r.Selector, Support: r.Support, Votes: r.Votes, Voters: r.Pages})
	}
	if rules := heuristics.StoreRules(site, out.Run, se.Rules); out.Run != 0 && len(rules) > 0 {
		if err := st.PutRules(ctx, rules); err != nil {
			return out, err
		}
	}
	return out, nil
}

type badPage struct {
	name string
	err  error
}

type sitePageSet struct {
	pages []heuristics.SitePage
	ids   []int64
	bad   []badPage
	// noLayout are pages whose stored layout could not be read: they are
	// extracted with all their elements.
	noLayout []badPage
}

// sitePagesOf parses the site's pages and places each in its cluster of the
// run: a member is compared with its cluster's medoid, the medoid with the
// member nearest to it; outliers and pages the run does not know are left
// to the methods without medoid.
func sitePagesOf(ctx context.Context, st store.Store, metas []*store.Page, clusters []store.Cluster, members []store.Membership) (sitePageSet, []string, error) {
	var set sitePageSet
	var names []string
	index := map[int64]int{}
	for _, m := range metas {
		if err := ctx.Err(); err != nil {
			return set, nil, err
		}
		p, err := st.Page(ctx, m.ID)
		if err != nil {
			return set, nil, err
		}
		t, err := treediff.Parse(p.Name(), p.HTML(), treediff.ParseOptions{ContentType: p.ContentType})
		if err != nil {
			set.bad = append(set.bad, badPage{p.Name(), err})
			continue
		}
		// A rendered page is read as the browser showed it.
		visible, err := browser.StoredVisible(p)
		if err != nil {
			set.noLayout = append(set.noLayout, badPage{p.Name(), err})
		}
		index[p.ID] = len(set.pages)
		set.pages = append(set.pages, heuristics.SitePage{Page: t, Src: p.HTML(), Cluster: -1, Medoid: -1, Visible: visible})
		set.ids = append(set.ids, p.ID)
		names = append(names, p.Name())
	}
	medoidOf := map[int]int64{}
	for _, c := range clusters {
		medoidOf[c.ID] = c.Medoid
	}
	// The member nearest each medoid is the medoid's own partner.
	nearest := map[int]store.Membership{}
	for _, m := range members {
		if m.Outlier || m.PageID == medoidOf[m.Cluster] {
			continue
		}
		if _, ok := index[m.PageID]; !ok {
			continue
		}
		if b, ok := nearest[m.Cluster]; !ok || m.Distance < b.Distance || (m.Distance == b.Distance && m.PageID < b.PageID) {
			nearest[m.Cluster] = m
		}
	}
	for _, m := range members {
		i, ok := index[m.PageID]
		if !ok || m.Outlier {
			continue
		}
		med, ok := medoidOf[m.Cluster]
		if !ok {
			continue
		}
		partner := med
		if m.PageID == med {
			nb, ok := nearest[m.Cluster]
			if !ok {
				continue // a cluster of one page: nothing to compare with
			}
			partner = nb.PageID
		}
		j, ok := index[partner]
		if !ok {
			continue
		}
		set.pages[i].Cluster, set.pages[i].Medoid = m.Cluster, j
	}
	return set, names, nil
}

// storedRules reads the rules stored for run, or when it has none for the
// run whose templates it reused (a run that assigned new pages to a
// previous run's clusters keeps their IDs).
func storedRules(ctx context.Context, st store.Store, run *store.Run) (map[int]heuristics.Rules, error) {
	rs, err := st.Rules(ctx, run.ID)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 && len(run.Params) > 0 {
		var p struct {
			BaseRun int64 `json:"base_run"`
		}
		if json.Unmarshal(run.Params, &p) == nil && p.BaseRun != 0 {
			if rs, err = st.Rules(ctx, p.BaseRun); err != nil {
				return nil, err
			}
		}
	}
	out := map[int]heuristics.Rules{}
	for _, r := range rs {
		cur := out[r.Cluster]
		hr := heuristics.Rule{Field: r.Field, Selector: r.Selector, Support: r.Support}
		switch r.Field {
		case heuristics.FieldBody:
			cur.Body = hr
		case heuristics.FieldTitle:
			cur.Title = hr
		}
		out[r.Cluster] = cur
	}
	return out, nil
}

func isNotFound(err error) bool { return err != nil && errors.Is(err, store.ErrNotFound) }

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
	fmt.Fprintf(w, "title: %s\n\n%s\n", p.Title, p.Body)
}
