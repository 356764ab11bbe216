package monitoring

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Document is one stored article, as output.
type Document struct {
	ID      int64  `json:"id"`
	Monitor string `json:"monitor"`
	// URL is the URL fetched (tracking parameters dropped), Canonical the
	// page's canonical link ("" when it names none), Site the site
	// monitored that listed it.
	URL       string `json:"url"`
	Canonical string `json:"canonical,omitempty"`
	Site      string `json:"site"`
	// Kind is KindArticle, or KindHub for a page taken for an article
	// whose learned template is one of the site's hubs.
	Kind    DocKind `json:"kind"`
	Section string  `json:"section,omitempty"`
	Title   string  `json:"title"`
	Author  string  `json:"author,omitempty"`
	Lang    string  `json:"lang,omitempty"`
	// LangSource says where Lang came from: "text" (identified on the
	// text), "feed" (the feed item's), "declared" (what the page declares,
	// for a document without text: not checked against it).
	LangSource string `json:"lang_source,omitempty"`
	Published  string `json:"published,omitempty"` // ISO 8601 with zone when known
	Modified   string `json:"modified,omitempty"`
	FirstSeen  string `json:"first_seen"` // RFC 3339
	Round      int    `json:"round"`
	// Score is the focus lexicon's score of the title and text (with a
	// focus).
	Score float64 `json:"score,omitempty"`
	// Relevance is Score under the name the corpus tools use for it (0
	// without a focus).
	Relevance float64 `json:"relevance"`
	// Duplicates are the other URLs of the story (tracking variants,
	// syndicated copies), linked to it.
	Duplicates []string `json:"duplicates,omitempty"`
	Text       string   `json:"text"`
	// Method is the extraction method that gave Text (heuristics: pair
	// diff, cluster rule, single page), Confidence its confidence, Run the
	// learning run whose template (cluster) Template the page was compared
	// with (0 and -1 when none: the single-page method).
	Method     string  `json:"method,omitempty"`
	Confidence float64 `json:"confidence"`
	Run        int64   `json:"run,omitempty"`
	Template   int     `json:"template"`
	// PageID is the document's page in the store (the monitor's dataset),
	// which export reads; 0 for documents stored before pages were.
	PageID int64 `json:"page_id,omitempty"`
}

// Fingerprint is what near-duplicate detection reads of a stored
// document, and what it keeps of a new one: its SimHash and content hash.
type Fingerprint struct {
	ID          int64
	Site        string
	SimHash     int64
	ContentHash string
}

