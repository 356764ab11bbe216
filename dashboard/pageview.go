package dashboard

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"strconv"

	"github.com/gleaner/gleaner/store"
)

type pageData struct {
	Page       *store.Page
	Extraction *store.Extraction // nil when the page has none
	Membership *store.Membership // in the extraction's run; nil for none
	Medoid     *store.Page       // the template medoid; nil for none
	Rendered   bool
	Layout     template.HTML // the stored layout drawn; "" without one
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	p, err := s.pageParam(r)
	if err != nil {
		s.failFor(w, err)
		return
	}
	d := pageData{Page: p, Rendered: len(p.RenderedHTML) > 0}
	if d.Extraction, err = s.latestExtraction(r.Context(), p.ID); err != nil {
		s.failFor(w, err)
		return
	}
	if d.Extraction != nil && d.Extraction.RunID != 0 {
		if d.Membership, d.Medoid, err = s.template(r.Context(), d.Extraction.RunID, p.ID); err != nil {
			s.failFor(w, err)
			return
		}
	}
	if d.Extraction != nil {
		if d.Layout, _, err = layoutSVG(p, d.Extraction.Selector); err != nil {
			s.opt.Logf("dashboard: page %d: %v", p.ID, err)
		}
	}
	s.render(w, "page", "Page "+p.Name(), "corpus", d)
}

// pageParam loads the page of the {id} path value.
func (s *Server) pageParam(r *http.Request) (*store.Page, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return nil, fmt.Errorf("page %q: %w", r.PathValue("id"), store.ErrNotFound)
	}
	return s.db.Page(r.Context(), id)
}

// latestExtraction is the page's most recent extraction (nil for none).
func (s *Server) latestExtraction(ctx context.Context, id int64) (*store.Extraction, error) {
	xs, err := s.db.Extractions(ctx, store.ExtractionQuery{PageID: id})
	if err != nil || len(xs) == 0 {
		return nil, err
	}
	x := latestPerPage(xs)[id]
	return &x, nil
}

// template finds the page's membership in run and its cluster's medoid.
func (s *Server) template(ctx context.Context, runID, pageID int64) (*store.Membership, *store.Page, error) {
	ms, err := s.db.Memberships(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	var m *store.Membership
	for i := range ms {
		if ms[i].PageID == pageID {
			m = &ms[i]
		}
	}
	if m == nil {
		return nil, nil, nil
	}
	med, err := s.medoid(ctx, runID, m.Cluster)
	return m, med, err
}

// medoid is the medoid page of cluster in run (nil when it has none).
func (s *Server) medoid(ctx context.Context, runID int64, cluster int) (*store.Page, error) {
	cs, err := s.db.Clusters(ctx, runID)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if c.ID != cluster || c.Medoid == 0 {
			continue
		}
		ps, err := s.db.Pages(ctx, store.PageQuery{IDs: []int64{c.Medoid}})
		if err != nil || len(ps) == 0 {
			return nil, err
		}
		return ps[0], nil
	}
	return nil, nil
}

// handleRender serves the page's inert static copy with its extracted
// region marked, under a sandboxing policy: it never runs in the
// dashboard's origin.
func (s *Server) handleRender(w http.ResponseWriter, r *http.Request) {
	p, err := s.pageParam(r)
	if err != nil {
		s.failFor(w, err)
		return
	}
	x, err := s.latestExtraction(r.Context(), p.ID)
	if err != nil {
		s.failFor(w, err)
		return
	}
	sel := ""
	if x != nil {
		sel = x.Selector
	}
	ct := p.ContentType
	if len(p.RenderedHTML) > 0 {
		ct = "text/html; charset=utf-8"
	}
	out, _, err := staticCopy(p.HTML(), ct, sel)
	if err != nil && sel != "" {
		out, _, err = staticCopy(p.HTML(), ct, "") // show the page without its mark
	}
	if err != nil {
		s.fail(w, http.StatusUnprocessableEntity, err)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", renderCSP)
	h.Del("X-Frame-Options")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.Write(out)
}
