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
	nearest := nearestToMedoids(members, medoids)
	out := make([]int, len(members))
	for i, m := range members {
		out[i] = partnerOf(i, m, medoids, nearest)
	}
	return out
}

// nearestToMedoids maps each cluster to its placed member nearest its
// medoid, the medoid aside: the medoid's own partner.
func nearestToMedoids(members []Member, medoids map[int]int) map[int]int {
	nearest := map[int]int{}
	for i, m := range members {
		med, ok := medoids[m.Cluster]
		if m.Cluster < 0 || m.Outlier || !ok || med == i {
			continue
		}
		if j, ok := nearest[m.Cluster]; !ok || m.Distance < members[j].Distance {
			nearest[m.Cluster] = i
		}
	}
	return nearest
}

// partnerOf is the partner of page i, placed by m: its cluster's medoid,
// or for the medoid its nearest member; -1 for an outlier, an unplaced
// page or a cluster without medoid or other member.
func partnerOf(i int, m Member, medoids, nearest map[int]int) int {
	med, ok := medoids[m.Cluster]
	switch {
	case m.Cluster < 0 || m.Outlier || !ok:
		return -1
	case med != i:
		return med
	}
	if j, ok := nearest[m.Cluster]; ok {
		return j
	}
	return -1
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
