package monitor

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// maxAttempts bounds the fetches of a URL that keeps failing.
const maxAttempts = 3

// pending is a URL waiting for its fetch in a round.
type pending struct {
	url, site, state string
	detail           string // for a copy waiting for its original: the original's URL
	hint             hint
	attempts         int
	docID            int64
	etag, lastMod    string
}

// fetchPending fetches the round's pending URLs and re-checks the
// modified ones, in the order their sources listed them.
func (m *Monitor) fetchPending(ctx context.Context, r int, rep *Report) error {
	rows, err := m.db.SQL().QueryContext(ctx, m.q(`SELECT url, site, state, detail, hint, attempts, doc_id, etag, last_modified FROM monitor_urls
		WHERE monitor = ? AND state IN ('pending', 'recheck', 'waiting') ORDER BY seq`), m.cfg.Name)
	if err != nil {
		return fmt.Errorf("monitor: pending urls: %w", err)
	}
	var list []pending
	for rows.Next() {
		var p pending
		var hj string
		if err := rows.Scan(&p.url, &p.site, &p.state, &p.detail, &hj, &p.attempts, &p.docID, &p.etag, &p.lastMod); err != nil {
			rows.Close()
			return fmt.Errorf("monitor: pending urls: %w", err)
		}
		_ = json.Unmarshal([]byte(hj), &p.hint) // written by addURL; a bad one leaves no hints
		list = append(list, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("monitor: pending urls: %w", err)
	}
	if err := m.loadHashes(ctx); err != nil {
		return err
	}
	m.deferred = nil
	var waiting []pending
	bySite := map[string][]pending{}
	var sites []string
	for _, p := range list {
		if err := ctx.Err(); err != nil {
			return err
		}
		switch p.state {
		case "recheck":
			if err := m.recheck(ctx, r, p, rep); err != nil {
				return err
			}
		case "waiting":
			waiting = append(waiting, p)
		default:
			if bySite[p.site] == nil {
				sites = append(sites, p.site)
			}
			bySite[p.site] = append(bySite[p.site], p)
		}
	}
	if err := m.fetchSites(ctx, r, sites, bySite, rep); err != nil {
		return err
	}
	deferred := m.deferred
	m.deferred = nil
	for _, f := range deferred {
		if err := m.store(ctx, r, f.p, f.pg, f.resp); err != nil {
			return err
		}
	}
	return m.resolveWaiting(ctx, r, waiting, rep)
}

// fetchSites fetches the pending URLs of several sites at once
// (Config.Workers sites at a time), each site's in order; the first error
// stops them.
func (m *Monitor) fetchSites(ctx context.Context, r int, sites []string, bySite map[string][]pending, rep *Report) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, m.cfg.Workers)
	errs := make(chan error, len(sites))
	var wg sync.WaitGroup
	for _, s := range sites {
		wg.Add(1)
		go func(list []pending) {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs <- ctx.Err()
				return
			}
			defer func() { <-sem }()
			for _, p := range list {
				if err := m.fetchNew(ctx, r, p, rep, true); err != nil {
					cancel()
					errs <- err
					return
				}
			}
		}(bySite[s])
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// resolveWaiting settles the copies a killed run left waiting for their
// original: linked to it when it is stored, else fetched again.
func (m *Monitor) resolveWaiting(ctx context.Context, r int, waiting []pending, rep *Report) error {
	for _, p := range waiting {
		id, err := m.docByURL(ctx, p.detail)
		if err != nil {
			return err
		}
		if id == 0 {
			if err := m.fetchNew(ctx, r, p, rep, false); err != nil {
				return err
			}
			continue
		}
		if err := m.link(ctx, r, p.url, id, "canonical"); err != nil {
			return err
		}
		if err := m.outcome(ctx, p, "duplicate", id, "canonical", nil); err != nil {
			return err
		}
	}
	return nil
}

