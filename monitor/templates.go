package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/monitoring"
)

// unplaced is a document whose text no template has given yet.
type unplaced struct {
	docID, pageID            int64
	round                    int
	title, author, published string
	// sure: the page was an article by strong evidence (a feed or news
	// sitemap listed it, or its single-page text is an article's length),
	// which a template does not overrule.
	sure bool
}

// applyTemplates brings each site's learned templates up to date with the
// documents stored since they were last applied and extracts those
// documents with them (package siteextract, the pipeline eval, extract and
// crawl run: the pair diff against the template's medoid and its rules;
// the single-page method for a page no template takes). A document first
// stored with its single-page text gets the new text, once: an update of
// its text, not a new document. A site is learned (sitelearn.Site:
// assigned to its templates, relearned on drift) once it has
// Config.LearnAt documents, each site within Config.LearnTimeout and all
// of them within Config.LearnBudget; a site past the budget is learned
// next round. A learning or extraction error is a note, never the round's
// end.
func (m *Monitor) applyTemplates(ctx context.Context, rep *Report) error {
	if m.cfg.LearnAt < 0 {
		return nil
	}
	bySite, sites, err := m.unplaced(ctx)
	if err != nil || len(sites) == 0 {
		return err
	}
	kinds, err := m.pageKinds(ctx)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(m.cfg.LearnBudget)
	for i, s := range sites {
		if err := ctx.Err(); err != nil {
			return err
		}
		if time.Now().After(deadline) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("templates: learning budget %s spent; %d sites left for the next round", m.cfg.LearnBudget, len(sites)-i))
			return nil
		}
		if err := m.templateSite(ctx, s, bySite[s], kinds, rep); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			rep.Notes = append(rep.Notes, fmt.Sprintf("templates of %s: %v", s, err))
		}
	}
	return nil
}

// unplaced lists, by store site, the documents never extracted with the
// templates of their site, and the sites in the order of their oldest
// such document (the longest waiting first, should the budget run out).
func (m *Monitor) unplaced(ctx context.Context) (map[string][]unplaced, []string, error) {
	rows, err := m.repo.Untried(ctx)
	if err != nil {
		return nil, nil, err
	}
	docs := make([]unplaced, len(rows))
	for i, row := range rows {
		docs[i] = unplacedOf(row)
	}
	out, order := map[string][]unplaced{}, []string(nil)
	for start := 0; start < len(docs); start += 200 {
		chunk := docs[start:min(start+200, len(docs))]
		siteOf, err := m.pageSites(ctx, chunk)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range chunk {
			if s := siteOf[d.pageID]; s != "" {
				if out[s] == nil {
					order = append(order, s)
				}
				out[s] = append(out[s], d)
			}
		}
	}
	return out, order, nil
}

// unplacedOf is a document waiting for its template, with how sure the
// monitor is that it is an article.
func unplacedOf(row monitoring.Untried) unplaced {
	var h hint
	_ = json.Unmarshal([]byte(row.Hint), &h) // written by addURL; none: no news source
	return unplaced{docID: row.DocID, pageID: row.PageID, round: row.Round, title: row.Title, author: row.Author, published: row.Published,
		sure: h.Via == viaNews || len(strings.Fields(row.Text)) >= articleWords}
}

// pageSites returns the store site of each document's page.
func (m *Monitor) pageSites(ctx context.Context, docs []unplaced) (map[int64]string, error) {
	metas, err := m.db.Pages(ctx, store.PageQuery{IDs: pageIDs(docs)})
	if err != nil {
		return nil, fmt.Errorf("monitor: pages of documents: %w", err)
	}
	siteOf := map[int64]string{}
	for _, p := range metas {
		siteOf[p.ID] = p.Site
	}
	return siteOf, nil
}

// templateSite learns one site's templates when due and extracts its
// unplaced documents with them.
func (m *Monitor) templateSite(ctx context.Context, site string, docs []unplaced, kinds map[int64]int, rep *Report) error {
	n, due, err := m.learningDue(ctx, site)
	if err != nil || !due {
		return err
	}
	learned, err := m.learnSite(ctx, site, n)
	if err != nil || !learned {
		return err
	}
	return m.extractSite(ctx, site, docs, kinds, rep)
}

