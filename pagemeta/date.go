package pagemeta

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// NormalizeDate returns the date a page states as ISO 8601: "2006-01-02"
// for a day, "2006-01-02T15:04:05" with a time of unknown zone,
// "2006-01-02T15:04:05-07:00" (or Z) with a known zone, the seconds left
// out when the page gives none; "" when s holds no
// complete date (day, month and year between 1970 and 2100): a headline or
// "3 hours ago" is never taken for one.
//
// It reads ISO 8601 and RFC 3339 (meta tags, JSON-LD, <time datetime>),
// RFC 1123 and RFC 822 (HTTP-style), compact 20060102, and the textual
// formats of bylines anywhere in s: "March 2, 2024", "Mar. 2 2024", "2
// March 2024", "12/28/2005" (month first, unless the first number cannot
// be a month), "27.05.2002" (day first) and two-digit years, each with an
// optional time ("5:35:18 PM", "10:00") and zone abbreviation or offset.
func NormalizeDate(s string) string {
	return normalizeDate(s, slashMonthFirst)
}

// dateOrder is how a page orders the day and month of a numeric date
// written with slashes ("03/10/2023"): month first (the United States'
// use, and the default) or day first (elsewhere).
type dateOrder int

const (
	slashMonthFirst dateOrder = iota
	slashDayFirst
)

// normalizeDate is NormalizeDate with the page's order of slashed dates.
func normalizeDate(s string, o dateOrder) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	if t, p, ok := parseLayouts(s); ok {
		return formatDate(t, p)
	}
	return textualDate(s, o)
}

// Whole-string layouts, with whether they carry a time and a zone.
var dateLayouts = []struct {
	layout string
	prec   precision
}{
	{time.RFC3339Nano, precision{time: true, seconds: true, zone: true}},
	{"2006-01-02T15:04:05Z0700", precision{time: true, seconds: true, zone: true}},
	{"2006-01-02T15:04Z07:00", precision{time: true, seconds: false, zone: true}},
	{"2006-01-02T15:04Z0700", precision{time: true, seconds: false, zone: true}},
	{"2006-01-02 15:04:05Z07:00", precision{time: true, seconds: true, zone: true}},
	{"2006-01-02 15:04:05 -0700", precision{time: true, seconds: true, zone: true}},
	{"2006-01-02 15:04:05 -0700 MST", precision{time: true, seconds: true, zone: true}},
	{"2006-01-02T15:04:05", precision{time: true, seconds: true, zone: false}},
	{"2006-01-02T15:04:05.999999999", precision{time: true, seconds: true, zone: false}},
	{"2006-01-02T15:04", precision{time: true, seconds: false, zone: false}},
	{"2006-01-02 15:04:05", precision{time: true, seconds: true, zone: false}},
	{"2006-01-02 15:04", precision{time: true, seconds: false, zone: false}},
	{time.RFC1123Z, precision{time: true, seconds: true, zone: true}},
	{time.RFC1123, precision{time: true, seconds: true, zone: true}},
	{"Mon, 2 Jan 2006 15:04:05 -0700", precision{time: true, seconds: true, zone: true}},
	{"Mon, 2 Jan 2006 15:04:05 MST", precision{time: true, seconds: true, zone: true}},
	{time.RFC822Z, precision{time: true, seconds: false, zone: true}},
	{"2006-01-02", precision{}},
	{"20060102", precision{}},
	{"2006/01/02", precision{}},
}

// precision is what a written date gives beside the day.
type precision struct{ time, seconds, zone bool }

// parseLayouts parses s whole with dateLayouts.
func parseLayouts(s string) (time.Time, precision, bool) {
	for _, l := range dateLayouts {
		t, err := time.Parse(l.layout, s)
		if err != nil || !plausibleYear(t.Year()) {
			continue
		}
		t, p := namedZone(t, l.prec)
		return t, p, true
	}
	return time.Time{}, precision{}, false
}