// outcome records what became of a URL.
func (m *Monitor) outcome(ctx context.Context, p pending, state string, docID int64, detail string, resp *response) error {
	etag, lm := "", ""
	if resp != nil {
		etag, lm = resp.etag, resp.lastModified
	}
	_, err := m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_urls SET state = ?, doc_id = ?, detail = ?, etag = ?, last_modified = ?,
		attempts = attempts + 1 WHERE monitor = ? AND url = ?`), state, docID, truncate(detail, 500), etag, lm, m.cfg.Name, p.url)
	if err != nil {
		return fmt.Errorf("monitor: record %s: %w", p.url, err)
	}
	return nil
}

// fetchNew fetches a URL never seen before and stores it as an article, a
// duplicate of one, or a hub.
// It holds m.mu but while fetching, so that fetches of several hosts run
// at once while the store and the monitor's memory see one page at a time.
func (m *Monitor) fetchNew(ctx context.Context, r int, p pending, rep *Report, mayWait bool) error {
	m.mu.Lock()
	id, err := m.docByURL(ctx, p.url)
	if err != nil || id > 0 {
		defer m.mu.Unlock()
		if err != nil {
			return err
		}
		// Already stored under this URL as a copy's canonical: no fetch.
		return m.outcome(ctx, p, "article", id, "stored from a copy naming it canonical", nil)
	}
	m.mu.Unlock()
	pg, resp, err := m.fetchPage(ctx, p.url)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rep.Errors++
		state := "pending"
		if p.attempts+1 >= maxAttempts || errors.Is(err, errDisallowed) || errors.Is(err, crawler.ErrForbiddenTarget) {
			state = "error"
		}
		return m.outcome(ctx, p, state, 0, err.Error(), nil)
	}
	if !pg.article(m, p) {
		return m.storeHub(ctx, p, pg, resp)
	}
	later, err := m.canonicalPending(ctx, p.url, pg)
	if err != nil {
		return err
	}
	if mayWait && later {
		// The original comes later in the round: store it first. The
		// copy waits in memory, and in the store for a killed run.
		m.deferred = append(m.deferred, fetched{p, pg, resp})
		_, err = m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_urls SET state = 'waiting', detail = ? WHERE monitor = ? AND url = ?`),
			pg.canonical, m.cfg.Name, p.url)
		if err != nil {
			return fmt.Errorf("monitor: record %s: %w", p.url, err)
		}
		return nil
	}
	return m.store(ctx, r, p, pg, resp)
}

// fetched is a page fetched but not stored yet.
type fetched struct {
	p    pending
	pg   *page
	resp *response
}

// canonicalPending reports whether a page names as canonical another URL
// still pending in the monitor: its original, to be fetched this round.
func (m *Monitor) canonicalPending(ctx context.Context, u string, pg *page) (bool, error) {
	if pg.canonical == "" || pg.canonical == u {
		return false, nil
	}
	var n int
	err := m.db.SQL().QueryRowContext(ctx, m.q(`SELECT COUNT(*) FROM monitor_urls WHERE monitor = ? AND url = ? AND state = 'pending'`),
		m.cfg.Name, pg.canonical).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("monitor: canonical of %s: %w", u, err)
	}
	return n > 0, nil
}

// store stores a fetched article, or links it to the one it duplicates.
func (m *Monitor) store(ctx context.Context, r int, p pending, pg *page, resp *response) error {
	if id, reason, err := m.duplicateOf(ctx, p.url, pg); err != nil || id > 0 {
		if err != nil {
			return err
		}
		if err := m.link(ctx, r, p.url, id, reason); err != nil {
			return err
		}
		return m.outcome(ctx, p, "duplicate", id, reason, resp)
	}
	doc := m.document(r, p, pg)
	if m.cfg.Focus != nil {
		doc.Score = m.cfg.Focus.Score(doc.Title + "\n\n" + doc.Text)
		if doc.Score < m.cfg.Threshold {
			return m.outcome(ctx, p, "off-focus", 0, fmt.Sprintf("score %.3f", doc.Score), resp)
		}
	}
	pageID, err := m.putPage(ctx, doc, pg, resp)
	if err != nil {
		return err
	}
	doc.PageID = pageID
	id, err := m.insertDoc(ctx, doc, pg)
	if err != nil {
		return err
	}
	m.learnShape(p.site, p.url)
	m.hashes = append(m.hashes, storedHash{id, doc.Site, pg.hash})
	return m.outcome(ctx, p, "article", id, "", resp)
}

// fetchPage fetches and reads a page: with Config.Fetcher when set, else a
// plain GET.
func (m *Monitor) fetchPage(ctx context.Context, u string) (*page, *response, error) {
	if m.cfg.Fetcher != nil {
		pu, _ := url.Parse(u)
		release, err := m.admit(ctx, pu)
		if err != nil {
			return nil, nil, err
		}
		bp, err := m.cfg.Fetcher.Fetch(ctx, u)
		release(0)
		// Counted as one request: the document (a browser's subresources
		// are its own business).
		m.requests.Add(1)
		if err != nil {
			return nil, nil, err
		}
		if bp.Status != http.StatusOK {
			return nil, nil, fmt.Errorf("url %s: HTTP %d", u, bp.Status)
		}
		return m.readPage(u, bp.FinalURL, []byte(bp.HTML)), &response{status: bp.Status, finalURL: bp.FinalURL}, nil
	}
	resp, err := m.get(ctx, u, "", "", readPage)
	if err != nil {
		return nil, nil, err
	}
	if resp.status != http.StatusOK {
		return nil, nil, fmt.Errorf("url %s: HTTP %d", u, resp.status)
	}
	return m.readPage(u, resp.finalURL, resp.body), resp, nil
}