// learningDue reports whether a site's templates are to be learned now,
// with its page count: not with too few pages to learn from, nor, when
// its learning failed (out of time) with half as many pages or more, in
// any process: its documents keep their single-page text until then.
func (m *Monitor) learningDue(ctx context.Context, site string) (int, bool, error) {
	n, err := m.sitePages(ctx, site)
	if err != nil {
		return 0, false, err
	}
	failedAt, err := m.repo.LearningBackoff(ctx, site)
	if err != nil {
		return 0, false, err
	}
	return n, n >= m.cfg.LearnAt && n >= 2*failedAt, nil
}

// learnSite learns a site of n pages within Config.LearnTimeout; it
// reports whether the site has a finished learning run. A failure is
// stored with the site: it is tried again once the site's pages have
// doubled (a relearning costs about as much), whichever process runs
// then.
func (m *Monitor) learnSite(ctx context.Context, site string, n int) (bool, error) {
	if _, err := sitelearn.ReapRuns(ctx, m.db, site); err != nil {
		return false, err
	}
	lctx, cancel := context.WithTimeout(ctx, m.cfg.LearnTimeout)
	sr, err := sitelearn.Site(lctx, m.db, site, sitelearn.Options{Options: cluster.Options{Seed: m.cfg.Seed}})
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if serr := m.repo.LearningFailed(ctx, site, n, time.Now(), err); serr != nil {
			return false, serr
		}
		return false, fmt.Errorf("learning (tried again at %d pages): %w", 2*n, err)
	}
	if err := m.repo.LearningDone(ctx, site); err != nil {
		return false, err
	}
	return sr.Run != nil && sr.Run.Status == store.RunDone, nil
}

// extractSite extracts a learned site's unplaced documents with its
// templates (siteextract) and writes what they gave.
func (m *Monitor) extractSite(ctx context.Context, site string, docs []unplaced, kinds map[int64]int, rep *Report) error {
	res, err := siteextract.Site(ctx, ownExtractions{m.db}, site, siteextract.Options{Pages: pageIDs(docs)})
	if err != nil {
		return fmt.Errorf("extraction: %w", err)
	}
	if res.Run == nil {
		return nil
	}
	tpl, err := siteextract.TemplatesOf(ctx, m.db, res.Run)
	if err != nil {
		return fmt.Errorf("extraction: %w", err)
	}
	return m.placeDocs(ctx, docs, res, tpl, hubTemplates(tpl, kinds), rep)
}

// pageIDs are the documents' store pages.
func pageIDs(docs []unplaced) []int64 {
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.pageID
	}
	return ids
}

// pageKinds reads which stored pages the monitor took for hubs (+1) and
// which are documents (-1), once per round.
func (m *Monitor) pageKinds(ctx context.Context) (map[int64]int, error) {
	hubs, err := m.repo.HubPages(ctx)
	if err != nil {
		return nil, err
	}
	docs, err := m.repo.DocPages(ctx)
	if err != nil {
		return nil, err
	}
	kinds := map[int64]int{}
	for _, id := range hubs {
		kinds[id] = 1
	}
	for _, id := range docs {
		kinds[id] = -1
	}
	return kinds, nil
}

// hubTemplates returns the templates (clusters) of a run that the site's
// hubs make: more of their members are pages the monitor took for hubs
// than documents.
func hubTemplates(tpl *siteextract.Templates, kinds map[int64]int) map[int]bool {
	votes := map[int]int{}
	for id, ms := range tpl.Members {
		if !ms.Outlier {
			votes[ms.Cluster] += kinds[id]
		}
	}
	out := map[int]bool{}
	for c, v := range votes {
		out[c] = v > 0
	}
	return out
}

// sitePages counts a site's pages in the store.
func (m *Monitor) sitePages(ctx context.Context, site string) (int, error) {
	metas, err := m.db.Pages(ctx, store.PageQuery{Site: site})
	if err != nil {
		return 0, fmt.Errorf("monitor: pages of %s: %w", site, err)
	}
	return len(metas), nil
}