// namedZone gives t the offset of the zone abbreviation it was parsed
// with: time.Parse reads one it does not know as UTC+0 under that name.
// An abbreviation zoneOf does not know either leaves the offset unknown.
func namedZone(t time.Time, p precision) (time.Time, precision) {
	name, off := t.Zone()
	if !p.zone || off != 0 || name == "UTC" || name == "GMT" || name == "" {
		return t, p
	}
	loc, known := zoneOf(name)
	p.zone = known
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc), p
}

func plausibleYear(y int) bool { return y >= 1970 && y <= 2100 }

// formatDate formats t as NormalizeDate returns it.
func formatDate(t time.Time, p precision) string {
	if !p.time {
		return t.Format("2006-01-02")
	}
	layout := "2006-01-02T15:04"
	if p.seconds {
		layout += ":05"
	}
	if p.zone {
		layout += "Z07:00"
	}
	return t.Format(layout)
}

var (
	// Month names are matched in lower case (textualDate lowers its
	// input): a case-insensitive alternation of a hundred names is slow.
	reMonthDay = regexp.MustCompile(`(?:^|[^\p{L}])(` + monthPattern + `)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})(?:[^\d]|$)`)
	reDayMonth = regexp.MustCompile(`(?:^|[^\p{L}\d])(\d{1,2})(?:st|nd|rd|th|er|º|°)?\.?[ -](?:of |de |del )?(` + monthPattern + `)\.?,?[ -](?:de |del )?(\d{4})(?:[^\d]|$)`)
	// Year first with a month name, as citations write it ("2023 Jan 7",
	// citation_publication_date) and some bylines ("2024, March 5").
	reYearMonth = regexp.MustCompile(`(?:^|[^\d])(\d{4}),? (` + monthPattern + `)\.? (\d{1,2})(?:st|nd|rd|th)?(?:[^\d]|$)`)
	reNumeric   = regexp.MustCompile(`\b(\d{1,4})([/.-])(\d{1,2})([/.-])(\d{2,4})\b`)
	// A time of day after a date: "5:35:18 PM", "20:36 Uhr", "20h36", "à
	// 9 h 05", with a zone abbreviation or offset.
	reClock = regexp.MustCompile(`(?i)(?:^|[^\d])(\d{1,2}) ?(?::|h|\.) ?(\d{2})(?::(\d{2}))?(?: ?([ap])\.?m\.?)?(?: ?(?:uhr|hrs?|h)\b)?(?: ?([A-Z]{2,4}|[+-]\d{2}:?\d{2}|Z)\b)?`)
)

