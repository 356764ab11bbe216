package pagemeta

import (
	"net/url"
	"strings"
	"time"

	"github.com/gleaner/gleaner/chain/langid"
	"github.com/gleaner/gleaner/treediff"
)

// Meta is what a page states about itself, each field with the kind of
// source it came from (Sources).
type Meta struct {
	// Title is the page's headline: the heading that matches its stated
	// title (og:title, JSON-LD headline, <title>), else the stated title
	// without the site's name.
	Title string `json:"title,omitempty"`
	// Published and Modified are ISO 8601 (NormalizeDate's forms): a
	// day, or a time with the zone the page states, else Options.Zone,
	// else UTC (Sources.Zone says which).
	Published string `json:"published,omitempty"`
	Modified  string `json:"modified,omitempty"`
	// Authors are the people who signed the page, in the order stated,
	// without roles, never the site's name.
	Authors []string `json:"authors,omitempty"`
	// Lang is the document's language (ISO 639-1): the text's, where the
	// text is long enough to tell, else the declared one.
	Lang string `json:"lang,omitempty"`
	// DeclaredLang is the language the page declares (html lang,
	// xml:lang, Content-Language, meta tags), primary subtag only.
	DeclaredLang string  `json:"declared_lang,omitempty"`
	SiteName     string  `json:"site_name,omitempty"`
	Canonical    string  `json:"canonical,omitempty"`
	Section      string  `json:"section,omitempty"`
	Sources      Sources `json:"sources"`
	// headings are the texts of the page's h1, for Headline.
	headings []string
	// titleIn is what Headline's chooser reads besides headings.
	titleIn titleInputs
}

// Sources names where each field of a Meta came from: "json-ld", "meta",
// "itemprop", "time", "byline", "class", "url", "h1", "title", "text",
// "declared", "link", "noscript" (microdata in <noscript> markup),
// "poster" (a thread's first poster, threadPoster); ""
// when the field is empty. Zone is "page" (stated),
// "site" (Options.Zone) or "utc" (assumed), "" for a date without time.
type Sources struct {
	Title     string `json:"title,omitempty"`
	Published string `json:"published,omitempty"`
	Modified  string `json:"modified,omitempty"`
	Zone      string `json:"zone,omitempty"`
	Authors   string `json:"authors,omitempty"`
	Lang      string `json:"lang,omitempty"`
	SiteName  string `json:"site_name,omitempty"`
	Canonical string `json:"canonical,omitempty"`
	Section   string `json:"section,omitempty"`
}

// Options is what is known of a page besides its markup.
type Options struct {
	// URL is the page's address: canonical links resolve against it, and
	// its path is the dates' last resort.
	URL string
	// Fetched is when the page was fetched: relative dates ("3 hours
	// ago", "gestern") resolve against it; zero leaves them unread.
	Fetched time.Time
	// Zone is the zone given to a time the page states without one (the
	// zone of the site's feeds, say); nil for UTC.
	Zone *time.Location
	// ContentLanguage is the HTTP Content-Language header, if any.
	ContentLanguage string
	// Text is the page's extracted text, for language identification;
	// "" reads the text of the page's body.
	Text string
	// Languages, when set, restricts language identification to its
	// languages (a monitor's configured ones); nil allows every language.
	Languages *langid.Identifier
	// NoLanguage leaves Lang and DeclaredLang empty: identification is a
	// fifth of Extract's time, and the extraction methods do not use it.
	NoLanguage bool
}