// placeDocs writes the template extraction of each document: its text,
// method, template and confidence, and the run it was tried against.
func (m *Monitor) placeDocs(ctx context.Context, docs []unplaced, res *siteextract.SiteResult, tpl *siteextract.Templates, hubs map[int]bool, rep *Report) error {
	byPage := map[int64]siteextract.PageResult{}
	for _, p := range res.Pages {
		byPage[p.PageID] = p
	}
	for _, d := range docs {
		p, ok := byPage[d.pageID]
		if !ok {
			continue
		}
		if err := m.placeOne(ctx, d, p, res.Run.ID, tpl, hubs); err != nil {
			return err
		}
		// The round's own counts are read from the store (finishRound),
		// so that a resumed round counts what its first run did.
		if templated(p) && d.round != rep.Round {
			rep.Reextracted++
		}
	}
	return nil
}

// placeOne writes one document's template extraction, and its kind when
// its template is one of the site's hubs.
func (m *Monitor) placeOne(ctx context.Context, d unplaced, p siteextract.PageResult, runID int64, tpl *siteextract.Templates, hubs map[int]bool) error {
	template := -1
	if ms, ok := tpl.Member(d.pageID); ok && p.Placed {
		template = ms.Cluster
	}
	if err := m.placeDoc(ctx, d, p, runID, template); err != nil {
		return err
	}
	if template >= 0 && hubs[template] && !d.sure {
		// On a template of hubs: a listing taken for an article.
		return m.repo.SetKind(ctx, d.docID, monitoring.KindHub)
	}
	return nil
}

// placeDoc updates one document with its template extraction: its text
// when a template gave it, or when the page, on no template, got a
// second opinion of an article's length (see better).
func (m *Monitor) placeDoc(ctx context.Context, d unplaced, p siteextract.PageResult, runID int64, template int) error {
	if !better(p) {
		return m.repo.SetTried(ctx, d.docID, runID)
	}
	run := runID
	if !templated(p) {
		run, template = 0, -1
	}
	err := m.repo.SetTemplateText(ctx, d.docID, monitoring.TemplateText{Text: p.Result.Body, SimHash: int64(relevance.NewSimHash(p.Result.Body)),
		Method: p.Result.Method, Confidence: p.Result.Confidence, Run: run, Template: template, Tried: runID})
	if err != nil {
		return err
	}
	// The store's extraction says what the document says (its title, date
	// and author come from the page and its sources), so that export,
	// which reads the latest extraction, writes the document.
	x := siteextract.StoreExtraction(p.Result, d.pageID, run)
	x.Title, x.Author, x.Date = d.title, d.author, firstOf(d.published, p.Result.Date)
	if err := m.db.PutExtractions(ctx, []store.Extraction{x}); err != nil {
		return fmt.Errorf("monitor: extraction of document %d: %w", d.docID, err)
	}
	return nil
}

// better reports whether the site pipeline's text of a page replaces the
// monitor's single-page one (read without a second opinion): a template
// gave it, or no template took the page and go-trafilatura's second
// opinion found an article's length of text (on an app shell it reads
// "Loading…" as the body, which is not taken).
func better(p siteextract.PageResult) bool {
	return templated(p) || (p.Err == nil && p.Result.Method == singlepage.MethodSecondOpinion &&
		len(strings.Fields(p.Result.Body)) >= datedWords)
}

// templated reports whether a page's text came from its template: the pair
// diff with its partner or the cluster's rules (a placed page where both
// fail falls back on the single-page method).
func templated(p siteextract.PageResult) bool {
	return p.Err == nil && p.Placed && p.Result.Body != "" &&
		(p.Result.Method == singlepage.MethodPair || p.Result.Method == singlepage.MethodCluster)
}

// ownExtractions is the store as siteextract.Site sees it from the
// monitor: the rules it votes are stored, its extractions are not, since
// the monitor writes each document's extraction itself (with the
// document's title, date and author, and only when a template gave the
// text), so that the store's latest extraction of a page is its document.
type ownExtractions struct{ store.Store }

func (ownExtractions) PutExtractions(context.Context, []store.Extraction) error { return nil }
