package monitor

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Relative date phrases: a count and a unit before "ago", after "il y a"
// or "vor".
var (
	agoRe   = regexp.MustCompile(`(?i)(\d+|an?|one)\s+(second|sec|minute|min|hour|hr|day|week|month|year)s?\s+ago`)
	ilyaRe  = regexp.MustCompile(`(?i)il y a\s+(\d+|une?)\s+(seconde|minute|heure|jour|semaine|mois|an)s?`)
	vorRe   = regexp.MustCompile(`(?i)vor\s+(\d+|einer|einem)\s+(sekunde|minute|stunde|tag|woche|monat|jahr)(n|en|e)?\b`)
	dayRe   = regexp.MustCompile(`(?i)\b(yesterday|today|hier|aujourd'hui|gestern|heute)\b`)
	clockRe = regexp.MustCompile(`(?i)(\d{1,2})[:h](\d{2})\s*([ap]\.?m\.?)?`)
)

var unitDur = map[string]time.Duration{
	"second": time.Second, "sec": time.Second, "seconde": time.Second, "sekunde": time.Second,
	"minute": time.Minute, "min": time.Minute,
	"hour": time.Hour, "hr": time.Hour, "heure": time.Hour, "stunde": time.Hour,
	"day": 24 * time.Hour, "jour": 24 * time.Hour, "tag": 24 * time.Hour,
	"week": 7 * 24 * time.Hour, "semaine": 7 * 24 * time.Hour, "woche": 7 * 24 * time.Hour,
	"month": 30 * 24 * time.Hour, "mois": 30 * 24 * time.Hour, "monat": 30 * 24 * time.Hour,
	"year": 365 * 24 * time.Hour, "an": 365 * 24 * time.Hour, "jahr": 365 * 24 * time.Hour,
}

// relativeDate resolves a relative date against now. A time of day given
// with it ("7 hours ago at 06:23 pm", "yesterday 18:05") sets the clock on
// the resolved day.
func relativeDate(s string, now time.Time) (time.Time, bool) {
	t, ok := relativeDay(s, now)
	if !ok {
		return time.Time{}, false
	}
	if c := clockRe.FindStringSubmatch(s); c != nil {
		h, _ := strconv.Atoi(c[1])
		mi, _ := strconv.Atoi(c[2])
		ampm := strings.ToLower(strings.ReplaceAll(c[3], ".", ""))
		if ampm == "pm" && h < 12 {
			h += 12
		} else if ampm == "am" && h == 12 {
			h = 0
		}
		if h < 24 && mi < 60 {
			t = time.Date(t.Year(), t.Month(), t.Day(), h, mi, 0, 0, t.Location())
		}
	}
	return t.Truncate(time.Minute), true
}

func relativeDay(s string, now time.Time) (time.Time, bool) {
	for _, re := range []*regexp.Regexp{agoRe, ilyaRe, vorRe} {
		if m := re.FindStringSubmatch(s); m != nil {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				n = 1 // "an hour ago", "il y a une heure", "vor einer Stunde"
			}
			return now.Add(-time.Duration(n) * unitDur[strings.ToLower(m[2])]), true
		}
	}
	if m := dayRe.FindStringSubmatch(s); m != nil {
		switch strings.ToLower(m[1]) {
		case "yesterday", "hier", "gestern":
			return now.AddDate(0, 0, -1), true
		}
		return now, true
	}
	return time.Time{}, false
}
