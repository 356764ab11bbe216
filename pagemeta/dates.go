package pagemeta

import (
	"net/url"
	"regexp"
	"slices"
	"sort"
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
		"original-publish-date", "cxenseparse:recs:publishtime", "release_date", "published", "published_at",
		"publication_date", "date_published", "article:published", "created",
	}
	modifiedMetas = []string{
		"article:modified_time", "og:updated_time", "datemodified", "dcterms.modified", "dc.date.modified",
		"last-modified", "lastmod", "article.updated", "parsely-updated", "modified_time", "updated",
	}
)

// dates returns the page's publication and modification dates, each from
// the first source that gives a complete date: JSON-LD, meta tags,
// itemprop and <time> elements (those marked as publications, a date a
// publication label names as a field's value, then those of no stated
// kind), the bylines (a date near the headline, a date-classed element),
// the URL, a date a line starting with a publication label states. A stated publication date that is a
// save stamp gives way to the one the byline shows (savedStamp), and so
// does one days after the first date shown under the headline. A
// modification date serves as the publication date only when nothing
// else gives one, and go-htmldate's when not even that. A stated date
// also gives way to the byline's when another publication source seconds
// the byline (seconded), or when it is a time of no zone and the byline
// shows the day next to it (localDay).
func dates(s *scan, ld ldMeta, src []byte, opt Options) (sourced, sourced) {
	b := &bylines{s: s, now: opt.Fetched}
	pub := firstDate(
		func() sourced { return sourced{normalizeDate(ld.published, s.order), "json-ld"} },
		func() sourced { return sourced{metaDate(s, publishedMetas), "meta"} },
		func() sourced { return sourced{timeOfKind(s, "published"), "time"} },
		func() sourced { return labelledPublished(s, true) },
		func() sourced { return sourced{timeOfKind(s, ""), "time"} },
		func() sourced { return sourced{b.published(), "byline"} },
		func() sourced { return sourced{urlDate(opt.URL), "url"} },
		func() sourced { return labelledPublished(s, false) },
	)
	mod := firstDate(
		func() sourced { return sourced{normalizeDate(ld.modified, s.order), "json-ld"} },
		func() sourced { return sourced{metaDate(s, modifiedMetas), "meta"} },
		func() sourced { return sourced{timeDate(s, "modified"), "time"} },
		func() sourced { return sourced{b.modified(), "byline"} },
	)
	switch {
	case savedStamp(pub, mod):
		pub = shownBefore(pub, b.published(), 0)
	case pub.source == "json-ld" || pub.source == "meta":
		// The first date shown under the headline, days before the
		// stated one, is when the text was first out: the stated date
		// is a republication's or a migration's.
		pub = shownBefore(pub, b.firstShown(), 2)
		pub = seconded(s, pub, mod, b.firstShown())
		pub = localDay(pub, b.firstShown())
	}
	if pub.value == "" {
		pub = unstatedPublished(s, b, mod, src, opt.URL)
	}
	return pub, mod
}

// unstatedPublished stands in for the publication date of a page that
// states none: its modification date when the page shows that day
// ("Updated on …"), else go-htmldate's date unless it is the
// modification day only the head states. A last-save stamp in the head
// is no publication date: on the wcxb-dev articles it was wrong on 5 of
// the 6 pages it alone dated.
func unstatedPublished(s *scan, b *bylines, mod sourced, src []byte, pageURL string) sourced {
	if mod.value != "" && (mod.source == "time" || mod.source == "byline" || shownDay(s, b, mod.value)) {
		return mod
	}
	if d := secondOpinionDate(src, pageURL); d != "" && !sameDayOf(d, mod.value) {
		return sourced{d, "htmldate"}
	}
	return sourced{}
}

// shownDay reports whether the page shows day d as its modification
// date: in a byline or a date element.
func shownDay(s *scan, b *bylines, d string) bool {
	return sameDayOf(b.modified(), d) || sameDayOf(timeDate(s, "modified"), d)
}

// sameDayOf reports whether two dates as NormalizeDate writes them are
// of the same day as written ("" is no day).
func sameDayOf(a, b string) bool {
	return len(a) >= 10 && len(b) >= 10 && a[:10] == b[:10]
}

// bylines reads the byline dates of a page once, when first asked.
type bylines struct {
	s        *scan
	now      time.Time
	read     bool
	pub, mod string
}

func (b *bylines) published() string { b.load(); return b.pub }
func (b *bylines) modified() string  { b.load(); return b.mod }

