// Package crawllearn provides the templates of the sites a crawl visits,
// learned while it crawls: each page extracted against its template's
// medoid once its site is learned (sitelearn, siteextract), learning again
// as a site grows, as jobs run once among a shared crawl's workers, the
// kept pages extracted again at the end, and the learned body regions as
// hints for the renderer.
package crawllearn

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/frontier"
	"github.com/gleaner/gleaner/treediff"
)

// Learner learns the templates of the crawled sites while crawling and
// extracts each page with its template: sitelearn.Site once a site has
// LearnAt stored pages, then again each time its page count doubles (it
// assigns the new pages to the medoids and relearns on drift; doubling keeps
// the total cost of learning within a constant factor of the last run); a
// page known to a run is compared with its partner (siteextract.Partners:
// its cluster's medoid, or the medoid's nearest member), the others get the
// single-page extractor. At the end of the crawl the kept pages are
// extracted again with the site pipeline (siteextract.Site).
type Learner struct {
	db  *store.DB
	cfg Options

	// claim, when other workers crawl (and learn) the same sites, takes a
	// learning job for this process, false when another took it; nil
	// when the crawl is run alone.
	claim ClaimFunc

	mu    sync.Mutex
	sites map[string]*siteState
	// hints are the body selectors of each site's learned rules, passed
	// to the renderer as the page's content region (see noteRules).
	hints map[string]browser.PageOptions
}

type siteState struct {
	mu         sync.Mutex // one learning or lookup at a time per site
	loaded     bool
	pages      int
	sinceLearn int
	nextLearn  int                    // learn again once the site has this many pages
	tpl        *siteextract.Templates // nil before the site's first run
	trees      map[int64]*treediff.Tree
	// medoids keeps what is derived from each medoid tree (its blocks,
	// its prose), shared by the site's pages compared with it.
	medoids *heuristics.Medoids
	synced  time.Time // shared: when pages and run were last read from the store
}

// Options are what a crawl's configuration tells its learner.
type Options struct {
	// LearnAt is how many stored pages a site needs before its templates
	// are learned; negative: never.
	LearnAt int
	// Seed drives the randomised steps of template learning.
	Seed int64
	// Logf receives one line per notable event (nil: none).
	Logf func(format string, args ...any)
}

// ClaimFunc takes a learning job of a shared crawl (a site's learning at
// a level, or its end-of-crawl learning) for this process: false when
// another worker took it.
type ClaimFunc func(ctx context.Context, site string, kind frontier.JobKind, level int) (bool, error)

// New returns the learner of a crawl over db.
func New(db *store.DB, opt Options) *Learner {
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	return &Learner{db: db, cfg: opt, sites: map[string]*siteState{}}
}

// Share makes the learner one of a shared crawl's workers: learning at
// each level, and at the end, is a job claim takes for one worker.
func (l *Learner) Share(claim ClaimFunc) { l.claim = claim }

func (l *Learner) site(name string) *siteState {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.sites[name]
	if s == nil {
		s = &siteState{}
		l.sites[name] = s
	}
	return s
}

// useRun loads a finished run's templates (memberships, medoids, rules).
func (l *Learner) useRun(ctx context.Context, s *siteState, run *store.Run) error {
	tpl, err := siteextract.TemplatesOf(ctx, l.db, run)
	if err != nil {
		return err
	}
	s.tpl, s.trees, s.medoids = tpl, map[int64]*treediff.Tree{}, &heuristics.Medoids{}
	if err := l.noteRules(ctx, run.Site, tpl); err != nil {
		// The hint only saves waiting: its pages get the normal wait.
		l.cfg.Logf("templates of %s: content region hint: %v", run.Site, err)
	}
	return nil
}

