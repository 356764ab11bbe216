package siteextract

import "github.com/gleaner/gleaner/heuristics"

// Member is where a learning run put one page.
type Member struct {
	// Cluster is the page's template cluster; negative when the run did
	// not place the page.
	Cluster int
	// Distance is the normalised tree edit distance to the cluster's medoid.
	Distance float64
	// Outlier reports that the page fits no template.
	Outlier bool
}

// Partners returns, for each page, the index of the page it is compared
// with, -1 for none (see the package doc for the rule). members[i] places
// page i; medoids maps a cluster to the index of its medoid page (a cluster
// whose medoid is not among the pages gets no partner).
func Partners(members []Member, medoids map[int]int) []int {
	out := make([]int, len(members))
	nearest := map[int]int{} // cluster -> index of its member nearest the medoid
	for i, m := range members {
		out[i] = -1
		med, ok := medoids[m.Cluster]
		if m.Cluster < 0 || m.Outlier || !ok || med == i {
			continue
		}
		if j, ok := nearest[m.Cluster]; !ok || m.Distance < members[j].Distance {
			nearest[m.Cluster] = i
		}
	}
	for i, m := range members {
		med, ok := medoids[m.Cluster]
		switch {
		case m.Cluster < 0 || m.Outlier || !ok:
		case med != i:
			out[i] = med
		default:
			if j, ok := nearest[m.Cluster]; ok {
				out[i] = j
			}
		}
	}
	return out
}

// Place sets each site page's Cluster and Medoid by Partners: a page
// without partner gets Cluster and Medoid -1 (the single-page method).
func Place(pages []heuristics.SitePage, members []Member, medoids map[int]int) {
	for i, j := range Partners(members, medoids) {
		pages[i].Cluster, pages[i].Medoid = -1, -1
		if j >= 0 {
			pages[i].Cluster, pages[i].Medoid = members[i].Cluster, j
		}
	}
}
