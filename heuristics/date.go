package heuristics

import (
	"regexp"
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
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	if t, p, ok := parseLayouts(s); ok {
		return formatDate(t, p)
	}
	return textualDate(s)
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
		// time.Parse reads a zone abbreviation it does not know as UTC+0
		// under that name: look it up, else the offset is unknown.
		name, off := t.Zone()
		if !l.prec.zone || off != 0 || name == "UTC" || name == "GMT" || name == "" {
			return t, l.prec, true
		}
		p := l.prec
		loc, known := zoneOf(name)
		p.zone = known
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc), p, true
	}
	return time.Time{}, precision{}, false
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
	monthNames = map[string]time.Month{}
	reMonthDay = regexp.MustCompile(`(?i)\b(` + monthPattern() + `)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b`)
	reDayMonth = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\.? (?:of )?(` + monthPattern() + `)\.?,? (\d{4})\b`)
	reNumeric  = regexp.MustCompile(`\b(\d{1,4})([/.-])(\d{1,2})([/.-])(\d{2,4})\b`)
	reClock    = regexp.MustCompile(`(?i)\b(\d{1,2}):(\d{2})(?::(\d{2}))?(?: ?([ap])\.?m\.?)?(?: ?([A-Z]{2,4}|[+-]\d{2}:?\d{2}|Z)\b)?`)
)

func init() {
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		monthNames[name] = m
		monthNames[name[:3]] = m
	}
	monthNames["sept"] = time.September
}

func monthPattern() string {
	return "january|february|march|april|may|june|july|august|september|october|november|december|" +
		"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
}

// textualDate finds a date written out in s, and a time after it.
func textualDate(s string) string {
	y, m, d, end, ok := findDay(s)
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
	hh, _ := strconv.Atoi(c[1])
	mm, _ := strconv.Atoi(c[2])
	ss, _ := strconv.Atoi(c[3])
	switch strings.ToLower(c[4]) {
	case "p":
		if hh < 12 {
			hh += 12
		}
	case "a":
		if hh == 12 {
			hh = 0
		}
	}
	if hh > 23 || mm > 59 || ss > 59 {
		return formatDate(t, precision{})
	}
	loc, known := zoneOf(c[5])
	return formatDate(time.Date(y, m, d, hh, mm, ss, 0, loc), precision{time: true, seconds: c[3] != "", zone: known})
}

// findDay finds a day written out in s: its year, month, day and where its
// text ends.
func findDay(s string) (int, time.Month, int, int, bool) {
	if g := reMonthDay.FindStringSubmatchIndex(s); g != nil {
		d, _ := strconv.Atoi(s[g[4]:g[5]])
		y, _ := strconv.Atoi(s[g[6]:g[7]])
		return y, monthNames[strings.ToLower(s[g[2]:g[3]])], d, g[1], plausibleYear(y) && d >= 1
	}
	if g := reDayMonth.FindStringSubmatchIndex(s); g != nil {
		d, _ := strconv.Atoi(s[g[2]:g[3]])
		y, _ := strconv.Atoi(s[g[6]:g[7]])
		return y, monthNames[strings.ToLower(s[g[4]:g[5]])], d, g[1], plausibleYear(y) && d >= 1
	}
	g := reNumeric.FindStringSubmatchIndex(s)
	if g == nil || s[g[4]:g[5]] != s[g[8]:g[9]] {
		return 0, 0, 0, 0, false
	}
	a, _ := strconv.Atoi(s[g[2]:g[3]])
	b, _ := strconv.Atoi(s[g[6]:g[7]])
	c, _ := strconv.Atoi(s[g[10]:g[11]])
	y, m, d := numericDay(a, b, c, s[g[4]:g[5]], g[3]-g[2])
	return y, time.Month(m), d, g[1], plausibleYear(y) && m >= 1 && m <= 12 && d >= 1
}

// numericDay orders the three numbers of a numeric date: year first when
// the first has four digits, else month first with "/" and day first with
// "." or "-" unless that cannot be; a two-digit year is 19xx from 70 on.
func numericDay(a, b, c int, sep string, firstLen int) (y, m, d int) {
	if firstLen == 4 {
		return a, b, c
	}
	y = c
	if y < 100 {
		y += 2000
		if c >= 70 {
			y = 1900 + c
		}
	}
	m, d = a, b
	if sep != "/" || a > 12 {
		m, d = b, a
	}
	if m > 12 && d <= 12 {
		m, d = d, m
	}
	return y, m, d
}

// zoneOf returns the location of a zone abbreviation or offset, and whether
// it is known.
func zoneOf(z string) (*time.Location, bool) {
	hours := map[string]int{"UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
		"MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "BST": 1, "CET": 1, "CEST": 2}
	if h, ok := hours[strings.ToUpper(z)]; ok {
		return time.FixedZone(strings.ToUpper(z), h*3600), true
	}
	if len(z) >= 5 && (z[0] == '+' || z[0] == '-') {
		digits := strings.ReplaceAll(z[1:], ":", "")
		hh, err1 := strconv.Atoi(digits[:2])
		mm, err2 := strconv.Atoi(digits[2:])
		if err1 == nil && err2 == nil && hh <= 14 && mm < 60 {
			off := hh*3600 + mm*60
			if z[0] == '-' {
				off = -off
			}
			return time.FixedZone("", off), true
		}
	}
	return time.UTC, false
}