// firstShown is the byline's publication date when it is the first date
// the lines after the headline show, "" otherwise (after an "Updated"
// line, a date further down may be a table's).
func (b *bylines) firstShown() string {
	b.load()
	if b.pub == "" {
		return ""
	}
	for _, l := range headlineLines(b.s, bylineWindow) {
		if d := lineDate(l.text, l.cue, time.Time{}, b.s.order); d != "" {
			if sameDayOf(d, b.pub) {
				return b.pub
			}
			return ""
		}
	}
	return ""
}

func (b *bylines) load() {
	if b.read {
		return
	}
	lines := orderedLines(b.s)
	b.pub, b.mod = bylineDates(lines, b.s.order, b.now)
	if b.mod == "" {
		b.mod = updatedLine(b.s)
	}
	if d := originalDate(lines, b.s.order); d != "" {
		b.pub = d
	}
	b.read = true
}

// savedStamp reports whether a stated publication date (JSON-LD, meta
// tags) may be the stamp of the page's last save rather than of its
// publication: not before the stated modification date, or of its day
// (many systems write the time of the last save into both, some in
// UTC where the byline shows the local day).
func savedStamp(pub, mod sourced) bool {
	if pub.source != "json-ld" && pub.source != "meta" {
		return false
	}
	p, ok1 := instant(pub.value)
	m, ok2 := instant(mod.value)
	return ok1 && ok2 && (!p.Before(m) || pub.value[:10] == mod.value[:10])
}

// shownBefore is the publication date the byline shows when it is an
// earlier day than pub's, by more than days days, else pub.
func shownBefore(pub sourced, shown string, days int) sourced {
	p, ok1 := instant(pub.value)
	s, ok2 := instant(shown)
	if ok1 && ok2 && shown[:10] < pub.value[:10] && s.Before(p.AddDate(0, 0, -days)) {
		return sourced{shown, "byline"}
	}
	return pub
}

// seconded is the publication date the byline shows, days after the
// stated one pub, when another of the page's publication sources (a meta
// tag, a date element) states that day too and it is not the stated
// modification day: two sources against one, where the stated date is an
// older version's (a republished text keeps its first record's date in
// one place). Else pub.
func seconded(s *scan, pub, mod sourced, shown string) sourced {
	p, ok1 := instant(pub.value)
	t, ok2 := instant(shown)
	if !ok1 || !ok2 || !t.After(p.AddDate(0, 0, 2)) || sameDayOf(shown, mod.value) || !statedElsewhere(s, shown) {
		return pub
	}
	return sourced{shown, "byline"}
}

// localDay is the byline's date when pub states a time of no zone and
// the byline shows the day before or after it: the stated time's day
// depends on a zone the page does not give, the byline's is the day its
// readers were shown. Else pub.
func localDay(pub sourced, shown string) sourced {
	p, ok1 := instant(pub.value)
	t, ok2 := instant(shown)
	if !ok1 || !ok2 || len(pub.value) <= len("2006-01-02") || hasZone(pub.value) || sameDayOf(pub.value, shown) {
		return pub
	}
	if d := dayOf(t).Sub(dayOf(p)); d == 24*time.Hour || d == -24*time.Hour {
		return sourced{shown, "byline"}
	}
	return pub
}

// dayOf is midnight UTC of the calendar day t is written with.
func dayOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// hasZone reports whether a date as NormalizeDate writes it states its
// zone (Z or an offset after the time).
func hasZone(d string) bool {
	_, clock, ok := strings.Cut(d, "T")
	return ok && strings.ContainsAny(clock, "Z+-")
}

// statedElsewhere reports whether a publication meta tag or a date
// element not marked as a modification states day d.
func statedElsewhere(s *scan, d string) bool {
	for _, k := range publishedMetas {
		for _, v := range s.metas[k] {
			if sameDayOf(normalizeDate(v, s.order), d) {
				return true
			}
		}
	}
	for _, t := range s.times {
		if t.kind != "modified" && sameDayOf(normalizeDate(t.value, s.order), d) {
			return true
		}
	}
	return false
}

// instant parses a date as NormalizeDate writes it; a time of unknown
// zone and a day are read as UTC.
func instant(d string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, d); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
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
			if d := normalizeDate(v, s.order); d != "" {
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
	if d := timeOfKind(s, kind); d != "" || kind != "published" {
		return d
	}
	return timeOfKind(s, "")
}

// timeOfKind is the first complete date of the page's date elements of
// that kind ("" for those of no stated kind). Those of no stated kind are
// read nearest the headline first, in lines (after it on a tie): the
// byline's date is next to the headline, where a ticker's, a menu's or
// other stories' dates are further away.
func timeOfKind(s *scan, kind string) string {
	for _, t := range timesOfKind(s, kind) {
		if d := normalizeDate(t.value, s.order); d != "" {
			return d
		}
	}
	return ""
}

