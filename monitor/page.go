package monitor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/monitoring"
	"github.com/gleaner/gleaner/treediff"
)

// maxAttempts bounds the fetches of a URL that keeps failing.
const maxAttempts = 3

// pending is a URL waiting for its fetch in a round.
type pending struct {
	url, site     string
	state         monitoring.URLState
	detail        string // for a copy waiting for its original: the original's URL
	hint          hint
	attempts      int
	docID         int64
	etag, lastMod string
}

// roundQueue is a round's queue of URLs by what a round does with them.
type roundQueue struct {
	recheck, waiting []pending
	bySite           map[string][]pending // the URLs to fetch, by site
	sites            []string             // in the order of their first URL
}

// queue reads the URLs waiting for a fetch, in the order their sources
// listed them.
func (m *Monitor) queue(ctx context.Context) (roundQueue, error) {
	rows, err := m.repo.Queue(ctx)
	q := roundQueue{bySite: map[string][]pending{}}
	for _, row := range rows {
		p := pending{url: row.URL, site: row.Site, state: row.State, detail: row.Detail, attempts: row.Attempts,
			docID: row.DocID, etag: row.ETag, lastMod: row.LastModified}
		_ = json.Unmarshal([]byte(row.Hint), &p.hint) // written by addURL; a bad one leaves no hints
		q.add(p)
	}
	return q, err
}

func (q *roundQueue) add(p pending) {
	switch p.state {
	case monitoring.URLRecheck:
		q.recheck = append(q.recheck, p)
	case monitoring.URLWaiting:
		q.waiting = append(q.waiting, p)
	default:
		if q.bySite[p.site] == nil {
			q.sites = append(q.sites, p.site)
		}
		q.bySite[p.site] = append(q.bySite[p.site], p)
	}
}

// fetchPending fetches the round's pending URLs and re-checks the
// modified ones, in the order their sources listed them.
func (m *Monitor) fetchPending(ctx context.Context, rep *Report) error {
	q, err := m.queue(ctx)
	if err != nil {
		return err
	}
	if err := m.loadHashes(ctx); err != nil {
		return err
	}
	m.deferred = nil
	for _, p := range q.recheck {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := m.recheck(ctx, rep.Round, p, rep); err != nil {
			return err
		}
	}
	if err := m.fetchSites(ctx, rep.Round, q.sites, q.bySite, rep); err != nil {
		return err
	}
	if err := m.storeDeferred(ctx, rep.Round); err != nil {
		return err
	}
	return m.resolveWaiting(ctx, rep.Round, q.waiting, rep)
}

// storeDeferred stores the copies that waited for their original, now
// stored, in this round.
func (m *Monitor) storeDeferred(ctx context.Context, r int) error {
	deferred := m.deferred
	m.deferred = nil
	for _, f := range deferred {
		if err := m.store(ctx, r, f.p, f.pg, f.resp); err != nil {
			return err
		}
	}
	return nil
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
		id, err := m.repo.DocByURL(ctx, p.detail)
		if err != nil {
			return err
		}
		if id == 0 {
			if err := m.fetchNew(ctx, r, p, rep, false); err != nil {
				return err
			}
			continue
		}
		if err := m.repo.Link(ctx, r, p.url, id, monitoring.LinkCanonical); err != nil {
			return err
		}
		if err := m.outcome(ctx, p, monitoring.URLDuplicate, id, monitoring.LinkCanonical.String(), nil); err != nil {
			return err
		}
	}
	return nil
}

// outcome records what became of a URL.
func (m *Monitor) outcome(ctx context.Context, p pending, state monitoring.URLState, docID int64, detail string, resp *response) error {
	o := monitoring.Outcome{State: state, DocID: docID, Detail: detail}
	if resp != nil {
		o.ETag, o.LastModified = resp.etag, resp.lastModified
	}
	return m.repo.SetOutcome(ctx, p.url, o)
}