// recheck re-fetches a known article conditionally; a changed page
// updates its document.
func (m *Monitor) recheck(ctx context.Context, r int, p pending, rep *Report) error {
	resp, err := m.get(ctx, p.url, p.etag, p.lastMod, readPage)
	if err != nil || (resp.status != http.StatusOK && resp.status != http.StatusNotModified) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rep.Errors++
		return m.outcome(ctx, p, "article", p.docID, fmt.Sprint("recheck: ", err), nil)
	}
	if resp.status == http.StatusOK {
		pg := m.readPage(p.url, resp.finalURL, resp.body)
		// The new text is the single-page one until the round's end
		// extracts it with its template again (tried_run = 0).
		res, err := m.db.SQL().ExecContext(ctx, m.q(`UPDATE monitor_docs SET modified = ?, body = ?, content_hash = ?, simhash = ?, updated_round = ?,
			method = ?, confidence = ?, run_id = 0, template = -1, tried_run = 0
			WHERE id = ? AND content_hash <> ?`), m.modified(p, pg), pg.text, pg.contentHash, int64(pg.hash), r, pg.method, pg.confidence, p.docID, pg.contentHash)
		if err != nil {
			return fmt.Errorf("monitor: update %s: %w", p.url, err)
		}
		if n, err := res.RowsAffected(); err == nil && n > 0 {
			if err := m.refreshPage(ctx, p.docID, pg, resp); err != nil {
				return err
			}
		}
	} else {
		resp.etag, resp.lastModified = p.etag, p.lastMod
	}
	return m.outcome(ctx, p, "article", p.docID, "", resp)
}

// page is a fetched page as the monitor reads it.
type page struct {
	url, final  string
	src         []byte
	meta        singlepage.Meta
	pm          pagemeta.Meta // every field the page states, with its sources
	title, text string
	words       int
	canonical   string
	structured  bool // the page says it is an article (og:type, JSON-LD)
	hash        crawler.SimHash
	contentHash string
	method      string  // the single-page extraction's method
	confidence  float64 // and its confidence
}

func (m *Monitor) readPage(u, final string, src []byte) *page {
	pg := &page{url: u, final: final, src: src, contentHash: store.ContentHash(src)}
	if pg.final == "" {
		pg.final = u
	}
	pg.headTags()
	t, err := treediff.Parse(u, src, treediff.ParseOptions{})
	if err != nil {
		return pg
	}
	if res, err := singlepage.Extract(t, singlepage.Options{Source: src, SecondOpinionBelow: -1}); err == nil {
		pg.title, pg.text = res.Title, res.Body
		pg.method, pg.confidence = res.Method, res.Confidence
	}
	// The page's own metadata, relative bylines read against the fetch,
	// a time without zone in the zone of the site's feeds.
	pg.pm = pagemeta.Extract(t, src, pagemeta.Options{URL: pg.final, Fetched: m.cfg.Now(), Zone: m.zones[site(pg.final)],
		Text: pg.text, Languages: m.langs})
	pg.meta = singlepage.Meta{Title: pg.pm.Title, Date: pg.pm.Published, Author: strings.Join(pg.pm.Authors, ", ")}
	pg.words = len(strings.Fields(pg.text))
	pg.hash = crawler.NewSimHash(pg.text)
	return pg
}

// headTags reads the canonical link and og:type a page states in its
// markup.
func (pg *page) headTags() {
	src := pg.src
	if len(src) > 1<<20 {
		src = src[:1<<20]
	}
	pg.structured = bytes.Contains(src, []byte(`"NewsArticle"`)) || bytes.Contains(src, []byte(`"@type":"Article"`)) ||
		bytes.Contains(src, []byte(`"@type": "Article"`))
	z := html.NewTokenizer(bytes.NewReader(src))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, _ := z.TagName()
		attrs := map[string]string{}
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			if len(k) == 0 {
				break
			}
			attrs[string(k)] = string(v)
		}
		switch string(name) {
		case "link":
			if hasRel(attrs["rel"], "canonical") && pg.canonical == "" {
				base, _ := url.Parse(pg.final)
				if c, err := canonical(base, attrs["href"]); err == nil {
					pg.canonical = c
				}
			}
		case "meta":
			if strings.EqualFold(attrs["property"]+attrs["name"], "og:type") {
				pg.structured = pg.structured || strings.EqualFold(attrs["content"], "article")
			}
		case "body":
			return
		}
	}
}

func hasRel(list, rel string) bool {
	for _, f := range strings.Fields(strings.ToLower(list)) {
		if f == rel {
			return true
		}
	}
	return false
}

