package pagemeta

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Relative date phrases: a count and a unit with "ago" (en), "il y a"
// (fr), "vor" (de), "hace" (es), "fa" (it), "há" (pt), "geleden" (nl),
// "temu" (pl).
var relativeRes = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(\d+|an?|one)\s+(second|sec|minute|min|hour|hr|day|week|month|year)s?\s+ago`),
	regexp.MustCompile(`(?i)il y a\s+(\d+|une?)\s+(seconde|minute|heure|jour|semaine|mois|an)s?`),
	regexp.MustCompile(`(?i)vor\s+(\d+|einer|einem)\s+(sekunde|minute|stunde|tag|woche|monat|jahr)(?:n|en|e)?\b`),
	regexp.MustCompile(`(?i)hace\s+(\d+|una?)\s+(segundo|minuto|hora|día|dia|semana|mes|año)(?:s|es)?`),
	regexp.MustCompile(`(?i)(\d+|una?)\s+(secondo|secondi|minuto|minuti|ora|ore|giorno|giorni|settimana|settimane|mese|mesi|anno|anni)\s+fa\b`),
	regexp.MustCompile(`(?i)há\s+(\d+|uma?)\s+(segundo|minuto|hora|dia|semana|mês|mes|ano)(?:s|es)?`),
	regexp.MustCompile(`(?i)(\d+|een)\s+(seconde|seconden|minuut|minuten|uur|dag|dagen|week|weken|maand|maanden|jaar)\s+geleden`),
	regexp.MustCompile(`(?i)(\d+)\s+(sekund[ay]?|minut[ay]?|godzin[ay]?|godzinę|dzień|dni|tydzień|tygodni[e]?|miesiąc[ey]?|miesięcy|rok|lat[a]?)\s+temu`),
}

var (
	dayWordRe = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(yesterday|today|hier|aujourd'hui|gestern|heute|ayer|hoy|ieri|oggi|ontem|hoje|gisteren|vandaag|wczoraj|dzisiaj|dziś)(?:[^\p{L}]|$)`)
	clockRe   = regexp.MustCompile(`(?i)(\d{1,2})[:h](\d{2})\s*([ap]\.?m\.?)?`)
)

// unitDur maps a unit word's stem (its first letters, see unitOf) to its
// duration.
var unitDur = map[string]time.Duration{
	"sec": time.Second, "sek": time.Second, "seg": time.Second,
	"min": time.Minute,
	"hou": time.Hour, "hr": time.Hour, "heu": time.Hour, "stu": time.Hour, "hor": time.Hour, "ora": time.Hour, "ore": time.Hour, "uur": time.Hour, "god": time.Hour,
	"day": 24 * time.Hour, "jou": 24 * time.Hour, "tag": 24 * time.Hour, "día": 24 * time.Hour, "dia": 24 * time.Hour, "gio": 24 * time.Hour, "dag": 24 * time.Hour, "dzi": 24 * time.Hour, "dni": 24 * time.Hour,
	"wee": 7 * 24 * time.Hour, "sem": 7 * 24 * time.Hour, "woc": 7 * 24 * time.Hour, "set": 7 * 24 * time.Hour, "tyg": 7 * 24 * time.Hour, "tyd": 7 * 24 * time.Hour,
	"mon": 30 * 24 * time.Hour, "moi": 30 * 24 * time.Hour, "mes": 30 * 24 * time.Hour, "mês": 30 * 24 * time.Hour, "maa": 30 * 24 * time.Hour, "mie": 30 * 24 * time.Hour,
	"yea": 365 * 24 * time.Hour, "an": 365 * 24 * time.Hour, "jah": 365 * 24 * time.Hour, "año": 365 * 24 * time.Hour, "ann": 365 * 24 * time.Hour, "ano": 365 * 24 * time.Hour, "jaa": 365 * 24 * time.Hour, "rok": 365 * 24 * time.Hour, "lat": 365 * 24 * time.Hour,
}

// unitOf is a unit word's duration, by its first three letters ("an",
// "hr" whole).
func unitOf(w string) time.Duration {
	w = strings.ToLower(w)
	if d, ok := unitDur[w]; ok {
		return d
	}
	r := []rune(w)
	if len(r) > 3 {
		r = r[:3]
	}
	return unitDur[string(r)]
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
		t = atClock(t, c)
	}
	return t.Truncate(time.Minute), true
}

// atClock is day t at the time of day of a clockRe match, t itself when
// that time cannot be.
func atClock(t time.Time, c []string) time.Time {
	h, _ := strconv.Atoi(c[1])
	mi, _ := strconv.Atoi(c[2])
	mark := strings.ToLower(c[3]) // "p.m.", "PM", ""
	if mark != "" {
		mark = mark[:1]
	}
	h = hour24(h, mark)
	if h >= 24 || mi >= 60 {
		return t
	}
	return time.Date(t.Year(), t.Month(), t.Day(), h, mi, 0, 0, t.Location())
}

func relativeDay(s string, now time.Time) (time.Time, bool) {
	for _, re := range relativeRes {
		if m := re.FindStringSubmatch(s); m != nil {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				n = 1 // "an hour ago", "il y a une heure", "vor einer Stunde"
			}
			if d := unitOf(m[2]); d > 0 {
				return now.Add(-time.Duration(n) * d), true
			}
		}
	}
	if m := dayWordRe.FindStringSubmatch(s); m != nil {
		switch strings.ToLower(m[1]) {
		case "yesterday", "hier", "gestern", "ayer", "ieri", "ontem", "gisteren", "wczoraj":
			return now.AddDate(0, 0, -1), true
		}
		return now, true
	}
	return time.Time{}, false
}

// ResolveDate normalises a date a page states to ISO 8601 (NormalizeDate),
// resolving relative ones ("7 hours ago", "il y a 3 jours", "vor 2
// Stunden", "hace 2 días", "yesterday at 06:23 pm") against now, whose
// zone the result then carries. "" when s holds no date.
func ResolveDate(s string, now time.Time) string {
	if d := NormalizeDate(s); d != "" {
		return d
	}
	if t, ok := relativeDate(s, now); ok {
		return t.Format(time.RFC3339)
	}
	return ""
}