// fetchNew fetches a URL never seen before and stores it as an article, a
// duplicate of one, or a hub.
// It holds m.mu but while fetching, so that fetches of several hosts run
// at once while the store and the monitor's memory see one page at a time.
func (m *Monitor) fetchNew(ctx context.Context, r int, p pending, rep *Report, mayWait bool) error {
	if done, err := m.storedAlready(ctx, p); done || err != nil {
		return err
	}
	pg, resp, err := m.fetchPage(ctx, p.url)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		return m.fetchFailed(ctx, p, err, rep)
	}
	if !pg.article(m, p) {
		return m.storeHub(ctx, p, pg, resp)
	}
	if mayWait {
		if waits, err := m.waitForOriginal(ctx, p, pg, resp); waits || err != nil {
			return err
		}
	}
	return m.store(ctx, r, p, pg, resp)
}

// storedAlready records a URL already stored under this URL as a copy's
// canonical, which is not fetched; it reports whether it was.
func (m *Monitor) storedAlready(ctx context.Context, p pending) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id, err := m.repo.DocByURL(ctx, p.url)
	if err != nil || id == 0 {
		return false, err
	}
	return true, m.outcome(ctx, p, monitoring.URLArticle, id, "stored from a copy naming it canonical", nil)
}

// fetchFailed records a failed fetch: tried again next round, unless it
// failed for good (attempts spent, refused by robots.txt or the guard).
func (m *Monitor) fetchFailed(ctx context.Context, p pending, err error, rep *Report) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	rep.Errors++
	state := monitoring.URLPending
	if p.attempts+1 >= maxAttempts || errors.Is(err, errDisallowed) || errors.Is(err, fetchpolicy.ErrForbiddenTarget) {
		state = monitoring.URLError
	}
	return m.outcome(ctx, p, state, 0, err.Error(), nil)
}

// waitForOriginal defers a copy whose original (its canonical URL) comes
// later in the round, so that the original is stored first. The copy
// waits in memory, and in the store for a killed run. It reports whether
// the page waits.
func (m *Monitor) waitForOriginal(ctx context.Context, p pending, pg *page, resp *response) (bool, error) {
	later, err := m.canonicalPending(ctx, p.url, pg)
	if err != nil || !later {
		return false, err
	}
	m.deferred = append(m.deferred, fetched{p, pg, resp})
	return true, m.repo.SetWaiting(ctx, p.url, pg.canonical)
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
	return m.repo.IsPending(ctx, pg.canonical)
}

// store stores a fetched article, or links it to the one it duplicates.
func (m *Monitor) store(ctx context.Context, r int, p pending, pg *page, resp *response) error {
	if id, reason, err := m.duplicateOf(ctx, p.url, pg); err != nil || id > 0 {
		if err != nil {
			return err
		}
		if err := m.repo.Link(ctx, r, p.url, id, reason); err != nil {
			return err
		}
		return m.outcome(ctx, p, monitoring.URLDuplicate, id, reason.String(), resp)
	}
	doc := m.document(r, p, pg)
	if m.cfg.Focus != nil {
		doc.Score = m.cfg.Focus.Score(doc.Title + "\n\n" + doc.Text)
		if doc.Score < m.cfg.Threshold {
			return m.outcome(ctx, p, monitoring.URLOffFocus, 0, fmt.Sprintf("score %.3f", doc.Score), resp)
		}
	}
	pageID, err := m.putPage(ctx, doc, pg, resp)
	if err != nil {
		return err
	}
	doc.PageID = pageID
	id, err := m.repo.InsertDoc(ctx, doc, monitoring.Fingerprint{SimHash: int64(pg.hash), ContentHash: pg.contentHash})
	if err != nil {
		return err
	}
	m.learnShape(p.site, p.url)
	m.hashes = append(m.hashes, storedHash{id, doc.Site, pg.hash})
	return m.outcome(ctx, p, monitoring.URLArticle, id, "", resp)
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
		resp := &response{status: bp.Status, finalURL: bp.FinalURL, rendered: bp.Rendered, exchanges: capture.Exchanges(bp.Exchanges)}
		resp.etag, resp.lastModified = validators(resp.exchanges, bp.FinalURL)
		return m.readPage(u, bp.FinalURL, []byte(bp.HTML)), resp, nil
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

// validators are the ETag and Last-Modified of the recorded response of
// u (the page's final URL), for the page's conditional rechecks; "" when
// not recorded.
func validators(xs []store.Exchange, u string) (etag, lastModified string) {
	for _, x := range xs {
		if x.URL != u {
			continue
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(x.Response)), nil)
		if err != nil {
			return "", ""
		}
		resp.Body.Close()
		return resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	}
	return "", ""
}