// InsertDoc stores a new document with its fingerprint and returns its
// id.
func (r *Repo) InsertDoc(ctx context.Context, d Document, f Fingerprint) (int64, error) {
	var id int64
	err := r.queryRow(ctx, `INSERT INTO monitor_docs (monitor, url, canonical, site, section, title, author, lang, lang_source, published, modified,
		first_seen, round, simhash, content_hash, body, score, page_id, method, confidence, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		r.name, d.URL, d.Canonical, d.Site, d.Section, d.Title, d.Author, d.Lang, d.LangSource, d.Published, d.Modified, d.FirstSeen, d.Round,
		f.SimHash, f.ContentHash, d.Text, d.Score, d.PageID, d.Method, d.Confidence, d.Kind.String()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("monitor: store %s: %w", d.URL, err)
	}
	if d.PageID == 0 {
		return id, nil
	}
	return id, r.AddCapture(ctx, id, d.PageID, d.Round)
}

// AddCapture records store page pageID as a capture of document docID
// made in round n.
func (r *Repo) AddCapture(ctx context.Context, docID, pageID int64, n int) error {
	_, err := r.exec(ctx, `INSERT INTO monitor_captures (monitor, doc_id, page_id, round) VALUES (?, ?, ?, ?)
		ON CONFLICT (monitor, page_id) DO NOTHING`, r.name, docID, pageID, n)
	if err != nil {
		return fmt.Errorf("monitor: capture %d of document %d: %w", pageID, docID, err)
	}
	return nil
}

// SetDocPage makes store page pageID the document's page: its latest
// content.
func (r *Repo) SetDocPage(ctx context.Context, docID, pageID int64) error {
	if _, err := r.exec(ctx, `UPDATE monitor_docs SET page_id = ? WHERE id = ?`, pageID, docID); err != nil {
		return fmt.Errorf("monitor: page of document %d: %w", docID, err)
	}
	return nil
}

// Capture is a store page a document was fetched into, and the round.
type Capture struct {
	DocID, PageID int64
	Round         int
}

// Captures lists the monitor's captures in page order: of round n only
// when n > 0.
func (r *Repo) Captures(ctx context.Context, n int) ([]Capture, error) {
	q, args := `SELECT doc_id, page_id, round FROM monitor_captures WHERE monitor = ?`, []any{r.name}
	if n > 0 {
		q, args = q+` AND round = ?`, append(args, n)
	}
	var out []Capture
	err := r.each(ctx, q+` ORDER BY page_id`, args, func(rows *sql.Rows) error {
		var c Capture
		err := rows.Scan(&c.DocID, &c.PageID, &c.Round)
		out = append(out, c)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("monitor: captures: %w", err)
	}
	return out, nil
}

// DocByURL returns the id of the document stored under url, or 0.
func (r *Repo) DocByURL(ctx context.Context, url string) (int64, error) {
	var id int64
	err := r.queryRow(ctx, `SELECT id FROM monitor_docs WHERE monitor = ? AND url = ?`, r.name, url).Scan(&id)
	if _, err := noRow(err); err != nil {
		return 0, fmt.Errorf("monitor: document %s: %w", url, err)
	}
	return id, nil
}

// StoryOf returns the first document other than url's that names url
// as its canonical link, or, with canon given, that is stored under
// canon or names it as canonical; 0 when none.
func (r *Repo) StoryOf(ctx context.Context, url, canon string) (int64, error) {
	q, args := `SELECT id FROM monitor_docs WHERE monitor = ? AND url <> ? AND (canonical = ?`, []any{r.name, url, url}
	if canon != "" {
		q, args = q+` OR url = ? OR canonical = ?`, append(args, canon, canon)
	}
	var id int64
	err := r.queryRow(ctx, q+`) ORDER BY id LIMIT 1`, args...).Scan(&id)
	if _, err := noRow(err); err != nil {
		return 0, fmt.Errorf("monitor: story of %s: %w", url, err)
	}
	return id, nil
}

// Fingerprints lists the stored documents' fingerprints (those with
// text).
func (r *Repo) Fingerprints(ctx context.Context) ([]Fingerprint, error) {
	var out []Fingerprint
	err := r.each(ctx, `SELECT id, site, simhash, content_hash FROM monitor_docs WHERE monitor = ? AND simhash <> 0`, []any{r.name},
		func(rows *sql.Rows) error {
			var f Fingerprint
			err := rows.Scan(&f.ID, &f.Site, &f.SimHash, &f.ContentHash)
			out = append(out, f)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("monitor: fingerprints: %w", err)
	}
	return out, nil
}

// Refetched is a stored article's page fetched again.
type Refetched struct {
	DocID    int64
	Round    int
	Modified string
	Text     string
	Print    Fingerprint
	// Method and Confidence are the single-page extraction's.
	Method     string
	Confidence float64
}

// UpdateText replaces a document's text when its page changed (another
// content hash), as single-page text waiting for its template again; it
// reports whether it did.
func (r *Repo) UpdateText(ctx context.Context, x Refetched) (bool, error) {
	res, err := r.exec(ctx, `UPDATE monitor_docs SET modified = ?, body = ?, content_hash = ?, simhash = ?, updated_round = ?,
		method = ?, confidence = ?, run_id = 0, template = -1, tried_run = 0
		WHERE id = ? AND content_hash <> ?`, x.Modified, x.Text, x.Print.ContentHash, x.Print.SimHash, x.Round, x.Method, x.Confidence,
		x.DocID, x.Print.ContentHash)
	if err != nil {
		return false, fmt.Errorf("monitor: update document %d: %w", x.DocID, err)
	}
	return affected(res), nil
}

// Doc returns a stored document's fields as its page's extraction
// repeats them (URL, title, author, dates, text, page); found is false
// when there is no such document.
func (r *Repo) Doc(ctx context.Context, id int64) (d Document, found bool, err error) {
	d.ID = id
	err = r.queryRow(ctx, `SELECT url, title, author, published, modified, body, page_id FROM monitor_docs WHERE id = ?`, id).
		Scan(&d.URL, &d.Title, &d.Author, &d.Published, &d.Modified, &d.Text, &d.PageID)
	if found, err = noRow(err); err != nil {
		return d, false, fmt.Errorf("monitor: document %d: %w", id, err)
	}
	return d, found, nil
}

// ContentHash returns the content hash of a document's page as last
// fetched.
func (r *Repo) ContentHash(ctx context.Context, id int64) (string, error) {
	var h string
	if err := r.queryRow(ctx, `SELECT content_hash FROM monitor_docs WHERE id = ?`, id).Scan(&h); err != nil {
		return "", fmt.Errorf("monitor: document %d: %w", id, err)
	}
	return h, nil
}

// Link records url as a duplicate of document id, first linked in round
// n.
func (r *Repo) Link(ctx context.Context, n int, url string, id int64, reason LinkReason) error {
	_, err := r.exec(ctx, `INSERT INTO monitor_links (monitor, url, doc_id, reason, round) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (monitor, url) DO NOTHING`, r.name, url, id, reason.String(), n)
	if err != nil {
		return fmt.Errorf("monitor: link %s: %w", url, err)
	}
	return nil
}

// Link is a URL linked to a stored document as its duplicate.
type Link struct {
	URL    string
	Reason LinkReason
	DocURL string
}

// Links lists the URLs first linked in round n, with their documents'.
func (r *Repo) Links(ctx context.Context, n int) ([]Link, error) {
	var out []Link
	err := r.each(ctx, `SELECT l.url, l.reason, d.url FROM monitor_links l JOIN monitor_docs d ON d.id = l.doc_id
		WHERE l.monitor = ? AND l.round = ?`, []any{r.name, n}, func(rows *sql.Rows) error {
		var l Link
		var reason string
		err := rows.Scan(&l.URL, &reason, &l.DocURL)
		l.Reason = LinkReason(reason)
		out = append(out, l)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("monitor: links of round %d: %w", n, err)
	}
	return out, nil
}

// Selection chooses stored documents; zero fields select everything but
// Kind, whose zero value selects articles.
type Selection struct {
	Round        int       // first stored in this round
	Site, Lang   string    // exact site (host) and language
	Since, Until time.Time // first seen in [Since, Until)
	// Kind selects documents of this kind ("" for KindArticle, KindAll
	// for every kind).
	Kind DocKind
	// MinRelevance keeps the documents whose focus score is at least this.
	MinRelevance float64
}

// where is sel as SQL conditions and their arguments.
func (sel Selection) where(name string) (string, []any) {
	q, args := ` WHERE monitor = ?`, []any{name}
	add := func(ok bool, cond string, v any) {
		if ok {
			q += " AND " + cond
			args = append(args, v)
		}
	}
	kind := sel.Kind
	if kind == "" {
		kind = KindArticle
	}
	add(sel.Round > 0, "round = ?", sel.Round)
	add(kind != KindAll, "kind = ?", kind.String())
	add(sel.MinRelevance > 0, "score >= ?", sel.MinRelevance)
	add(sel.Site != "", "site = ?", sel.Site)
	add(sel.Lang != "", "lang = ?", sel.Lang)
	add(!sel.Since.IsZero(), "first_seen >= ?", sel.Since.UTC().Format(time.RFC3339))
	add(!sel.Until.IsZero(), "first_seen < ?", sel.Until.UTC().Format(time.RFC3339))
	return q, args
}

// Documents returns the documents selected by sel, in the order they were
// stored, with their duplicate URLs.
func (r *Repo) Documents(ctx context.Context, sel Selection) ([]Document, error) {
	where, args := sel.where(r.name)
	var out []Document
	byID := map[int64]int{}
	err := r.each(ctx, `SELECT id, url, canonical, kind, site, section, title, author, lang, lang_source, published, modified, first_seen, round,
		score, body, page_id, method, confidence, run_id, template FROM monitor_docs`+where+` ORDER BY id`, args, func(rows *sql.Rows) error {
		d := Document{Monitor: r.name}
		var kind string
		err := rows.Scan(&d.ID, &d.URL, &d.Canonical, &kind, &d.Site, &d.Section, &d.Title, &d.Author, &d.Lang, &d.LangSource, &d.Published, &d.Modified,
			&d.FirstSeen, &d.Round, &d.Score, &d.Text, &d.PageID, &d.Method, &d.Confidence, &d.Run, &d.Template)
		d.Kind, d.Relevance = DocKind(kind), d.Score
		byID[d.ID] = len(out)
		out = append(out, d)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("monitor: documents: %w", err)
	}
	return out, r.attachDuplicates(ctx, out, byID)
}

func (r *Repo) attachDuplicates(ctx context.Context, docs []Document, byID map[int64]int) error {
	if len(docs) == 0 {
		return nil
	}
	err := r.each(ctx, `SELECT url, doc_id FROM monitor_links WHERE monitor = ? ORDER BY url`, []any{r.name}, func(rows *sql.Rows) error {
		var u string
		var id int64
		if err := rows.Scan(&u, &id); err != nil {
			return err
		}
		if i, ok := byID[id]; ok {
			docs[i].Duplicates = append(docs[i].Duplicates, u)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("monitor: duplicate links: %w", err)
	}
	return nil
}
