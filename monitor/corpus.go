package monitor

import (
	"context"
	"fmt"
	"time"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/monitoring"
)

// Dataset is the store dataset that holds the pages of a monitor's
// documents, so that export and the other corpus tools see them as they
// see a crawl's pages (crawler.Dataset).
func Dataset(name string) string { return "monitor:" + name }

// HubDataset is the store dataset that holds the pages a monitor took for
// hubs: apart from its documents' pages, learned with them (a site's
// templates are learned on all its stored pages).
func HubDataset(name string) string { return "monitor:" + name + ":hubs" }

// extractMethod names the monitor's extraction in the store.
const extractMethod = "single-page"

// putPage stores a new document's fetched page in the store's corpus
// (dataset Dataset(name)), with the document's extraction, and returns
// the page's id.
//
// It runs before the document's own row: the store upserts a page by
// dataset and URL and an extraction by page and run, so a run killed in
// between writes the same page again when it redoes the URL, and never
// leaves a document without its page.
func (m *Monitor) putPage(ctx context.Context, d Document, pg *page, resp *response) (int64, error) {
	return m.putPageVersion(ctx, d, pg, resp, 0)
}

// putPageVersion is putPage of capture v of the document's URL (see
// store.Page.Version).
func (m *Monitor) putPageVersion(ctx context.Context, d Document, pg *page, resp *response, v int) (int64, error) {
	p := &store.Page{URL: d.URL, Dataset: Dataset(m.cfg.Name), Status: resp.status, ContentType: resp.contentType, Version: v}
	if t, err := time.Parse(time.RFC3339, d.FirstSeen); err == nil {
		p.FetchedAt = t
	}
	// With a renderer the page is a rendered DOM, else the bytes received.
	if resp.rendered {
		p.RenderedHTML = pg.src
	} else {
		p.RawHTML = pg.src
	}
	p.Exchanges = resp.exchanges
	if err := m.db.PutPages(ctx, []*store.Page{p}); err != nil {
		return 0, fmt.Errorf("monitor: page of %s: %w", d.URL, err)
	}
	x := store.Extraction{PageID: p.ID, Title: d.Title, Body: d.Text, Date: firstOf(d.Published, pg.meta.Date),
		Author: d.Author, Method: extractMethod}
	if err := m.db.PutExtractions(ctx, []store.Extraction{x}); err != nil {
		return 0, fmt.Errorf("monitor: extraction of %s: %w", d.URL, err)
	}
	return p.ID, nil
}

// storeHub records a page that is not an article: its page goes to the
// store (dataset HubDataset(name); no document, no extraction) so that the site's templates are
// learned on its hubs too, and a template the hubs make is known as one.
func (m *Monitor) storeHub(ctx context.Context, p pending, pg *page, resp *response) error {
	sp := &store.Page{URL: p.url, Dataset: HubDataset(m.cfg.Name), Status: resp.status, ContentType: resp.contentType, FetchedAt: m.cfg.Now()}
	if resp.rendered {
		sp.RenderedHTML = pg.src
	} else {
		sp.RawHTML = pg.src
	}
	sp.Exchanges = resp.exchanges
	if err := m.db.PutPages(ctx, []*store.Page{sp}); err != nil {
		return fmt.Errorf("monitor: page of %s: %w", p.url, err)
	}
	if err := m.outcome(ctx, p, monitoring.URLHub, 0, "", resp); err != nil {
		return err
	}
	return m.repo.SetHubPage(ctx, p.url, sp.ID)
}

// storeCapture stores a document's page fetched again in round r as a
// capture of its own (the next version of its URL in the store) and
// returns its page ID; current makes it the document's page (its latest
// content). Earlier captures stay as they were fetched.
func (m *Monitor) storeCapture(ctx context.Context, r int, docID int64, pg *page, resp *response, current bool) (int64, error) {
	d, found, err := m.repo.Doc(ctx, docID)
	if err != nil || !found {
		return 0, err
	}
	d.FirstSeen = m.cfg.Now().UTC().Format(time.RFC3339) // the page's fetch time
	v, err := m.db.NextVersion(ctx, Dataset(m.cfg.Name), d.URL)
	if err != nil {
		return 0, err
	}
	pageID, err := m.putPageVersion(ctx, d, pg, resp, v)
	if err != nil {
		return 0, err
	}
	if err := m.repo.AddCapture(ctx, docID, pageID, r); err != nil {
		return 0, err
	}
	if current {
		err = m.repo.SetDocPage(ctx, docID, pageID)
	}
	return pageID, err
}