// timesOfKind are the page's date elements of that kind, in page order
// for a stated kind, else nearest the headline first, leaving out those
// further above it than a byline is looked for: a page's header may show
// the current time (a forum's user panel).
func timesOfKind(s *scan, kind string) []dated {
	var all []dated
	for _, t := range s.times {
		if t.kind == kind {
			all = append(all, t)
		}
	}
	h := anchor(s)
	if kind != "" || h < 0 {
		return all
	}
	at := linesFrom(s, h)
	dist := make(map[int]int, len(all))
	var out []dated
	for _, t := range all {
		d := 2 * (linesFrom(s, t.index) - at)
		if d < -2*bylineAbove {
			continue
		}
		if d < 0 {
			d = -d + 1 // after the headline on a tie
		}
		dist[t.index] = d
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b dated) int { return dist[a.index] - dist[b.index] })
	return out
}

// bylineWindow is how many lines after the headline (and before it) a
// byline date is looked for.
const bylineWindow = 40

// bylineAbove is how many lines before the headline a byline date is
// looked for.
const bylineAbove = bylineWindow / 4

// reUpdated marks a modification in a byline, in en, fr, de, es, it, pt,
// nl, pl.
var reUpdated = regexp.MustCompile(`(?i)(updated|last modified|modified|mis à jour|mise à jour|aktualisiert|geändert|actualizado|actualización|aggiornato|atualizado|bijgewerkt|aktualizacja|zaktualizowano)`)

// maxDateLineWords bounds the words of a line that gives a byline date
// without a date's or an author's class: a longer one is prose ("As of
// July 31, 2025, the agency has received…"), not a byline.
const maxDateLineWords = 8

// maxBylineLines bounds the lines read for byline dates.
const maxBylineLines = 120

// bylineDates are the dates of the first short lines near the headline (or
// under a date- or author-classed element, outside excluded regions): the
// first not marked as a modification ("Published 2 May, updated 3 May":
// the part before the mark), and the first so marked. Relative dates
// resolve against now when it is set.
func bylineDates(lines []line, o dateOrder, now time.Time) (pub, mod string) {
	for i, l := range lines {
		if i >= maxBylineLines || pub != "" && mod != "" {
			break
		}
		if l.cue == "" && len(strings.Fields(l.text)) > maxDateLineWords {
			continue
		}
		before, after := splitUpdated(l.text)
		if pub == "" {
			pub = lineDate(before, l.cue, now, o)
		}
		if mod == "" && after != "" {
			mod = lineDate(after, l.cue, now, o)
		}
	}
	return pub, mod
}

// updatedLine is the date of the first short line of the page, wherever
// it is, that states when the page was last updated ("Last updated:
// November 13, 2025", "Page modified 3 May 2024"): a page may state it
// at its foot only. "" when no line does.
func updatedLine(s *scan) string {
	for _, l := range s.lines {
		loc := reUpdated.FindStringIndex(l.text)
		if loc == nil || len(strings.Fields(l.text)) > maxDateLineWords || len(strings.Fields(l.text[:loc[0]])) > 2 {
			continue
		}
		if d := lineDate(l.text[loc[1]:], l.cue, time.Time{}, s.order); d != "" {
			return d
		}
	}
	return ""
}

// reOriginally states when a page that has been updated since was first
// published ("This article was originally published on …"), in en, fr,
// de, es, it, pt, nl, pl.
var reOriginally = regexp.MustCompile(`(?i)(?:originally|first) (?:published|posted)|(?:ursprünglich|erstmals) (?:veröffentlicht|erschienen)|(?:publié|paru) (?:initialement|pour la première fois)|initialement (?:publié|paru)|publicad[oa] originalmente|originalmente publicad[oa]|(?:originariamente|originalmente) pubblicat[oa]|pubblicat[oa] originariamente|oorspronkelijk gepubliceerd|pierwotnie opublikowan[oy]`)

// originalDate is the date of the first line that states when the page
// was first published, "" when none does: it outranks the date a byline
// shows, which is then the last update's.
func originalDate(lines []line, o dateOrder) string {
	for i, l := range lines {
		if i >= maxBylineLines {
			break
		}
		if loc := reOriginally.FindStringIndex(l.text); loc != nil {
			if d := lineDate(l.text[loc[1]:], l.cue, time.Time{}, o); d != "" {
				return d
			}
		}
	}
	return ""
}

