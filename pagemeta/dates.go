package pagemeta

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gleaner/gleaner/treediff"
)

// Meta names (name=, property=, itemprop=) of publication and
// modification dates, in order of preference.
var (
	publishedMetas = []string{
		"article:published_time", "datepublished", "og:published_time", "og:article:published_time",
		"published_time", "publishdate", "publish-date", "publish_date", "pubdate", "date", "citation_publication_date",
		"dc.date.issued", "dc.date", "dcterms.date", "dcterms.issued", "dcterms.created", "dc.date.created",
		"sailthru.date", "parsely-pub-date", "article.published", "article_date_original", "display-date",
		"original-publish-date", "cxenseparse:recs:publishtime", "release_date", "created",
	}
	modifiedMetas = []string{
		"article:modified_time", "og:updated_time", "datemodified", "dcterms.modified", "dc.date.modified",
		"last-modified", "lastmod", "article.updated", "parsely-updated", "modified_time", "updated",
	}
)

// dates returns the page's publication and modification dates, each from
// the first source that gives a complete date: JSON-LD, meta tags,
// itemprop and <time> elements, the bylines (a date near the headline, a
// date-classed element), the URL. A modification date serves as the
// publication date only when nothing else gives one, and go-htmldate's
// when not even that.
func dates(s *scan, ld ldMeta, src []byte, opt Options) (sourced, sourced) {
	var bylinePub, bylineMod string
	bylines := false
	byline := func(mod bool) string {
		if !bylines {
			bylinePub, bylineMod = bylineDates(s, opt.Fetched)
			bylines = true
		}
		if mod {
			return bylineMod
		}
		return bylinePub
	}
	pub := firstDate(
		func() sourced { return sourced{NormalizeDate(ld.published), "json-ld"} },
		func() sourced { return sourced{metaDate(s, publishedMetas), "meta"} },
		func() sourced { return sourced{timeDate(s, "published"), "time"} },
		func() sourced { return sourced{byline(false), "byline"} },
		func() sourced { return sourced{urlDate(opt.URL), "url"} },
	)
	mod := firstDate(
		func() sourced { return sourced{NormalizeDate(ld.modified), "json-ld"} },
		func() sourced { return sourced{metaDate(s, modifiedMetas), "meta"} },
		func() sourced { return sourced{timeDate(s, "modified"), "time"} },
		func() sourced { return sourced{byline(true), "byline"} },
	)
	if pub.value == "" {
		pub = mod
	}
	if pub.value == "" {
		if d := secondOpinionDate(src, opt.URL); d != "" {
			pub = sourced{d, "htmldate"}
		}
	}
	return pub, mod
}

func firstDate(fs ...func() sourced) sourced {
	for _, f := range fs {
		if v := f(); v.value != "" {
			return v
		}
	}
	return sourced{}
}

// metaDate is the first meta date, in the names' order, that holds a
// complete date.
func metaDate(s *scan, names []string) string {
	for _, k := range names {
		for _, v := range s.metas[k] {
			if d := NormalizeDate(v); d != "" {
				return d
			}
		}
	}
	return ""
}

// timeDate is the first date element of that kind (published or
// modified); for published, else the first date element of no stated
// kind.
func timeDate(s *scan, kind string) string {
	for _, want := range []string{kind, ""} {
		if want == "" && kind != "published" {
			break
		}
		for _, t := range s.times {
			if t.kind != want {
				continue
			}
			if d := NormalizeDate(t.value); d != "" {
				return d
			}
		}
	}
	return ""
}

// bylineWindow is how many lines after the headline (and before it) a
// byline date is looked for.
const bylineWindow = 40

// reUpdated marks a modification in a byline, in en, fr, de, es, it, pt,
// nl, pl.
var reUpdated = regexp.MustCompile(`(?i)(updated|last modified|modified|mis à jour|mise à jour|aktualisiert|geändert|actualizado|actualización|aggiornato|atualizado|bijgewerkt|aktualizacja|zaktualizowano)`)

// maxBylineLines bounds the lines read for byline dates.
const maxBylineLines = 120

// bylineDates are the dates of the first short lines near the headline (or
// under a date- or author-classed element, outside excluded regions): the
// first not marked as a modification ("Published 2 May, updated 3 May":
// the part before the mark), and the first so marked. Relative dates
// resolve against now when it is set.
func bylineDates(s *scan, now time.Time) (pub, mod string) {
	for i, l := range orderedLines(s) {
		if i >= maxBylineLines || pub != "" && mod != "" {
			break
		}
		before, after := l.text, ""
		if loc := reUpdated.FindStringIndex(l.text); loc != nil {
			before, after = l.text[:loc[0]], l.text[loc[0]:]
		}
		if pub == "" {
			pub = lineDate(before, l.cue, now)
		}
		if mod == "" && after != "" {
			mod = lineDate(after, l.cue, now)
		}
	}
	return pub, mod
}

// lineDate is the date a byline's text states, "" when none.
func lineDate(text, cue string, now time.Time) string {
	// Every written date has digits; the month names' patterns are
	// slow on the lines that cannot hold one.
	if strings.ContainsAny(text, "0123456789") {
		if d := NormalizeDate(text); d != "" {
			return d
		}
	}
	if !now.IsZero() && cue != "" {
		if t, ok := relativeDate(text, now); ok {
			return t.Format(time.RFC3339)
		}
	}
	return ""
}

// orderedLines are the lines to read for a byline date: those near the
// headline (the first h1, else h2; after it, then before it), then those
// under a date's class, then under an author's.
func orderedLines(s *scan) []line {
	out := headlineLines(s, bylineWindow)
	if h := anchor(s); h >= 0 {
		at := linesFrom(s, h)
		for i := at - 1; i >= 0 && i >= at-bylineWindow/4; i-- {
			out = append(out, s.lines[i])
		}
	}
	for _, cue := range []string{"date", "author"} {
		for _, l := range s.lines {
			if l.cue == cue {
				out = append(out, l)
			}
		}
	}
	return out
}

// headlineLines are the first n lines from the headline on (none when
// the page has no headline).
func headlineLines(s *scan, n int) []line {
	h := anchor(s)
	if h < 0 {
		return nil
	}
	at := linesFrom(s, h)
	return s.lines[at:min(len(s.lines), at+n)]
}

// linesFrom is the position of the first line at or after node index h.
func linesFrom(s *scan, h int) int {
	at := 0
	for at < len(s.lines) && s.lines[at].index < h {
		at++
	}
	return at
}

// anchor is the index of the headline element bylines are looked for
// around: the first h1, else the first h2; -1 for none.
func anchor(s *scan) int {
	for _, hs := range [][]*treediff.Node{s.headings, s.subheads} {
		if len(hs) > 0 {
			return hs[0].Index
		}
	}
	return -1
}

// reURLDate is a date in a URL's path: /2024/03/01/, /2024-03-01, /20240301/.
var reURLDate = regexp.MustCompile(`/((?:19|20)\d{2})[/-]?(0[1-9]|1[0-2])[/-]?(0[1-9]|[12]\d|3[01])(?:[/_.-]|$)`)

// urlDate is the day a page's URL path states, "" when none.
func urlDate(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	m := reURLDate.FindStringSubmatch(p.Path)
	if m == nil {
		return ""
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return ""
	}
	return t.Format("2006-01-02")
}
