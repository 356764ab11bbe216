package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
)

// learnJSON is the --json output of gleaner learn.
type learnJSON struct {
	Sites []learnSiteJSON `json:"sites"`
	// Cost sums the sites' costs (the peak is the process's).
	Cost learnCostJSON `json:"cost"`
}

// learnCostJSON is what learning spent (cluster.Cost).
type learnCostJSON struct {
	Pages      int     `json:"pages"`
	Fast       int     `json:"fast_distances"`
	Exact      int     `json:"exact_teds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	PeakRSSMB  int64   `json:"peak_rss_mb"`
}

func costJSON(c cluster.Cost) learnCostJSON {
	return learnCostJSON{Pages: c.Pages, Fast: c.Fast, Exact: c.Exact, CPUSeconds: c.CPU.Seconds(), PeakRSSMB: c.PeakRSS >> 20}
}

type learnSiteJSON struct {
	Site       string             `json:"site"`
	K          int                `json:"k"`
	Silhouette map[string]float64 `json:"silhouette"`
	Clusters   []learnClusterJSON `json:"clusters"`
	Outliers   []learnOutlierJSON `json:"outliers"`
	Mode       string             `json:"mode"`
	Cost       learnCostJSON      `json:"cost"`
}

type learnClusterJSON struct {
	ID      int      `json:"id"`
	Medoid  string   `json:"medoid"`
	Members []string `json:"members"`
}

type learnOutlierJSON struct {
	Page   string `json:"page"`
	Reason string `json:"reason"`
}

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
			out.Sites = append(out.Sites, siteJSON(sr))
		} else {
			printSiteRun(stdout, sr)
		}
	}
	if !asJSON {
		if len(sites) > 1 {
			fmt.Fprintf(stdout, "learning cost, %d sites: %s\n", len(sites), total)
		}
		return nil
	}
	out.Cost = costJSON(total)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func siteJSON(sr *sitelearn.SiteRun) learnSiteJSON {
	j := learnSiteJSON{Site: sr.Site, K: sr.Run.K, Silhouette: map[string]float64{},
		Clusters: []learnClusterJSON{}, Outliers: []learnOutlierJSON{}, Mode: sr.Mode, Cost: costJSON(sr.Cost)}
	for k, s := range sr.Run.Silhouette {
		j.Silhouette[fmt.Sprint(k)] = s
	}
	for _, c := range sr.Clusters {
		jc := learnClusterJSON{ID: c.ID, Medoid: sr.Names[c.Medoid], Members: []string{}}
		for _, id := range sr.MembersOf(c.ID) {
			jc.Members = append(jc.Members, sr.Names[id])
		}
		j.Clusters = append(j.Clusters, jc)
	}
	for _, m := range sr.Outliers() {
		j.Outliers = append(j.Outliers, learnOutlierJSON{Page: sr.Names[m.PageID], Reason: m.Reason})
	}
	return j
}

func printSiteRun(w io.Writer, sr *sitelearn.SiteRun) {
	r := sr.Run
	fmt.Fprintf(w, "site %s: %s, k = %d (run %d, %s", sr.Site, pagesN(r.Pages), r.K, r.ID, sr.Mode)
	if sr.Result != nil {
		fmt.Fprintf(w, ", %d distances, %d computed", sr.Result.Distances, sr.Result.Computed)
	}
	fmt.Fprintf(w, ")\n  %s\n", r.Message)
	if sr.Mode != sitelearn.ModeUnchanged {
		fmt.Fprintf(w, "  cost: %s\n", sr.Cost)
	}
	if sr.Note != "" && !strings.Contains(r.Message, sr.Note) {
		fmt.Fprintf(w, "  %s\n", sr.Note)
	}
	printSilhouette(w, r.Silhouette, r.K)
	for _, c := range sr.Clusters {
		printCluster(w, sr, c)
	}
	for _, m := range sr.Outliers() {
		fmt.Fprintf(w, "  outlier %s: %s\n", sr.Names[m.PageID], m.Reason)
	}
}

// printSilhouette prints the silhouette of each k tried, the chosen one
// marked.
func printSilhouette(w io.Writer, sil map[int]float64, chosen int) {
	if len(sil) == 0 {
		return
	}
	fmt.Fprint(w, "  silhouette:")
	for _, k := range slices.Sorted(maps.Keys(sil)) {
		mark := ""
		if k == chosen {
			mark = "*"
		}
		fmt.Fprintf(w, " k=%d %.3f%s", k, sil[k], mark)
	}
	fmt.Fprintln(w)
}

// printCluster prints a cluster: its size, its medoid (and the other
// rule's when it differs), its members.
func printCluster(w io.Writer, sr *sitelearn.SiteRun, c store.Cluster) {
	fmt.Fprintf(w, "  cluster %d: %s, medoid %s", c.ID, pagesN(c.Size), sr.Names[c.Medoid])
	if t, ok := sr.Params.TrueMedoids[c.ID]; ok && t != c.Medoid {
		fmt.Fprintf(w, " (true medoid %s)", sr.Names[t])
	} else if ct, ok := sr.Params.CentroidMedoids[c.ID]; ok && ct != c.Medoid {
		fmt.Fprintf(w, " (centroid medoid %s)", sr.Names[ct])
	}
	fmt.Fprintln(w)
	var names []string
	for _, id := range sr.MembersOf(c.ID) {
		names = append(names, sr.Names[id])
	}
	fmt.Fprintf(w, "    %s\n", strings.Join(names, " "))
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

func pagesN(n int) string {
	if n == 1 {
		return "1 page"
	}
	return fmt.Sprintf("%d pages", n)
}