// prepare loads a site's state once: its stored page count and latest run.
func (l *Learner) prepare(ctx context.Context, site string, s *siteState) error {
	if s.loaded {
		return nil
	}
	metas, err := l.db.Pages(ctx, store.PageQuery{Site: site})
	if err != nil {
		return err
	}
	s.pages = len(metas)
	// A learning run left running by a crawl that was killed is marked
	// failed, and the site learned again at the end of this crawl.
	reaped, err := sitelearn.ReapRuns(ctx, l.db, site)
	if err != nil {
		return err
	}
	for _, r := range reaped {
		l.cfg.Logf("templates of %s: run %d %s: learning again", site, r.ID, r.Message)
		s.sinceLearn = max(s.sinceLearn, 1)
	}
	run, err := l.db.LatestRun(ctx, site, store.RunDone)
	switch {
	case err == nil:
		if err := l.useRun(ctx, s, run); err != nil {
			return err
		}
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	s.loaded = true
	return nil
}

func (l *Learner) learnSite(ctx context.Context, site string, s *siteState) error {
	sr, err := sitelearn.Site(ctx, l.db, site, sitelearn.Options{Options: cluster.Options{Seed: l.cfg.Seed}})
	if err != nil {
		return err
	}
	s.sinceLearn = 0
	s.nextLearn = 2 * s.pages
	if sr.Run != nil && sr.Run.Status == store.RunDone {
		l.cfg.Logf("templates of %s: %s, k = %d over %d pages (run %d)", site, sr.Mode, sr.Run.K, sr.Run.Pages, sr.Run.ID)
		return l.useRun(ctx, s, sr.Run)
	}
	return nil
}

// Extract learns the page's site when due and extracts the page. It
// returns the run whose templates were used (0 for none).
func (l *Learner) Extract(ctx context.Context, sp *store.Page, tree *treediff.Tree) (singlepage.Result, int64, error) {
	s := l.site(sp.Site)
	s.mu.Lock()
	in, runID, err := l.input(ctx, sp, tree, s)
	if err != nil {
		s.mu.Unlock()
		return singlepage.Result{}, 0, err
	}
	// The site stays locked until the extraction ends, even one given up
	// (its medoid tree and rules are the site's).
	r, err := extractCtx(ctx, in, heuristics.ExtractOptions{Medoids: s.medoids}, s.mu.Unlock)
	return r, runID, err
}

// input prepares the extraction of sp on its site's templates, learning
// them when due; s.mu is held.
func (l *Learner) input(ctx context.Context, sp *store.Page, tree *treediff.Tree, s *siteState) (heuristics.Input, int64, error) {
	if err := l.prepare(ctx, sp.Site, s); err != nil {
		return heuristics.Input{}, 0, err
	}
	if _, known := s.tpl.Member(sp.ID); !known {
		s.pages++
		s.sinceLearn++
	}
	if err := l.sync(ctx, sp.Site, s); err != nil {
		return heuristics.Input{}, 0, err
	}
	if l.cfg.LearnAt > 0 && s.pages >= max(l.cfg.LearnAt, s.nextLearn) && l.due(ctx, sp.Site, s) {
		if err := l.learnSite(ctx, sp.Site, s); err != nil {
			if ctx.Err() != nil {
				return heuristics.Input{}, 0, ctx.Err()
			}
			l.cfg.Logf("templates of %s: %v", sp.Site, err)
			s.sinceLearn, s.nextLearn = 0, 2*s.pages
		}
	}
	in := heuristics.Input{Page: tree, Src: sp.HTML(), Visible: l.visible(sp)}
	runID := int64(0)
	if partner, ok := s.tpl.Partner(sp.ID); ok {
		if mt, err := l.medoidTree(ctx, s, partner); err == nil {
			m, _ := s.tpl.Member(sp.ID)
			in.Medoid, in.Rules, runID = mt, s.tpl.Rules[m.Cluster], s.tpl.Run.ID
		}
	}
	return in, runID, nil
}

// extractCtx runs the extraction of in, given up when ctx ends: the
// extraction itself takes no context, and can take tens of seconds on a
// page of many blocks, which must not hold a stopping crawl (SIGTERM).
// done is called when the extraction ends, given up or not.
func extractCtx(ctx context.Context, in heuristics.Input, opt heuristics.ExtractOptions, done func()) (singlepage.Result, error) {
	type result struct {
		r   singlepage.Result
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer done()
		r, err := heuristics.Extract(in, opt)
		ch <- result{r, err}
	}()
	select {
	case res := <-ch:
		return res.r, res.err
	case <-ctx.Done():
		return singlepage.Result{}, fmt.Errorf("extract: %w", ctx.Err())
	}
}

func (l *Learner) medoidTree(ctx context.Context, s *siteState, id int64) (*treediff.Tree, error) {
	if t := s.trees[id]; t != nil {
		return t, nil
	}
	p, err := l.db.Page(ctx, id)
	if err != nil {
		return nil, err
	}
	t, err := treediff.Parse(p.Name(), p.HTML(), treediff.ParseOptions{ContentType: p.ContentType})
	if err != nil {
		return nil, err
	}
	// Kept as the browser showed it: pruning once here is what
	// Input.MedoidVisible would do at every extraction.
	t = heuristics.VisibleTree(t, l.visible(p))
	s.trees[id] = t
	return t, nil
}

// visible is which elements of a stored page the browser showed, nil when
// its capture has no (readable) layout: extraction then reads them all.
func (l *Learner) visible(p *store.Page) func(*treediff.Node) bool {
	v, err := capture.Visible(p)
	if err != nil {
		l.cfg.Logf("layout ignored: %v", err)
	}
	return v
}

// Finish brings the templates of the sites of the crawl's kept pages ids
// up to date with all their pages and extracts those pages again with them (pair diff against
// the medoid, cluster rules voted among the pages), storing the
// extractions and rules of the run.
func (l *Learner) Finish(ctx context.Context, ids []int64) error {
	if l.cfg.LearnAt < 0 {
		return nil
	}
	bySite, err := l.pagesBySite(ctx, ids)
	if err != nil {
		return err
	}
	sites := make([]string, 0, len(bySite))
	for s := range bySite {
		sites = append(sites, s)
	}
	sort.Strings(sites)
	for _, site := range sites {
		if err := l.finishOnce(ctx, site, bySite[site]); err != nil {
			return err
		}
	}
	return nil
}

// pagesBySite groups stored pages' ids by site.
func (l *Learner) pagesBySite(ctx context.Context, ids []int64) (map[string][]int64, error) {
	bySite := map[string][]int64{}
	for start := 0; start < len(ids); start += 200 {
		metas, err := l.db.Pages(ctx, store.PageQuery{IDs: ids[start:min(start+200, len(ids))]})
		if err != nil {
			return nil, err
		}
		for _, m := range metas {
			bySite[m.Site] = append(bySite[m.Site], m.ID)
		}
	}
	return bySite, nil
}

// finishOnce finishes a site (finishSite) unless another worker took the
// job of its page count: once per site and page count, whichever worker
// stops last. A site's failure is logged; only a store failure to claim
// the job, or the end of ctx, is an error.
func (l *Learner) finishOnce(ctx context.Context, site string, ids []int64) error {
	if l.claim != nil {
		if ok, err := l.claim(ctx, site, frontier.FinalJob, len(ids)); err != nil || !ok {
			return err
		}
	}
	s := l.site(site)
	s.mu.Lock()
	err := l.finishSite(ctx, site, s, ids)
	s.mu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		l.cfg.Logf("templates of %s: %v", site, err)
	}
	return nil
}

