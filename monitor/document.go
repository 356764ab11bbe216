package monitor

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/store/monitoring"
)

// Document is one stored article, as output (see monitoring.Document).
type Document = monitoring.Document

// Selection chooses stored documents (see monitoring.Selection).
type Selection = monitoring.Selection

// DocKind is a document's page kind.
type DocKind = monitoring.DocKind

// ParseKind reads a document kind as a selection names it: article, hub
// or all.
func ParseKind(s string) (DocKind, error) { return monitoring.ParseKind(s) }

// Document kinds.
const (
	KindArticle = monitoring.KindArticle
	KindHub     = monitoring.KindHub
	// KindAll selects documents of every kind.
	KindAll = monitoring.KindAll
)

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
	d.Lang, d.LangSource = language(p, pg)
	d.Section = section(d.URL)
	return d
}

// headline is the page's headline (pagemeta.Meta.HeadlineOf) when a
// heading, its structured data or its extraction gives it, "" when it is
// only the page's whole <title> (an app shell's is the site's name; a
// feed's title is then better). A headline that is part of the <title>
// (the title less the site's name) is the page's own.
func headline(pg *page) string {
	h := pg.pm.HeadlineOf(pg.title, pg.pageType)
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
	if h.Via == viaSitemap && !h.Modified.IsZero() {
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

// language is the article's language and where it came from: its text's
// (pagemeta, "text"), else what its feed item states ("feed"), else what
// the page declares ("declared": an app shell declares its own default
// whatever the article's language). A document without text claims no
// language identified: pagemeta then reads the page's body, a shell's.
func language(p pending, pg *page) (string, string) {
	if pg.pm.Sources.Lang == "text" && pg.words > 0 {
		return pg.pm.Lang, "text"
	}
	if l := pagemeta.PrimaryTag(p.hint.Lang); l != "" {
		return l, "feed"
	}
	if pg.pm.DeclaredLang != "" {
		return pg.pm.DeclaredLang, "declared"
	}
	return "", ""
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

// Documents returns the monitor's documents selected by sel, in the order
// they were stored, with their duplicate URLs.
func (m *Monitor) Documents(ctx context.Context, sel Selection) ([]Document, error) {
	return m.repo.Documents(ctx, sel)
}

// Captures are the store pages of the documents sel selects, each
// capture of each (the first fetch, and every recheck's: a changed page,
// a 304 answer), by page ID, with its document; with sel.Round, the
// captures made in that round, whichever round stored their document
// first. What export --monitor archives.
func (m *Monitor) Captures(ctx context.Context, sel Selection) (map[int64]Document, error) {
	round := sel.Round
	sel.Round = 0
	docs, err := m.repo.Documents(ctx, sel)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]Document, len(docs))
	for _, d := range docs {
		byID[d.ID] = d
	}
	caps, err := m.repo.Captures(ctx, round)
	if err != nil {
		return nil, err
	}
	out := map[int64]Document{}
	for _, c := range caps {
		if d, ok := byID[c.DocID]; ok {
			out[c.PageID] = d
		}
	}
	return out, nil
}

// ResolveDate normalises a date a page states to ISO 8601, resolving
// relative ones against now (pagemeta.ResolveDate).
func ResolveDate(s string, now time.Time) string { return pagemeta.ResolveDate(s, now) }
