package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/learnreport"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
)

// learnJSON is the --json output of gleaner learn.
type learnJSON = learnreport.Report

// learnSiteJSON is one site of learnJSON.
type learnSiteJSON = learnreport.Site

// learnCostJSON is the cost of learnJSON.
type learnCostJSON = learnreport.Cost

func runLearn(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("learn", stderr)
	db := addDBFlag(fs)
	site := fs.String("site", "", "learn only this `site` (default: every site in the store)")
	seed := fs.Int64("seed", 1, "`seed` of the random choices (same pages and seed: same clusters)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	medoid := fs.String("medoid", "true", "cluster representative: true (least total TED to the other members) or centroid (nearest the centroid in the MDS plane, the thesis's)")
	relearn := fs.Bool("relearn", false, "cluster from scratch even when new pages could be assigned to the latest run's templates")
	maxK := fs.Int("max-k", 8, "largest number of clusters tried per site")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner learn [--db PATH] [--site S] [--seed N] [--json] [--medoid centroid|true] [--relearn]\n\n"+
			"Learns each site's templates and records the run in the store. When the latest run\n"+
			"used the same parameters, pages added since are assigned to its templates, and the\n"+
			"site is learned again only if too many of them fit no template (drift).\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	rule, err := cluster.ParseMedoidRule(*medoid)
	if err != nil {
		return fmt.Errorf("%w: --medoid: %v", errUsage, err)
	}
	if *maxK < 2 {
		return fmt.Errorf("%w: --max-k %d: want at least 2", errUsage, *maxK)
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
	opt := sitelearn.Options{Options: cluster.Options{Seed: *seed, Medoid: rule, MaxK: *maxK}, Relearn: *relearn}
	if err := learnSites(ctx, st, sites, opt, *asJSON, stdout); err != nil {
		return err
	}
	return st.Close()
}

// learnSites learns each site and prints it (as JSON with asJSON), and
// the total cost.
func learnSites(ctx context.Context, st store.Store, sites []string, opt sitelearn.Options, asJSON bool, stdout io.Writer) error {
	var out learnJSON
	var total cluster.Cost
	for _, s := range sites {
		sr, err := sitelearn.Site(ctx, st, s, opt)
		if err != nil {
			return err
		}
		total.Add(sr.Cost)
		if asJSON {
			out.Sites = append(out.Sites, learnreport.SiteOf(sr))
		} else {
			learnreport.WriteText(stdout, sr)
		}
	}
	if !asJSON {
		if len(sites) > 1 {
			fmt.Fprintf(stdout, "learning cost, %d sites: %s\n", len(sites), total)
		}
		return nil
	}
	out.Cost = learnreport.CostOf(total)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// selectSites returns the site given, or every site of the store with pages
// (by name) when only is empty; it fails when there is none.
func selectSites(ctx context.Context, st store.Store, only, db string) ([]string, error) {
	if only != "" {
		return []string{only}, nil
	}
	all, err := st.Sites(ctx)
	if err != nil {
		return nil, err
	}
	var sites []string
	for _, s := range all {
		if s.Pages > 0 {
			sites = append(sites, s.Name)
		}
	}
	if len(sites) == 0 {
		return nil, fmt.Errorf("no pages in %s: import or crawl some first (gleaner import)", db)
	}
	return sites, nil
}
