package monitor

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gleaner/gleaner/pagemeta"
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
	// Kind is "article", or "hub" for a page taken for an article whose
	// learned template is one of the site's hubs.
	Kind      string `json:"kind"`
	Section   string `json:"section,omitempty"`
	Title     string `json:"title"`
	Author    string `json:"author,omitempty"`
	Lang      string `json:"lang,omitempty"`
	Published string `json:"published,omitempty"` // ISO 8601 with zone when known
	Modified  string `json:"modified,omitempty"`
	FirstSeen string `json:"first_seen"` // RFC 3339
	Round     int    `json:"round"`
	// Score is the focus lexicon's score of the title and text (with
	// Config.Focus).
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
	// PageID is the document's page in the store (dataset Dataset(name)),
	// which export reads; 0 for documents stored before pages were.
	PageID int64 `json:"page_id,omitempty"`
}

// document builds a new article's metadata from its page and what its
// source said.
func (m *Monitor) document(r int, p pending, pg *page) Document {
	now := m.cfg.Now()
	d := Document{Monitor: m.cfg.Name, URL: p.url, Canonical: pg.canonical, Site: p.site, Round: r,
		FirstSeen: now.UTC().Format(time.RFC3339), Text: pg.text, Method: pg.method, Confidence: pg.confidence, Template: -1, Kind: KindArticle}
	// The page's headline; a feed's title only when the page has none but
	// its <title> (an app shell's is the site's name).
	d.Title = firstOf(headline(pg), p.hint.Title, pg.meta.Title)
	d.Author = firstOf(pg.meta.Author, strings.Join(p.hint.Authors, ", "))
	d.Published = m.withZone(published(p.hint, pg, now), d.Site)
	d.Modified = m.modified(p, pg)
	d.Lang = m.language(p, pg)
	d.Section = section(d.URL)
	return d
}

// headline is the page's headline (pagemeta.Meta.Headline) when a
// heading, its structured data or its extraction gives it, "" when it is
// only the page's whole <title> (an app shell's is the site's name; a
// feed's title is then better). A headline that is part of the <title>
// (the title less the site's name) is the page's own.
func headline(pg *page) string {
	h := pg.pm.Headline(pg.title)
	if pg.pm.Sources.Title == "title" && strings.EqualFold(strings.Join(strings.Fields(h), " "), strings.Join(strings.Fields(pg.pm.Title), " ")) {
		return ""
	}
	return h
}

// published is an article's publication date: the one a feed or news
// sitemap gave, else the page's (metadata, else byline; relative dates
// resolved against now), else the lastmod of the plain sitemap that first
// listed it (for a URL new to the sitemap, its publication).
func published(h hint, pg *page, now time.Time) string {
	if !h.Published.IsZero() {
		return h.Published.Format(time.RFC3339)
	}
	if d := ResolveDate(pg.meta.Date, now); d != "" {
		return d
	}
	if h.Via == "sitemap" && !h.Modified.IsZero() {
		return h.Modified.Format(time.RFC3339)
	}
	return ""
}

// withZone gives a date without zone ("2026-03-02T18:05") the zone of the
// dates the site's feeds and sitemaps state; unchanged when none is known.
func (m *Monitor) withZone(d, site string) string {
	loc := m.zones[site]
	if loc == nil || !strings.Contains(d, "T") {
		return d
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, d, loc); err == nil {
			return t.Format(time.RFC3339)
		}
	}
	return d
}

// language is the article's language: its text's (pagemeta), else what
// its feed item states, else what the page declares (an app shell
// declares its own default whatever the article's language).
func (m *Monitor) language(p pending, pg *page) string {
	if pg.pm.Sources.Lang == "text" {
		return pg.pm.Lang
	}
	return firstOf(pagemeta.PrimaryTag(p.hint.Lang), pg.pm.Lang)
}