// recheck re-fetches a known article conditionally (recorded with
// Config.Record). A changed page is fetched again and stored as a new
// capture of its document (updateDoc); a 304 answer recorded is a
// capture of its own too, holding the answer.
func (m *Monitor) recheck(ctx context.Context, r int, p pending, rep *Report) error {
	resp, err := m.getRecorded(ctx, p.url, p.etag, p.lastMod, readPage)
	if err != nil || (resp.status != http.StatusOK && resp.status != http.StatusNotModified) {
		return m.recheckFailed(ctx, p, err, rep)
	}
	if resp.status == http.StatusNotModified {
		resp.etag, resp.lastModified = p.etag, p.lastMod
		err = m.storeConfirmed(ctx, r, p, resp)
	} else {
		err = m.updateDoc(ctx, r, p, resp)
	}
	if err != nil {
		return m.recheckFailed(ctx, p, err, rep)
	}
	return m.outcome(ctx, p, monitoring.URLArticle, p.docID, "", resp)
}

// recheckFailed records a recheck that failed: the article stays as
// stored.
func (m *Monitor) recheckFailed(ctx context.Context, p pending, err error, rep *Report) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	rep.Errors++
	return m.outcome(ctx, p, monitoring.URLArticle, p.docID, fmt.Sprint("recheck: ", err), nil)
}

// updateDoc updates a stored article from its page fetched again, when
// the page changed, and stores the page as a new capture of the document:
// fetched again with Config.Fetcher when set (rendered and recorded as
// new pages are), else the conditional GET's. The new text is the
// single-page one until the round's end extracts it with its template
// again. An unchanged page is kept as a capture only when recorded.
func (m *Monitor) updateDoc(ctx context.Context, r int, p pending, resp *response) error {
	pg, fresh, err := m.refetch(ctx, p, resp)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	changed, err := m.repo.UpdateText(ctx, monitoring.Refetched{DocID: p.docID, Round: r, Modified: m.modified(p, pg), Text: pg.text,
		Print: monitoring.Fingerprint{SimHash: int64(pg.hash), ContentHash: pg.contentHash}, Method: pg.method, Confidence: pg.confidence})
	if err != nil || (!changed && len(fresh.exchanges) == 0) {
		return err
	}
	_, err = m.storeCapture(ctx, r, p.docID, pg, fresh, true)
	return err
}

// refetch is the page of a recheck answered 200: fetched again with
// Config.Fetcher when set, else read from the answer. The answer's
// exchanges, when recorded, come after the fetch's: every request is
// kept, the fetch's document first.
func (m *Monitor) refetch(ctx context.Context, p pending, resp *response) (*page, *response, error) {
	if m.cfg.Fetcher == nil {
		return m.readPage(p.url, resp.finalURL, resp.body), resp, nil
	}
	pg, fresh, err := m.fetchPage(ctx, p.url)
	if err != nil {
		return nil, nil, err
	}
	fresh.exchanges = append(fresh.exchanges, resp.exchanges...)
	return pg, fresh, nil
}

