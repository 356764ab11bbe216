package siteextract

import (
	"context"
	"errors"
	"fmt"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Options tune Site.
type Options struct {
	// Extract tunes content location; its Rules are replaced by the stored
	// templates' rules.
	Extract heuristics.ExtractOptions
	// Pages limits the extraction to these pages of the site (nil: all its
	// stored pages); the partners they are compared with are read too.
	Pages []int64
	// Visible, when set, returns which elements of a stored page the
	// browser showed (capture.Visible); an error is reported through
	// Logf and the page read whole.
	Visible func(*store.Page) (func(*treediff.Node) bool, error)
	// Logf, when set, receives warnings (a layout that could not be read).
	Logf func(format string, args ...any)
}

// PageResult is one stored page's extraction.
type PageResult struct {
	PageID int64
	Name   string
	Result singlepage.Result
	Err    error
	// Placed reports that the page was compared with a partner of the
	// run's templates (else it was extracted alone).
	Placed bool
}

// SiteResult is what Site extracted and stored.
type SiteResult struct {
	Site string
	// Run is the learning run whose templates were used, nil for none.
	Run   *store.Run
	Pages []PageResult
	// Rules are the rules per cluster the extraction used (voted now, or
	// stored before for the clusters that voted none).
	Rules map[int]heuristics.Rules
}

// Site extracts the stored pages of a site with the templates of its latest
// finished learning run (LoadTemplates; without one, every page gets the
// single-page method), then stores the successful extractions with a body
// (store.Extraction.RunID is the run for the pages placed on its
// templates, 0 for the others) and the run's rules.
func Site(ctx context.Context, st store.Store, site string, opt Options) (*SiteResult, error) {
	tpl, err := LoadTemplates(ctx, st, site)
	if err != nil && !errors.Is(err, ErrNoTemplates) {
		return nil, err
	}
	ids, err := pageIDs(ctx, st, site, opt.Pages)
	if err != nil {
		return nil, err
	}
	out := &SiteResult{Site: site, Rules: map[int]heuristics.Rules{}}
	if tpl != nil {
		out.Run = tpl.Run
		opt.Extract.Rules = tpl.Rules
	}
	set, err := loadSet(ctx, st, tpl, ids, opt)
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", site, err)
	}
	se, err := heuristics.ExtractSite(ctx, set.pages, opt.Extract)
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", site, err)
	}
	out.Rules = se.Rules
	out.Pages = set.results(se)
	return out, out.store(ctx, st)
}

// pageIDs lists the site's stored pages, or checks the requested ones.
func pageIDs(ctx context.Context, st store.Store, site string, want []int64) ([]int64, error) {
	if want != nil {
		return want, nil
	}
	metas, err := st.Pages(ctx, store.PageQuery{Site: site})
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", site, err)
	}
	if len(metas) == 0 {
		return nil, fmt.Errorf("extract %s: no pages stored for this site", site)
	}
	ids := make([]int64, len(metas))
	for i, m := range metas {
		ids[i] = m.ID
	}
	return ids, nil
}

// pageSet is the pages handed to heuristics.ExtractSite: the requested
// ones first, then the partners they need.
type pageSet struct {
	pages     []heuristics.SitePage
	ids       []int64
	names     []string
	requested int
	index     map[int64]int
	failed    []PageResult // requested pages that could not be read
	order     []int64      // requested IDs, in order
}

// loadSet reads the pages ids, then each one's partner by tpl.
func loadSet(ctx context.Context, st store.Store, tpl *Templates, ids []int64, opt Options) (*pageSet, error) {
	s := &pageSet{index: map[int64]int{}, order: ids}
	for _, id := range ids {
		if name, err := s.add(ctx, st, id, opt); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.failed = append(s.failed, PageResult{PageID: id, Name: name, Err: err})
		}
	}
	s.requested = len(s.pages)
	s.addPartners(ctx, st, tpl, opt)
	return s, ctx.Err()
}

// addPartners reads the partner of each requested page (unless already
// read) and places the page with it; a page whose partner cannot be read
// is extracted alone.
func (s *pageSet) addPartners(ctx context.Context, st store.Store, tpl *Templates, opt Options) {
	for i := 0; i < s.requested; i++ {
		p, ok := tpl.Partner(s.ids[i])
		if !ok {
			continue
		}
		if _, have := s.index[p]; !have {
			if _, err := s.add(ctx, st, p, opt); err != nil {
				continue
			}
		}
		m := tpl.Members[s.ids[i]]
		s.pages[i].Cluster, s.pages[i].Medoid = m.Cluster, s.index[p]
	}
}

// add reads and parses one stored page; it returns the page's name.
func (s *pageSet) add(ctx context.Context, st store.Store, id int64, opt Options) (string, error) {
	p, err := st.Page(ctx, id)
	if err != nil {
		return fmt.Sprintf("page %d", id), err
	}
	t, err := treediff.Parse(p.Name(), p.HTML(), treediff.ParseOptions{ContentType: p.ContentType})
	if err != nil {
		return p.Name(), err
	}
	var visible func(*treediff.Node) bool
	if opt.Visible != nil {
		if visible, err = opt.Visible(p); err != nil && opt.Logf != nil {
			opt.Logf("page %s: layout ignored: %v", p.Name(), err)
		}
	}
	s.index[id] = len(s.pages)
	s.pages = append(s.pages, heuristics.SitePage{Page: t, Src: p.HTML(), Cluster: -1, Medoid: -1, Visible: visible})
	s.ids = append(s.ids, id)
	s.names = append(s.names, p.Name())
	return p.Name(), nil
}

// results returns the requested pages' results, in the requested order.
func (s *pageSet) results(se *heuristics.SiteExtraction) []PageResult {
	failed := map[int64]PageResult{}
	for _, f := range s.failed {
		failed[f.PageID] = f
	}
	out := make([]PageResult, 0, len(s.order))
	for _, id := range s.order {
		i, ok := s.index[id]
		if !ok || i >= s.requested {
			out = append(out, failed[id])
			continue
		}
		out = append(out, PageResult{PageID: id, Name: s.names[i], Result: se.Results[i], Err: se.Errs[i], Placed: s.pages[i].Medoid >= 0})
	}
	return out
}

// store puts the extractions with a body and the run's rules.
func (r *SiteResult) store(ctx context.Context, st store.Store) error {
	if err := st.PutExtractions(ctx, r.extractions()); err != nil {
		return fmt.Errorf("extract %s: %w", r.Site, err)
	}
	if r.Run == nil {
		return nil
	}
	if rules := StoreRules(r.Site, r.Run.ID, r.Rules); len(rules) > 0 {
		if err := st.PutRules(ctx, rules); err != nil {
			return fmt.Errorf("extract %s: %w", r.Site, err)
		}
	}
	return nil
}

// extractions are the successful extractions with a body, those of pages
// placed on the run's templates with its ID.
func (r *SiteResult) extractions() []store.Extraction {
	var xs []store.Extraction
	for _, p := range r.Pages {
		if p.Err != nil || p.Result.Body == "" {
			continue
		}
		runID := int64(0)
		if p.Placed {
			runID = r.Run.ID
		}
		xs = append(xs, StoreExtraction(p.Result, p.PageID, runID))
	}
	return xs
}
