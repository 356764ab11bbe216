// Package learnreport reports what learning a site's templates gave, as
// "gleaner learn" prints it: each site's clusters (medoid and members by
// page name), silhouettes, outliers and cost, as text or as JSON.
package learnreport

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
)

// Report is the JSON report of learning sites.
type Report struct {
	Sites []Site `json:"sites"`
	// Cost sums the sites' costs (the peak is the process's).
	Cost Cost `json:"cost"`
}

// Cost is what learning spent (cluster.Cost).
type Cost struct {
	Pages      int     `json:"pages"`
	Fast       int     `json:"fast_distances"`
	Exact      int     `json:"exact_teds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	PeakRSSMB  int64   `json:"peak_rss_mb"`
}

// CostOf is c in the report's units.
func CostOf(c cluster.Cost) Cost {
	return Cost{Pages: c.Pages, Fast: c.Fast, Exact: c.Exact, CPUSeconds: c.CPU.Seconds(), PeakRSSMB: c.PeakRSS >> 20}
}

// Site is one site's learning run.
type Site struct {
	Site       string             `json:"site"`
	K          int                `json:"k"`
	Silhouette map[string]float64 `json:"silhouette"`
	Clusters   []Cluster          `json:"clusters"`
	Outliers   []Outlier          `json:"outliers"`
	Mode       string             `json:"mode"`
	Cost       Cost               `json:"cost"`
}

// Cluster is one template: its medoid and members, by page name.
type Cluster struct {
	ID      int      `json:"id"`
	Medoid  string   `json:"medoid"`
	Members []string `json:"members"`
}

// Outlier is a page that fits no template, and why.
type Outlier struct {
	Page   string `json:"page"`
	Reason string `json:"reason"`
}

// SiteOf is the report of a site's run.
func SiteOf(sr *sitelearn.SiteRun) Site {
	j := Site{Site: sr.Site, K: sr.Run.K, Silhouette: map[string]float64{},
		Clusters: []Cluster{}, Outliers: []Outlier{}, Mode: sr.Mode, Cost: CostOf(sr.Cost)}
	for k, s := range sr.Run.Silhouette {
		j.Silhouette[fmt.Sprint(k)] = s
	}
	for _, c := range sr.Clusters {
		jc := Cluster{ID: c.ID, Medoid: sr.Names[c.Medoid], Members: []string{}}
		for _, id := range sr.MembersOf(c.ID) {
			jc.Members = append(jc.Members, sr.Names[id])
		}
		j.Clusters = append(j.Clusters, jc)
	}
	for _, m := range sr.Outliers() {
		j.Outliers = append(j.Outliers, Outlier{Page: sr.Names[m.PageID], Reason: m.Reason})
	}
	return j
}

// WriteText writes a site's run as text.
func WriteText(w io.Writer, sr *sitelearn.SiteRun) {
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
	writeSilhouette(w, r.Silhouette, r.K)
	for _, c := range sr.Clusters {
		writeCluster(w, sr, c)
	}
	for _, m := range sr.Outliers() {
		fmt.Fprintf(w, "  outlier %s: %s\n", sr.Names[m.PageID], m.Reason)
	}
}

// writeSilhouette prints the silhouette of each k tried, the chosen one
// marked.
func writeSilhouette(w io.Writer, sil map[int]float64, chosen int) {
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

// writeCluster prints a cluster: its size, its medoid (and the other
// rule's when it differs), its members.
func writeCluster(w io.Writer, sr *sitelearn.SiteRun, c store.Cluster) {
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

// pagesN is "1 page" or "n pages".
func pagesN(n int) string {
	if n == 1 {
		return "1 page"
	}
	return fmt.Sprintf("%d pages", n)
}