// Extract reads the metadata page t states. src, optional, is the page's
// source, read for JSON-LD (which the tree does not keep): give the
// rendered DOM's serialisation together with the server's source when
// they differ, so that a page gives the same metadata plain or rendered.
// The work is linear in the size of the tree and of src.
func Extract(t *treediff.Tree, src []byte, opt Options) Meta {
	var m Meta
	if t == nil || t.Root == nil {
		return m
	}
	s := scanTree(t, opt.URL)
	ld := readJSONLD(src)
	m.SiteName, m.Sources.SiteName = firstSource(
		sourced{ld.publisher, "json-ld"}, sourced{s.meta("og:site_name", "application-name", "al:android:app_name"), "meta"})
	m.Canonical, m.Sources.Canonical = canonicalURL(s, opt.URL)
	m.Section, m.Sources.Section = firstSource(
		sourced{s.meta("article:section", "parsely-section", "sailthru.section", "section"), "meta"}, sourced{ld.section, "json-ld"})
	m.Title, m.Sources.Title = headline(s, ld, m.SiteName, hostOf(opt.URL))
	m.headings = texts(s.headings, "", "")
	if m.Title != "" || len(m.headings) > 0 { // else the chooser has only the extracted title
		m.titleIn = titleInputs{stated: []sourced{{s.meta("og:title", "twitter:title"), "og"}, {ld.headline, "json-ld"},
			{s.meta("headline", "dc.title", "dcterms.title", "title"), "dc"}, {s.docTitle, "title"}},
			site: m.SiteName, host: hostOf(opt.URL), article: strings.EqualFold(s.meta("og:type"), "article") || ld.article}
	}
	s.setAnchor(m.Title, m.Sources.Title)
	m.Authors, m.Sources.Authors = authors(s, t, ld, m.SiteName, hostOf(opt.URL))
	if p, at := threadPoster(t, anchor(s), m.SiteName, hostOf(opt.URL)); p != "" && posterFirst(s, m.Authors, m.Sources.Authors, at) {
		m.Authors, m.Sources.Authors = []string{p}, "poster"
	}
	pub, mod := dates(s, ld, src, opt)
	m.Published, m.Sources.Published = pub.value, pub.source
	m.Modified, m.Sources.Modified = mod.value, mod.source
	fromNoscript(&m, src, hostOf(opt.URL))
	m.Published, m.Sources.Zone = withZone(m.Published, opt.Zone)
	m.Modified, _ = withZone(m.Modified, opt.Zone)
	if !opt.NoLanguage {
		m.DeclaredLang = declaredLang(s, ld, opt.ContentLanguage)
		m.Lang, m.Sources.Lang = language(t, opt, m.DeclaredLang)
	}
	return m
}

// sourced is a value and the kind of source it came from.
type sourced struct{ value, source string }

// firstSource returns the first non-empty value and its source.
func firstSource(vs ...sourced) (string, string) {
	for _, v := range vs {
		if v.value = strings.TrimSpace(v.value); v.value != "" {
			return v.value, v.source
		}
	}
	return "", ""
}

// canonicalURL is the page's canonical link (else og:url), absolute.
func canonicalURL(s *scan, page string) (string, string) {
	c, src := firstSource(sourced{s.canonical, "link"}, sourced{s.meta("og:url"), "meta"})
	if c == "" {
		return "", ""
	}
	ref, err := url.Parse(c)
	if err != nil {
		return "", ""
	}
	if base, err := url.Parse(page); err == nil && page != "" {
		ref = base.ResolveReference(ref)
	}
	if !ref.IsAbs() {
		return "", ""
	}
	return ref.String(), src
}

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(p.Hostname()), "www.")
}

// withZone writes a time as RFC 3339 (seconds included, so that dates
// compare as strings and parse as RFC 3339), in the zone the page states,
// else loc's ("site"), else UTC ("utc"); a day stays a day ("").
func withZone(d string, loc *time.Location) (string, string) {
	if !strings.Contains(d, "T") {
		return d, ""
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, d); err == nil {
			return t.Format(time.RFC3339), "page"
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04"} {
		t, err := time.Parse(layout, d)
		if err != nil {
			continue
		}
		zone := "site"
		if loc == nil {
			loc, zone = time.UTC, "utc"
		}
		t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc)
		return t.Format(time.RFC3339), zone
	}
	return d, "page"
}