// monthNames maps the month names and abbreviations of en, fr, de, es, it,
// pt, nl and pl (Polish in the genitive a date uses), lower-cased, to
// their month.
var monthNames = func() map[string]time.Month {
	lists := [][12]string{
		{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"},
		{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
		{"januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "dezember"},
		{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
		{"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
		{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
		{"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
		{"stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia"},
		// Abbreviations, each language's usual ones.
		{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"},
		{"janv", "févr", "mars", "avr", "mai", "juin", "juil", "août", "sept", "oct", "nov", "déc"},
		{"jan", "feb", "mär", "apr", "mai", "jun", "jul", "aug", "sept", "okt", "nov", "dez"},
		{"ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "set", "oct", "nov", "dic"},
		{"gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "sett", "ott", "nov", "dic"},
		{"jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"},
		{"jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"},
		{"sty", "lut", "mar", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "lis", "gru"},
		{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sept", "oct", "nov", "dec"},
		{"january", "february", "march", "april", "may", "june", "july", "august", "septembre", "october", "november", "december"},
	}
	m := map[string]time.Month{"févier": time.February, "fevrier": time.February, "aout": time.August, "decembre": time.December, "marz": time.March, "fév": time.February}
	for _, l := range lists {
		for i, name := range l {
			m[name] = time.Month(i + 1)
		}
	}
	return m
}()

// monthPattern matches any key of monthNames, longest first.
var monthPattern = func() string {
	names := make([]string, 0, len(monthNames))
	for k := range monthNames {
		names = append(names, regexp.QuoteMeta(k))
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	return strings.Join(names, "|")
}()

// textualDate finds a date written out in s, and a time after it.
func textualDate(s string, o dateOrder) string {
	s = strings.ToLower(s)
	y, m, d, end, ok := findDay(s, o)
	if !ok {
		return ""
	}
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d || t.Month() != m {
		return "" // 31 February
	}
	c := reClock.FindStringSubmatch(s[end:])
	if c == nil {
		return formatDate(t, precision{})
	}
	hh, mm, ss, ok := clock(c)
	if !ok {
		return formatDate(t, precision{})
	}
	loc, known := zoneOf(c[5])
	return formatDate(time.Date(y, m, d, hh, mm, ss, 0, loc), precision{time: true, seconds: c[3] != "", zone: known})
}

// clock is the time of day of a reClock match, on 24 hours; ok is false
// for an impossible one.
func clock(c []string) (hh, mm, ss int, ok bool) {
	hh, _ = strconv.Atoi(c[1])
	mm, _ = strconv.Atoi(c[2])
	ss, _ = strconv.Atoi(c[3])
	hh = hour24(hh, strings.ToLower(c[4]))
	return hh, mm, ss, hh <= 23 && mm <= 59 && ss <= 59
}

// hour24 is hour h of a 12-hour clock marked "a" or "p" on 24 hours
// (h itself without a mark).
func hour24(h int, mark string) int {
	switch {
	case mark == "p" && h < 12:
		return h + 12
	case mark == "a" && h == 12:
		return 0
	}
	return h
}

// dayMatch is a day found in a text: its fields, where its text starts
// and ends.
type dayMatch struct {
	y, d       int
	m          time.Month
	start, end int
	ok         bool
}

// findDay finds the first day written out in s (month name first, day
// first, or numeric, whichever comes first).
func findDay(s string, o dateOrder) (int, time.Month, int, int, bool) {
	best := dayMatch{start: len(s) + 1}
	numeric := func(s string) (dayMatch, bool) { return numericDate(s, o) }
	for _, f := range []func(string) (dayMatch, bool){monthFirst, dayFirst, yearFirst, numeric} {
		if dm, found := f(s); found && dm.start < best.start {
			best = dm
		}
	}
	return best.y, best.m, best.d, best.end, best.ok
}

// monthFirst finds a day written month name, day, year ("March 2, 2024").
func monthFirst(s string) (dayMatch, bool) { return namedDay(reMonthDay, s, 3, 1, 2) }

// dayFirst finds a day written day, month name, year ("2 March 2024"),
// not the last day of a span.
func dayFirst(s string) (dayMatch, bool) {
	dm, found := namedDay(reDayMonth, s, 3, 2, 1)
	dm.ok = dm.ok && !spanEnd(s[:dm.start])
	return dm, found
}

// yearFirst finds a day written year, month name, day ("2023 Jan 7").
func yearFirst(s string) (dayMatch, bool) { return namedDay(reYearMonth, s, 1, 2, 3) }

// namedDay finds the day re matches in s, re's groups y, m and d holding
// its year, month name and day; the match runs from its first group to
// its third.
func namedDay(re *regexp.Regexp, s string, y, m, d int) (dayMatch, bool) {
	g := re.FindStringSubmatchIndex(s)
	if g == nil {
		return dayMatch{}, false
	}
	num := func(i int) int {
		v, _ := strconv.Atoi(s[g[2*i]:g[2*i+1]])
		return v
	}
	dm := dayMatch{y: num(y), m: monthNames[strings.ToLower(s[g[2*m]:g[2*m+1]])], d: num(d), start: g[2], end: g[7]}
	dm.ok = plausibleYear(dm.y) && dm.d >= 1
	return dm, true
}

// spanEnd reports whether the text before a day ends a span's first day
// ("16-19 March 2026", "3 – 5 May"): an event's days, not the page's date.
func spanEnd(before string) bool {
	b := strings.TrimRight(before, " ")
	for _, dash := range []string{"-", "–", "—"} {
		if rest, ok := strings.CutSuffix(b, dash); ok {
			rest = strings.TrimRight(rest, " ")
			return rest != "" && rest[len(rest)-1] >= '0' && rest[len(rest)-1] <= '9'
		}
	}
	return false
}

// numericDate finds the first numeric date of s that is not a version
// number or a part of a longer figure (versionLike).
func numericDate(s string, o dateOrder) (dayMatch, bool) {
	var g []int
	for _, m := range reNumeric.FindAllStringSubmatchIndex(s, maxNumericTokens) {
		if s[m[4]:m[5]] == s[m[8]:m[9]] && !versionLike(s, m) {
			g = m
			break
		}
	}
	if g == nil {
		return dayMatch{}, false
	}
	a, _ := strconv.Atoi(s[g[2]:g[3]])
	b, _ := strconv.Atoi(s[g[6]:g[7]])
	c, _ := strconv.Atoi(s[g[10]:g[11]])
	y, m, d := numericDay(a, b, c, s[g[4]:g[5]] == "/" && o == slashMonthFirst, g[3]-g[2])
	return dayMatch{y: y, m: time.Month(m), d: d, start: g[0], end: g[1], ok: plausibleYear(y) && m >= 1 && m <= 12 && d >= 1}, true
}

// maxNumericTokens bounds the numeric tokens of a text read for a date.
const maxNumericTokens = 16

// reVersionWord ends a text that names a version, a build or a release
// before its number ("Version 3.8.11", "v 2.10.24", "Build 4.1.12"), in
// en, fr, de, es, it, pt, nl, pl.
var reVersionWord = regexp.MustCompile(`(?:^|[^\p{L}])(?:version|versión|versione|versão|versie|wersja|ver|v|build|release|rev|revision|révision|patch|firmware)\.? ?:? ?$`)

// versionLike reports whether reNumeric's match g of s is a version
// number or a part of a longer figure rather than a date: a version word
// before it, a digit joined to it by a dot, slash or dash on either side
// ("10.2.3.24", "1.2.10.5"), or dots between numbers of which one is of a
// single digit and a year of two ("3.8.11", "8.4.13": a date written
// with dots pads its day and month, "03.08.11", or gives its year whole).
func versionLike(s string, g []int) bool {
	start, end := g[0], g[1]
	if reVersionWord.MatchString(s[max(0, start-12):start]) {
		return true
	}
	if start >= 2 && strings.ContainsRune("./-", rune(s[start-1])) && isDigit(s[start-2]) ||
		end+1 < len(s) && strings.ContainsRune("./-", rune(s[end])) && isDigit(s[end+1]) {
		return true
	}
	return s[g[4]:g[5]] == "." && g[11]-g[10] == 2 && (g[3]-g[2] == 1 || g[7]-g[6] == 1)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// numericDay orders the three numbers of a numeric date: year first when
// the first has four digits, else month first when monthFirst (a slashed
// date on a page that writes them so) and day first otherwise, unless
// that cannot be; a two-digit year is 19xx from 70 on.
func numericDay(a, b, c int, monthFirst bool, firstLen int) (y, m, d int) {
	if firstLen == 4 {
		return a, b, c
	}
	y = fullYear(c)
	m, d = b, a
	if monthFirst && a <= 12 {
		m, d = a, b
	}
	if m > 12 && d <= 12 {
		m, d = d, m
	}
	return y, m, d
}

// fullYear is a year written with two digits or more: 19xx from 70 on,
// 20xx below.
func fullYear(y int) int {
	switch {
	case y >= 100:
		return y
	case y >= 70:
		return 1900 + y
	}
	return 2000 + y
}

// pageOrder is how page s, at pageURL, orders slashed dates: as its own
// dates show when one cannot be read the other way ("28/12/2005"), else
// as the day its URL states shows when a slashed date of the page is that
// day read one way only ("/2023/10/03/" and "03/10/2023"), else as its
// declared locale does: month first in American English and where
// nothing is declared, day first elsewhere.
func pageOrder(s *scan, pageURL string) dateOrder {
	for _, l := range s.lines {
		if o, ok := slashedEvidence(l.text); ok {
			return o
		}
	}
	if o, ok := urlEvidence(s, urlDate(pageURL)); ok {
		return o
	}
	return localeOrder(s.htmlLang)
}

// urlEvidence is the order in which the first of the page's slashed
// dates that is day (as urlDate writes it) read one way is that day.
func urlEvidence(s *scan, day string) (dateOrder, bool) {
	if day == "" {
		return 0, false
	}
	for _, l := range s.lines {
		dayFirst := normalizeDate(l.text, slashDayFirst)
		monthFirst := normalizeDate(l.text, slashMonthFirst)
		switch {
		case dayFirst == monthFirst || !strings.Contains(l.text, "/"):
		case sameDayOf(dayFirst, day):
			return slashDayFirst, true
		case sameDayOf(monthFirst, day):
			return slashMonthFirst, true
		}
	}
	return 0, false
}

// localeOrder is the order of slashed dates of a language tag: month
// first in American English and where nothing is declared, day first
// elsewhere.
func localeOrder(tag string) dateOrder {
	lang, region, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(tag, "_", "-")), "-")
	if lang == "" || lang == "en" && (region == "" || region == "us") {
		return slashMonthFirst
	}
	return slashDayFirst
}

// slashedEvidence is the order a slashed date of text shows, if it can
// be read one way only.
func slashedEvidence(text string) (dateOrder, bool) {
	a, b, ok := slashedPair(text)
	switch {
	case !ok:
		return 0, false
	case dayOnly(a) && b <= 12:
		return slashDayFirst, true
	case dayOnly(b) && a <= 12:
		return slashMonthFirst, true
	}
	return 0, false
}

// slashedPair are the first two numbers of text's first numeric date
// when it is slashed and not year first ("03/10/2023": 3, 10).
func slashedPair(text string) (a, b int, ok bool) {
	if !strings.Contains(text, "/") {
		return 0, 0, false
	}
	g := reNumeric.FindStringSubmatch(text)
	if g == nil || g[2] != "/" || g[4] != "/" || len(g[1]) == 4 {
		return 0, 0, false
	}
	a, _ = strconv.Atoi(g[1])
	b, _ = strconv.Atoi(g[3])
	return a, b, true
}

// dayOnly reports whether n can be a day of the month and not a month.
func dayOnly(n int) bool { return n > 12 && n <= 31 }

// zoneOf returns the location of a zone abbreviation or offset, and whether
// it is known.
func zoneOf(z string) (*time.Location, bool) {
	hours := map[string]int{"UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
		"MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "BST": 1, "CET": 1, "CEST": 2, "MEZ": 1, "MESZ": 2}
	if h, ok := hours[strings.ToUpper(z)]; ok {
		return time.FixedZone(strings.ToUpper(z), h*3600), true
	}
	if off, ok := offsetOf(z); ok {
		return time.FixedZone("", off), true
	}
	return time.UTC, false
}

// offsetOf is the offset in seconds an offset such as "+05:30" or
// "-0800" states.
func offsetOf(z string) (int, bool) {
	if len(z) < 5 || z[0] != '+' && z[0] != '-' {
		return 0, false
	}
	digits := strings.ReplaceAll(z[1:], ":", "")
	hh, err1 := strconv.Atoi(digits[:2])
	mm, err2 := strconv.Atoi(digits[2:])
	if err1 != nil || err2 != nil || hh > 14 || mm >= 60 {
		return 0, false
	}
	off := hh*3600 + mm*60
	if z[0] == '-' {
		off = -off
	}
	return off, true
}