// splitUpdated parts a byline at its modification mark ("Published 2
// May, updated 3 May"): the part before, and the part from the mark on
// ("" when it has none).
func splitUpdated(text string) (before, after string) {
	if loc := reUpdated.FindStringIndex(text); loc != nil {
		return text[:loc[0]], text[loc[0]:]
	}
	return text, ""
}

// lineDate is the date a byline's text states, "" when none.
func lineDate(text, cue string, now time.Time, o dateOrder) string {
	// Every written date has digits; the month names' patterns are
	// slow on the lines that cannot hold one.
	if strings.ContainsAny(text, "0123456789") {
		if d := normalizeDate(text, o); d != "" {
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
	// A copy: appending to the lines after the headline would write over
	// the page's next lines.
	out := slices.Clone(headlineLines(s, bylineWindow))
	if h := anchor(s); h >= 0 {
		at := linesFrom(s, h)
		for i := at - 1; i >= 0 && i >= at-bylineAbove; i-- {
			out = append(out, s.lines[i])
		}
	}
	out = append(out, cuedLines(s, "date")...)
	return append(out, cuedLines(s, "author")...)
}

// cuedLines are the page's lines under a class that gives that cue.
func cuedLines(s *scan, cue string) []line {
	var out []line
	for _, l := range s.lines {
		if l.cue == cue {
			out = append(out, l)
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
	// The lines are in page order, their indexes increasing.
	return sort.Search(len(s.lines), func(i int) bool { return s.lines[i].index >= h })
}

// anchor is the index of the headline element bylines are looked for
// around: the heading that gave the page's headline (a forum's first h1
// may be its name, the thread's title an h2 further down), else the first
// h1, else the first h2; -1 for none.
func anchor(s *scan) int {
	if s.anchor != nil {
		return s.anchor.Index
	}
	for _, hs := range [][]*treediff.Node{s.headings, s.subheads} {
		if len(hs) > 0 {
			return hs[0].Index
		}
	}
	return -1
}

// setAnchor records the first heading of the kind that gave the headline
// (source "h1" or "h2") whose text is the headline.
func (s *scan) setAnchor(headline, source string) {
	hs := map[string][]*treediff.Node{"h1": s.headings, "h2": s.subheads}[source]
	for _, h := range hs {
		if sameHeadline(h.Text(), headline) {
			s.anchor = h
			return
		}
	}
}

// reURLDate is a date in a URL's path: /2024/03/01/, /2024-03-01, /20240301/.
var reURLDate = regexp.MustCompile(`/((?:19|20)\d{2})[/-]?(0[1-9]|1[0-2])[/-]?(0[1-9]|[12]\d|3[01])(?:[/_.-]|$)`)

// reURLNamedDate is a date in a URL's path with the month's name:
// /2023/october/03/, /2023/oct/3/.
var reURLNamedDate = regexp.MustCompile(`/((?:19|20)\d{2})/(` + monthPattern + `)/(0?[1-9]|[12]\d|3[01])(?:[/_.-]|$)`)

// urlDate is the day a page's URL path states, "" when none.
func urlDate(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	path := strings.ToLower(p.Path)
	var mo int
	m := reURLDate.FindStringSubmatch(path)
	if m != nil {
		mo, _ = strconv.Atoi(m[2])
	} else if m = reURLNamedDate.FindStringSubmatch(path); m != nil {
		mo = int(monthNames[m[2]])
	} else {
		return ""
	}
	y, _ := strconv.Atoi(m[1])
	d, _ := strconv.Atoi(m[3])
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return ""
	}
	return t.Format("2006-01-02")
}

// labelledPublished is the day the page's publication labels date, or
// the first date element of no stated kind when it states that day with
// a time. alone reads only the labels that are texts of their own, a
// field's name before its value ("Published", "15 November 2018"): they
// name the page's date wherever they are (a sidebar), where "posted on
// …" starts the lines of lists of other stories too, read only when no
// byline nor the URL dates the page.
func labelledPublished(s *scan, alone bool) sourced {
	d := labelledDate(s, alone)
	if t := timeOfKind(s, ""); sameDayOf(t, d) && len(t) > len(d) {
		return sourced{t, "time"}
	}
	return sourced{d, "label"}
}

// labelledDate is the day the page's publication labels (those that are
// texts of their own if alone) date, when they all date the same day:
// several days are those of several items (a listing's, a thread's
// posts). "" when no label dates a day.
func labelledDate(s *scan, alone bool) string {
	day := ""
	for _, l := range s.published {
		d := normalizeDate(l.text, s.order)
		switch {
		case d == "" || alone && !l.alone:
		case day == "":
			day = d
		case !sameDayOf(d, day):
			return ""
		}
	}
	return day
}