// storeConfirmed stores a recorded 304 answer as a capture of the
// document it confirms (no HTML; the document's text as its
// extraction); without a record there is nothing to keep.
func (m *Monitor) storeConfirmed(ctx context.Context, r int, p pending, resp *response) error {
	if len(resp.exchanges) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, err := m.storeCapture(ctx, r, p.docID, &page{}, resp, false)
	return err
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
	hash        relevance.SimHash
	contentHash string
	method      string  // the single-page extraction's method
	confidence  float64 // and its confidence
	pageType    string  // and its reading of the page's type
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
		pg.method, pg.confidence, pg.pageType = res.Method, res.Confidence, res.PageType
	}
	// The page's own metadata, relative bylines read against the fetch,
	// a time without zone in the zone of the site's feeds.
	pg.pm = pagemeta.Extract(t, src, pagemeta.Options{URL: pg.final, Fetched: m.cfg.Now(), Zone: m.zones[site(pg.final)],
		Text: pg.text, Languages: m.langs})
	pg.meta = singlepage.Meta{Title: pg.pm.Title, Date: pg.pm.Published, Author: strings.Join(pg.pm.Authors, ", ")}
	pg.words = len(strings.Fields(pg.text))
	pg.hash = relevance.NewSimHash(pg.text)
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
		if string(name) == "body" {
			return
		}
		pg.headTag(string(name), tagAttrs(z))
	}
}

// tagAttrs reads the attributes of the tag the tokenizer is on.
func tagAttrs(z *html.Tokenizer) map[string]string {
	attrs := map[string]string{}
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		if len(k) == 0 {
			break
		}
		attrs[string(k)] = string(v)
	}
	return attrs
}

// headTag reads one tag of the page's head: its first canonical link, an
// og:type of article.
func (pg *page) headTag(name string, attrs map[string]string) {
	switch name {
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

// storyOf returns the stored document of the story a URL fetched belongs
// to by canonical link, or 0: one stored under the page's canonical URL,
// one naming the same canonical URL (another URL of that story), or one
// naming u as its canonical (a copy stored before its original).
func (m *Monitor) storyOf(ctx context.Context, u, canon string) (int64, error) {
	if cu, err := url.Parse(canon); canon == u || err != nil || hubURL(cu) {
		// A canonical link naming a listing (the home page) is no story's
		// identity.
		canon = ""
	}
	return m.repo.StoryOf(ctx, u, canon)
}

// minDedupWords is the text length from which near-duplicate text counts:
// shorter texts (an empty app shell, a teaser) match too easily.
const minDedupWords = 80

// maxDupBits is the SimHash distance of near-duplicate texts.
const maxDupBits = 3

type storedHash struct {
	id   int64
	site string
	hash relevance.SimHash
}

// loadHashes reads the fingerprints of the stored documents.
func (m *Monitor) loadHashes(ctx context.Context) error {
	prints, err := m.repo.Fingerprints(ctx)
	m.hashes = m.hashes[:0]
	for _, f := range prints {
		m.hashes = append(m.hashes, storedHash{f.ID, f.Site, relevance.SimHash(f.SimHash)})
	}
	return err
}

// duplicateOf finds the stored article a page duplicates: the one stored
// under its canonical URL, or one whose text is a near-duplicate.
func (m *Monitor) duplicateOf(ctx context.Context, u string, pg *page) (int64, monitoring.LinkReason, error) {
	if id, err := m.storyOf(ctx, u, pg.canonical); err != nil || id > 0 {
		return id, monitoring.LinkCanonical, err
	}
	if pg.words < minDedupWords {
		return 0, "", nil
	}
	for _, s := range m.hashes {
		// Near-duplicate text is looked for on other sites only: on one
		// site, the same story has the same canonical URL, and pages
		// whose body a script loads share their template's text.
		if s.site != site(pg.final) && s.hash.Distance(pg.hash) <= maxDupBits {
			return s.id, monitoring.LinkNearDuplicate, nil
		}
	}
	return 0, "", nil
}

// modified is an article's modification time: the source's, else the page's.
func (m *Monitor) modified(p pending, pg *page) string {
	if !p.hint.Modified.IsZero() {
		return p.hint.Modified.Format(time.RFC3339)
	}
	return pg.pm.Modified
}