// docByURL returns the id of the document stored under u, or 0.
func (m *Monitor) docByURL(ctx context.Context, u string) (int64, error) {
	var id int64
	err := m.db.SQL().QueryRowContext(ctx, m.q(`SELECT id FROM monitor_docs WHERE monitor = ? AND url = ?`), m.cfg.Name, u).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("monitor: document %s: %w", u, err)
	}
	return id, nil
}

// storyOf returns the stored document of the story a URL fetched belongs
// to by canonical link, or 0: one stored under the page's canonical URL,
// one naming the same canonical URL (another URL of that story), or one
// naming u as its canonical (a copy stored before its original).
func (m *Monitor) storyOf(ctx context.Context, u, canon string) (int64, error) {
	q, args := `SELECT id FROM monitor_docs WHERE monitor = ? AND url <> ? AND (canonical = ?`, []any{m.cfg.Name, u, u}
	if cu, err := url.Parse(canon); canon != u && err == nil && !hubURL(cu) {
		// A canonical link naming a listing (the home page) is no story's
		// identity.
		q, args = q+` OR url = ? OR canonical = ?`, append(args, canon, canon)
	}
	var id int64
	err := m.db.SQL().QueryRowContext(ctx, m.q(q+`) ORDER BY id LIMIT 1`), args...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("monitor: story of %s: %w", u, err)
	}
	return id, nil
}

// minDedupWords is the text length from which near-duplicate text counts:
// shorter texts (an empty app shell, a teaser) match too easily.
const minDedupWords = 80

// maxDupBits is the SimHash distance of near-duplicate texts.
const maxDupBits = 3

type storedHash struct {
	id   int64
	site string
	hash crawler.SimHash
}

// loadHashes reads the fingerprints of the stored documents.
func (m *Monitor) loadHashes(ctx context.Context) error {
	rows, err := m.db.SQL().QueryContext(ctx, m.q(`SELECT id, site, simhash FROM monitor_docs WHERE monitor = ? AND simhash <> 0`), m.cfg.Name)
	if err != nil {
		return fmt.Errorf("monitor: fingerprints: %w", err)
	}
	defer rows.Close()
	m.hashes = m.hashes[:0]
	for rows.Next() {
		var s storedHash
		var h int64
		if err := rows.Scan(&s.id, &s.site, &h); err != nil {
			return fmt.Errorf("monitor: fingerprints: %w", err)
		}
		s.hash = crawler.SimHash(h)
		m.hashes = append(m.hashes, s)
	}
	return rows.Err()
}

// duplicateOf finds the stored article a page duplicates: the one stored
// under its canonical URL, or one whose text is a near-duplicate.
func (m *Monitor) duplicateOf(ctx context.Context, u string, pg *page) (int64, string, error) {
	if id, err := m.storyOf(ctx, u, pg.canonical); err != nil || id > 0 {
		return id, "canonical", err
	}
	if pg.words < minDedupWords {
		return 0, "", nil
	}
	for _, s := range m.hashes {
		// Near-duplicate text is looked for on other sites only: on one
		// site, the same story has the same canonical URL, and pages
		// whose body a script loads share their template's text.
		if s.site != site(pg.final) && s.hash.Distance(pg.hash) <= maxDupBits {
			return s.id, "near-duplicate", nil
		}
	}
	return 0, "", nil
}

// link records a URL as a duplicate of a stored document.
func (m *Monitor) link(ctx context.Context, r int, u string, id int64, reason string) error {
	_, err := m.db.SQL().ExecContext(ctx, m.q(`INSERT INTO monitor_links (monitor, url, doc_id, reason, round) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (monitor, url) DO NOTHING`), m.cfg.Name, u, id, reason, r)
	if err != nil {
		return fmt.Errorf("monitor: link %s: %w", u, err)
	}
	return nil
}

// insertDoc stores a new document and returns its id.
func (m *Monitor) insertDoc(ctx context.Context, d Document, pg *page) (int64, error) {
	var id int64
	err := m.db.SQL().QueryRowContext(ctx, m.q(`INSERT INTO monitor_docs (monitor, url, canonical, site, section, title, author, lang, published, modified,
		first_seen, round, simhash, content_hash, body, score, page_id, method, confidence, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		m.cfg.Name, d.URL, d.Canonical, d.Site, d.Section, d.Title, d.Author, d.Lang, d.Published, d.Modified, d.FirstSeen, d.Round,
		int64(pg.hash), pg.contentHash, d.Text, d.Score, d.PageID, d.Method, d.Confidence, d.Kind).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("monitor: store %s: %w", d.URL, err)
	}
	return id, nil
}

// modified is an article's modification time: the source's, else the page's.
func (m *Monitor) modified(p pending, pg *page) string {
	if !p.hint.Modified.IsZero() {
		return p.hint.Modified.Format(time.RFC3339)
	}
	return pg.pm.Modified
}
