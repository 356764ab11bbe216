package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
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
	rows, err := m.db.SQL().QueryContext(ctx, m.q(`SELECT d.id, d.page_id, d.round, d.title, d.author, d.published, d.body,
		COALESCE((SELECT MAX(u.hint) FROM monitor_urls u WHERE u.monitor = d.monitor AND u.doc_id = d.id AND u.state = 'article'), '')
		FROM monitor_docs d WHERE d.monitor = ? AND d.tried_run = 0 AND d.page_id > 0 ORDER BY d.id`), m.cfg.Name)
	if err != nil {
		return nil, nil, fmt.Errorf("monitor: documents to extract: %w", err)
	}
	var docs []unplaced
	for rows.Next() {
		var u unplaced
		var body, hj string
		if err := rows.Scan(&u.docID, &u.pageID, &u.round, &u.title, &u.author, &u.published, &body, &hj); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("monitor: documents to extract: %w", err)
		}
		var h hint
		_ = json.Unmarshal([]byte(hj), &h) // written by addURL; none: no news source
		u.sure = h.Via == "news" || len(strings.Fields(body)) >= articleWords
		docs = append(docs, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("monitor: documents to extract: %w", err)
	}
	out, order := map[string][]unplaced{}, []string(nil)
	for start := 0; start < len(docs); start += 200 {
		chunk := docs[start:min(start+200, len(docs))]
		ids := make([]int64, len(chunk))
		for i, d := range chunk {
			ids[i] = d.pageID
		}
		metas, err := m.db.Pages(ctx, store.PageQuery{IDs: ids})
		if err != nil {
			return nil, nil, fmt.Errorf("monitor: pages of documents: %w", err)
		}
		siteOf := map[int64]string{}
		for _, p := range metas {
			siteOf[p.ID] = p.Site
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

// templateSite learns one site's templates when due and extracts its
// unplaced documents with them.
func (m *Monitor) templateSite(ctx context.Context, site string, docs []unplaced, kinds map[int64]int, rep *Report) error {
	n, err := m.sitePages(ctx, site)
	if err != nil {
		return err
	}
	if n < m.cfg.LearnAt || n < 2*m.learnFailed[site] {
		// Too few pages to learn from, or learning failed (out of time)
		// with half as many: single-page text until then.
		return nil
	}
	if _, err := sitelearn.ReapRuns(ctx, m.db, site); err != nil {
		return err
	}
	lctx, cancel := context.WithTimeout(ctx, m.cfg.LearnTimeout)
	sr, err := sitelearn.Site(lctx, m.db, site, sitelearn.Options{Options: cluster.Options{Seed: m.cfg.Seed}})
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The documents keep their text and are tried again once the
		// site's pages have doubled (a relearning costs about as much).
		m.learnFailed[site] = n
		return fmt.Errorf("learning (tried again at %d pages): %w", 2*n, err)
	}
	delete(m.learnFailed, site)
	if sr.Run == nil || sr.Run.Status != store.RunDone {
		return nil
	}
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.pageID
	}
	res, err := siteextract.Site(ctx, ownExtractions{m.db}, site, siteextract.Options{Pages: ids})
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

// pageKinds reads which stored pages the monitor took for hubs (+1) and
// which are documents (-1), once per round.
func (m *Monitor) pageKinds(ctx context.Context) (map[int64]int, error) {
	kinds := map[int64]int{}
	for _, q := range []struct {
		sql  string
		sign int
	}{
		{`SELECT page_id FROM monitor_urls WHERE monitor = ? AND state = 'hub' AND page_id > 0`, 1},
		{`SELECT page_id FROM monitor_docs WHERE monitor = ? AND page_id > 0`, -1},
	} {
		rows, err := m.db.SQL().QueryContext(ctx, m.q(q.sql), m.cfg.Name)
		if err != nil {
			return nil, fmt.Errorf("monitor: page kinds: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("monitor: page kinds: %w", err)
			}
			kinds[id] = q.sign
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("monitor: page kinds: %w", err)
		}
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
		template := -1
		if ms, ok := tpl.Member(d.pageID); ok && p.Placed {
			template = ms.Cluster
		}
		if err := m.placeDoc(ctx, d, p, res.Run.ID, template); err != nil {
			return err
		}
		if template >= 0 && hubs[template] && !d.sure {
			// On a template of hubs: a listing taken for an article.
			if _, err := m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_docs SET kind = 'hub' WHERE id = ?`), d.docID); err != nil {
				return fmt.Errorf("monitor: kind of document %d: %w", d.docID, err)
			}
		}
		// The round's own counts are read from the store (finishRound),
		// so that a resumed round counts what its first run did.
		if templated(p) && d.round != rep.Round {
			rep.Reextracted++
		}
	}
	return nil
}

// placeDoc updates one document with its template extraction: its text
// when a template gave it, or when the page, on no template, got a
// second opinion of an article's length (see better).
func (m *Monitor) placeDoc(ctx context.Context, d unplaced, p siteextract.PageResult, runID int64, template int) error {
	if !better(p) {
		_, err := m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_docs SET tried_run = ? WHERE id = ?`), runID, d.docID)
		if err != nil {
			return fmt.Errorf("monitor: template text of document %d: %w", d.docID, err)
		}
		return nil
	}
	run := runID
	if !templated(p) {
		run, template = 0, -1
	}
	_, err := m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_docs SET body = ?, simhash = ?, method = ?, confidence = ?, run_id = ?, template = ?, tried_run = ?
		WHERE id = ?`), p.Result.Body, int64(crawler.NewSimHash(p.Result.Body)), p.Result.Method, p.Result.Confidence, run, template, runID, d.docID)
	if err != nil {
		return fmt.Errorf("monitor: template text of document %d: %w", d.docID, err)
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
