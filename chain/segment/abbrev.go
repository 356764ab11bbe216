package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Abbreviations (lower case, without the final dot) per language. A word of
// these followed by a dot keeps the dot and does not end a sentence.
var abbreviations = map[string][]string{
	"en": {"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "inc", "ltd", "co", "corp",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
		"vol", "fig", "approx", "dept", "gen", "gov", "lt", "col", "sgt", "rev", "ave", "blvd", "mt"},
	"fr": {"m", "mm", "mme", "mmes", "mlle", "mlles", "dr", "pr", "me", "mgr", "st", "ste", "etc", "cf", "p", "pp",
		"av", "bd", "janv", "févr", "fév", "avr", "juil", "sept", "oct", "nov", "déc", "env",
		"vol", "chap", "éd", "ex", "resp", "tél", "hab"},
	"de": {"z", "bzw", "ca", "usw", "vgl", "dr", "prof", "hr", "fr", "nr", "str", "etc", "evtl", "ggf", "inkl",
		"jh", "jhd", "gegr", "mio", "mrd", "tsd", "abs", "bsp", "geb", "gest", "u", "o", "s", "sog", "zzgl", "dt",
		"jan", "feb", "febr", "mär", "apr", "aug", "sept", "okt", "nov", "dez"},
}

// sentenceFinalAbbrev lists abbreviations that often close a sentence; a
// capitalised word after them starts a new one.
var sentenceFinalAbbrev = map[string]bool{
	"etc.": true, "usw.": true, "inc.": true, "ltd.": true, "corp.": true, "co.": true,
	"u.s.": true, "u.k.": true, "e.u.": true, "bzw.": true, "jh.": true, "jhd.": true,
}

var abbrevSet = func() map[string]map[string]bool {
	m := map[string]map[string]bool{"": {}}
	for lang, words := range abbreviations {
		m[lang] = map[string]bool{}
		for _, w := range words {
			m[lang][w] = true
			m[""][w] = true
		}
	}
	return m
}()

// IsAbbreviation reports whether word (without its dot) is an abbreviation
// in lang ("" for any supported language). A single capital letter is one
// (an initial: J. K. Rowling).
func IsAbbreviation(word, lang string) bool {
	if r, size := utf8.DecodeRuneInString(word); size == len(word) && unicode.IsUpper(r) {
		return true
	}
	set, ok := abbrevSet[lang]
	if !ok {
		set = abbrevSet[""]
	}
	return set[strings.ToLower(word)]
}
