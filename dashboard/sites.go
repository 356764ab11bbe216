package dashboard

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"sort"
	"strconv"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/store"
)

// heatCap bounds the pages of the heat map (n² cells in the page).
const heatCap = 200

type siteRow struct {
	store.Site
	Run *store.Run // latest finished learning run; nil when none
}

func (s *Server) handleSites(w http.ResponseWriter, r *http.Request) {
	sites, err := s.db.Sites(r.Context())
	if err != nil {
		s.failFor(w, err)
		return
	}
	rows := make([]siteRow, 0, len(sites))
	for _, st := range sites {
		run, err := s.db.LatestRun(r.Context(), st.Name, store.RunDone)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.failFor(w, err)
			return
		}
		rows = append(rows, siteRow{Site: st, Run: run})
	}
	s.render(w, "sites", "Sites", "sites", rows)
}

// clusterRow is one template of a run.
type clusterRow struct {
	store.Cluster
	Color  string
	Medoid string // the medoid page's name
	Rules  []store.Rule
}

type siteData struct {
	Site       string
	Run        *store.Run
	Runs       []*store.Run
	Clusters   []clusterRow
	Pages      int
	Outliers   int
	Scatter    template.HTML
	Heatmap    template.HTML
	HeatPages  int
	Silhouette template.HTML
}

func (s *Server) handleSite(w http.ResponseWriter, r *http.Request) {
	site := r.PathValue("site")
	run, err := s.siteRun(r, site)
	if err != nil {
		s.failFor(w, err)
		return
	}
	d, err := s.siteTemplates(r.Context(), run)
	if err != nil {
		s.failFor(w, err)
		return
	}
	if d.Runs, err = s.db.Runs(r.Context(), site); err != nil {
		s.failFor(w, err)
		return
	}
	s.render(w, "site", "Site "+site, "sites", d)
}

// siteRun is the run asked for (?run=ID) or the site's latest finished one.
func (s *Server) siteRun(r *http.Request, site string) (*store.Run, error) {
	if v := r.URL.Query().Get("run"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("run %q: %w", v, store.ErrNotFound)
		}
		run, err := s.db.Run(r.Context(), id)
		if err == nil && run.Site != site {
			err = fmt.Errorf("run %d is not of site %s: %w", id, site, store.ErrNotFound)
		}
		return run, err
	}
	run, err := s.db.LatestRun(r.Context(), site, store.RunDone)
	if err != nil {
		return nil, fmt.Errorf("site %s has no finished learning run: %w", site, err)
	}
	return run, nil
}

// siteTemplates gathers a run's clusters, scatter, heat map and
// silhouette curve.
func (s *Server) siteTemplates(ctx context.Context, run *store.Run) (*siteData, error) {
	members, err := s.db.Memberships(ctx, run.ID)
	if err != nil {
		return nil, err
	}
	clusters, err := s.db.Clusters(ctx, run.ID)
	if err != nil {
		return nil, err
	}
	pages, err := s.pageIndex(ctx, members)
	if err != nil {
		return nil, err
	}
	d := &siteData{Site: run.Site, Run: run, Pages: len(members), Silhouette: silhouetteSVG(run.Silhouette, run.K)}
	if d.Clusters, err = s.clusterRows(ctx, run.ID, clusters, pages); err != nil {
		return nil, err
	}
	medoids := map[int64]bool{}
	for _, c := range clusters {
		medoids[c.Medoid] = true
	}
	pts := make([]point, 0, len(members))
	for _, m := range members {
		pts = append(pts, point{PageID: m.PageID, Label: fmt.Sprintf("%s (template %d)", pageName(pages[m.PageID]), m.Cluster),
			X: m.X, Y: m.Y, Cluster: m.Cluster, Medoid: medoids[m.PageID], Outlier: m.Outlier})
		if m.Outlier {
			d.Outliers++
		}
	}
	d.Scatter = scatterSVG(pts)
	d.Heatmap, d.HeatPages, err = s.heatmap(ctx, members, pages)
	return d, err
}

func pageName(p *store.Page) string {
	if p == nil {
		return "?"
	}
	return p.Name()
}

// pageIndex loads the metadata of the members' pages.
func (s *Server) pageIndex(ctx context.Context, members []store.Membership) (map[int64]*store.Page, error) {
	ids := make([]int64, len(members))
	for i, m := range members {
		ids[i] = m.PageID
	}
	out := map[int64]*store.Page{}
	if len(ids) == 0 {
		return out, nil
	}
	ps, err := s.db.Pages(ctx, store.PageQuery{IDs: ids})
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		out[p.ID] = p
	}
	return out, nil
}

func (s *Server) clusterRows(ctx context.Context, runID int64, cs []store.Cluster, pages map[int64]*store.Page) ([]clusterRow, error) {
	rules, err := s.db.Rules(ctx, runID)
	if err != nil {
		return nil, err
	}
	out := make([]clusterRow, len(cs))
	for i, c := range cs {
		out[i] = clusterRow{Cluster: c, Color: clusterColor(c.ID), Medoid: pageName(pages[c.Medoid])}
		for _, ru := range rules {
			if ru.Cluster == c.ID {
				out[i].Rules = append(out[i].Rules, ru)
			}
		}
	}
	return out, nil
}

// heatmap draws the normalised tree edit distances between the run's pages
// (at most heatCap), ordered by cluster then distance to the medoid.
func (s *Server) heatmap(ctx context.Context, members []store.Membership, pages map[int64]*store.Page) (template.HTML, int, error) {
	ms := heatOrder(members)
	hashes := make([]string, len(ms))
	labels := make([]string, len(ms))
	var bands []int
	for i, m := range ms {
		hashes[i], labels[i] = hashOf(pages, m.PageID), pageName(pages[m.PageID])
		if i > 0 && m.Cluster != ms[i-1].Cluster {
			bands = append(bands, i)
		}
	}
	var pairs []store.Pair
	for i := range hashes {
		for j := i + 1; j < len(hashes); j++ {
			pairs = append(pairs, store.MakePair(hashes[i], hashes[j]))
		}
	}
	got, err := s.db.Distances(ctx, cluster.CacheView, pairs)
	if err != nil {
		return "", 0, err
	}
	dist := make([][]float64, len(ms))
	for i := range dist {
		dist[i] = make([]float64, len(ms))
		for j := range dist[i] {
			dist[i][j] = pairDistance(got, hashes[i], hashes[j])
		}
	}
	return heatmapSVG(labels, dist, bands), len(ms), nil
}

// heatOrder sorts memberships by cluster then distance to the medoid and
// keeps the first heatCap.
func heatOrder(members []store.Membership) []store.Membership {
	ms := append([]store.Membership(nil), members...)
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Cluster != ms[j].Cluster {
			return ms[i].Cluster < ms[j].Cluster
		}
		return ms[i].Distance < ms[j].Distance
	})
	return ms[:min(len(ms), heatCap)]
}

func hashOf(pages map[int64]*store.Page, id int64) string {
	if p := pages[id]; p != nil {
		return p.Hash
	}
	return ""
}

// pairDistance is the normalised distance of two contents, 0 for the same
// content, NaN when not cached.
func pairDistance(got map[store.Pair]store.Distance, a, b string) float64 {
	if a == b && a != "" {
		return 0
	}
	d, ok := got[store.MakePair(a, b)]
	if !ok {
		return math.NaN()
	}
	return cluster.NormalizeCached(d.Distance, d.NodesA, d.NodesB)
}