func (l *Learner) finishSite(ctx context.Context, site string, s *siteState, ids []int64) error {
	if err := l.prepare(ctx, site, s); err != nil {
		return err
	}
	if s.pages < max(l.cfg.LearnAt, 2) {
		return nil
	}
	// Learn when the templates miss pages: added since the last run in
	// this process (sinceLearn) or before it (a resumed crawl).
	if s.tpl == nil || s.sinceLearn > 0 || s.pages > len(s.tpl.Members) {
		if err := l.learnSite(ctx, site, s); err != nil {
			return err
		}
	}
	if s.tpl == nil {
		return nil
	}
	_, err := siteextract.Site(ctx, l.db, site, siteextract.Options{Pages: ids, Visible: capture.Visible,
		Logf: func(format string, args ...any) { l.cfg.Logf("re-extract "+site+": "+format, args...) }})
	return err
}

// sync, in a shared crawl, reads what the other workers did to a site: its
// stored page count and its latest learning run (at most every 2 seconds).
func (l *Learner) sync(ctx context.Context, site string, s *siteState) error {
	if l.claim == nil || time.Since(s.synced) < 2*time.Second {
		return nil
	}
	s.synced = time.Now()
	metas, err := l.db.Pages(ctx, store.PageQuery{Site: site})
	if err != nil {
		return err
	}
	s.pages = max(s.pages, len(metas))
	run, err := l.db.LatestRun(ctx, site, store.RunDone)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return err
	case s.tpl == nil || s.tpl.Run == nil || run.ID > s.tpl.Run.ID:
		return l.useRun(ctx, s, run)
	}
	return nil
}

// due reports whether this process learns the site now. Alone, it does; in
// a shared crawl, learning at each level (LearnAt pages, then each
// doubling) is a job that runs once, on whichever worker claims it first —
// the others read its run (sync).
func (l *Learner) due(ctx context.Context, site string, s *siteState) bool {
	if l.claim == nil {
		return true
	}
	level := 0
	for s.pages >= l.cfg.LearnAt<<(level+1) {
		level++
	}
	s.nextLearn = l.cfg.LearnAt << (level + 1)
	ok, err := l.claim(ctx, site, frontier.LearnJob, level)
	if err != nil {
		l.cfg.Logf("templates of %s: %v", site, err)
		return false
	}
	return ok
}