// section is the first path segment of an article URL that is a plain
// word (not a date, an id or the slug).
func section(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	segs := strings.Split(strings.Trim(pu.Path, "/"), "/")
	for _, s := range segs[:len(segs)-1] {
		if s != "" && !slugLike(s) && len(s) > 2 {
			return s
		}
	}
	return ""
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// Document kinds.
const (
	KindArticle = "article"
	KindHub     = "hub"
	// KindAll selects documents of every kind.
	KindAll = "all"
)

// Selection chooses stored documents; zero fields select everything but
// Kind, whose zero value selects articles.
type Selection struct {
	Round        int       // first stored in this round
	Site, Lang   string    // exact site (host) and language
	Since, Until time.Time // first seen in [Since, Until)
	// Kind selects documents of this kind ("" for KindArticle, KindAll
	// for every kind).
	Kind string
	// MinRelevance keeps the documents whose focus score is at least this.
	MinRelevance float64
}

// Documents returns the monitor's documents selected by sel, in the order
// they were stored, with their duplicate URLs.
func (m *Monitor) Documents(ctx context.Context, sel Selection) ([]Document, error) {
	q := `SELECT id, url, canonical, kind, site, section, title, author, lang, published, modified, first_seen, round, score, body, page_id, method, confidence, run_id, template FROM monitor_docs WHERE monitor = ?`
	args := []any{m.cfg.Name}
	add := func(cond string, v any) { q += " AND " + cond; args = append(args, v) }
	if sel.Round > 0 {
		add("round = ?", sel.Round)
	}
	switch sel.Kind {
	case KindAll:
	case "":
		add("kind = ?", KindArticle)
	default:
		add("kind = ?", sel.Kind)
	}
	if sel.MinRelevance > 0 {
		add("score >= ?", sel.MinRelevance)
	}
	if sel.Site != "" {
		add("site = ?", sel.Site)
	}
	if sel.Lang != "" {
		add("lang = ?", sel.Lang)
	}
	if !sel.Since.IsZero() {
		add("first_seen >= ?", sel.Since.UTC().Format(time.RFC3339))
	}
	if !sel.Until.IsZero() {
		add("first_seen < ?", sel.Until.UTC().Format(time.RFC3339))
	}
	rows, err := m.db.SQL().QueryContext(ctx, m.q(q+" ORDER BY id"), args...)
	if err != nil {
		return nil, fmt.Errorf("monitor: documents: %w", err)
	}
	var out []Document
	byID := map[int64]int{}
	for rows.Next() {
		d := Document{Monitor: m.cfg.Name}
		if err := rows.Scan(&d.ID, &d.URL, &d.Canonical, &d.Kind, &d.Site, &d.Section, &d.Title, &d.Author, &d.Lang, &d.Published, &d.Modified, &d.FirstSeen, &d.Round, &d.Score, &d.Text, &d.PageID, &d.Method, &d.Confidence, &d.Run, &d.Template); err != nil {
			rows.Close()
			return nil, fmt.Errorf("monitor: documents: %w", err)
		}
		d.Relevance = d.Score
		byID[d.ID] = len(out)
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("monitor: documents: %w", err)
	}
	return out, m.attachDuplicates(ctx, out, byID)
}

func (m *Monitor) attachDuplicates(ctx context.Context, docs []Document, byID map[int64]int) error {
	if len(docs) == 0 {
		return nil
	}
	rows, err := m.db.SQL().QueryContext(ctx, m.q(`SELECT url, doc_id FROM monitor_links WHERE monitor = ? ORDER BY url`), m.cfg.Name)
	if err != nil {
		return fmt.Errorf("monitor: duplicate links: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u string
		var id int64
		if err := rows.Scan(&u, &id); err != nil {
			return fmt.Errorf("monitor: duplicate links: %w", err)
		}
		if i, ok := byID[id]; ok {
			docs[i].Duplicates = append(docs[i].Duplicates, u)
		}
	}
	return rows.Err()
}

// ResolveDate normalises a date a page states to ISO 8601, resolving
// relative ones against now (pagemeta.ResolveDate).
func ResolveDate(s string, now time.Time) string { return pagemeta.ResolveDate(s, now) }
