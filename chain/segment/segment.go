package segment

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind classifies a token.
type Kind uint8

// Token kinds. Pre-tagged kinds (URL … Number) are recognised before word
// splitting so that they stay whole.
const (
	Word Kind = iota
	Punct
	Symbol
	URL
	Email
	Date
	Time
	Money
	Measure
	Number
	Abbrev
)

var kindNames = [...]string{"word", "punct", "symbol", "url", "email", "date", "time", "money", "measure", "number", "abbrev"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Pretagged reports whether tokens of kind k were recognised as a unit by a
// pattern (URL, e-mail, date, time, money, measure, number) rather than by
// word splitting.
func (k Kind) Pretagged() bool { return k >= URL && k <= Number }

// Token is one token of a text.
type Token struct {
	Text       string
	Start, End int // byte offsets in the tokenized text
	Kind       Kind
	// SpaceAfter is false when the next token follows without white space
	// (CoNLL-U's SpaceAfter=No).
	SpaceAfter bool
}

// Month names of the supported languages, for date recognition.
const months = `jan(?:uary|vier|uar)?|feb(?:ruary|ruar)?|f[ée]vr(?:ier)?|m[aä]r(?:ch|s|z)?|apr(?:il)?|avr(?:il)?|may|mai|june?|juin|juni|july?|juil(?:let)?|juli|aug(?:ust)?|ao[uû]t|sept?(?:ember|embre)?|o[ck]t(?:ober|obre)?|nov(?:ember|embre)?|d[ée]c(?:ember|embre)?|dez(?:ember)?`

const units = `km/h|km²|m²|m³|cm²|kWh|MWh|GWh|kW|MW|GW|mph|km|cm|mm|nm|µm|mg|kg|Mo|Go|Ko|MB|GB|KB|TB|ml|cl|dl|°C|°F|ha|Hz|kHz|MHz|GHz|mi|ft|lb|lbs|oz|in|%|‰|°|m|g|t|l|L|h|min|s|V|W|A`

const num = `\d{1,3}(?:[ \x{00A0}\x{202F},.]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?`

// Patterns tried, in this order, at the start of each non-space run; each
// is anchored and must end on a token boundary.
var pretags = []struct {
	kind Kind
	re   *regexp.Regexp
}{
	{URL, regexp.MustCompile(`^(?i:(?:https?|ftp)://[^\s<>"]+|www\.[^\s<>"]+\.[^\s<>"]+)`)},
	{Email, regexp.MustCompile(`^[\pL\pN._%+-]+@[\pL\pN-]+(?:\.[\pL\pN-]+)*\.\pL{2,}`)},
	{Date, regexp.MustCompile(`^(?i:\d{4}-\d{1,2}-\d{1,2}(?:T\d{1,2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{1,2}(?:er|st|nd|rd|th)?\.?[ \x{00A0}\x{202F}](?:` + months + `)\.?(?:[ \x{00A0}\x{202F}]\d{4})?|(?:` + months + `)\.?[ \x{00A0}\x{202F}]\d{1,2}(?:st|nd|rd|th)?,?[ \x{00A0}\x{202F}]\d{4})`)},
	{Time, regexp.MustCompile(`^(?i:\d{1,2}(?::\d{2}){1,2}(?:[ \x{00A0}\x{202F}]?[ap]\.?m\.?)?|\d{1,2}[ \x{00A0}\x{202F}]?h[ \x{00A0}\x{202F}]?\d{2}|\d{1,2}[ \x{00A0}\x{202F}]?[ap]\.?m\.)`)},
	{Money, regexp.MustCompile(`^(?:[$€£¥][ \x{00A0}\x{202F}]?(?:` + num + `)(?:[ \x{00A0}\x{202F}]?(?:[mb]n|k|M|Md|bn|billion|million)\b)?|(?:` + num + `)[ \x{00A0}\x{202F}]?(?:[$€£¥]|(?i:EUR|USD|GBP|CHF|euros?|dollars?|francs?)\b)|(?:EUR|USD|GBP|CHF)[ \x{00A0}\x{202F}]?(?:` + num + `))`)},
	{Measure, regexp.MustCompile(`^(?:` + num + `)[ \x{00A0}\x{202F}]?(?:` + units + `)`)},
	{Number, regexp.MustCompile(`^(?:[+-]?(?:` + num + `)(?:er|ère|e|ème|st|nd|rd|th)?)`)},
}

// Elided French words: "l'" in "l'homme" is a token of its own.
var elisions = map[string]bool{
	"l": true, "d": true, "j": true, "m": true, "n": true, "s": true, "t": true, "c": true,
	"qu": true, "jusqu": true, "lorsqu": true, "puisqu": true, "quoiqu": true, "presqu": true,
}

// French pronouns joined to a verb by a hyphen, longest first.
var frenchClitics = []string{"-t-elles", "-t-elle", "-t-ils", "-t-il", "-t-on", "-elles", "-elle", "-ils", "-il", "-on",
	"-je", "-tu", "-nous", "-vous", "-moi", "-toi", "-les", "-lui", "-leur", "-le", "-la", "-y", "-en", "-ce"}

// English clitics split off the end of a word.
var clitics = []string{"n't", "'s", "'re", "'ve", "'ll", "'d", "'m"}

// Tokenize splits text into tokens for language lang ("en", "fr", "de"; ""
// applies the rules of every language).
func Tokenize(text, lang string) []Token {
	var toks []Token
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if isSeparator(r, size) {
			if len(toks) > 0 {
				toks[len(toks)-1].SpaceAfter = true
			}
			i += size
			continue
		}
		if n, k := pretag(text, i); n > 0 {
			toks = append(toks, Token{Text: text[i : i+n], Start: i, End: i + n, Kind: k})
			i += n
			continue
		}
		if isWordRune(r) {
			n := wordLen(text[i:])
			toks = appendWord(toks, text, i, i+n, lang)
			i = max(i+n, toks[len(toks)-1].End)
			continue
		}
		n := punctLen(text[i:], r, size)
		k := Punct
		if unicode.IsSymbol(r) {
			k = Symbol
		}
		toks = append(toks, Token{Text: text[i : i+n], Start: i, End: i + n, Kind: k})
		i += n
	}
	return toks
}

// isSeparator reports whether the rune r (size bytes long) separates
// tokens: a space, a control character, a zero-width space or an invalid
// byte.
func isSeparator(r rune, size int) bool {
	return unicode.IsSpace(r) || r == utf8.RuneError && size == 1 || unicode.IsControl(r) || r == '\u200b'
}

// punctLen is the length of the punctuation token at the start of s, whose
// first rune r is size bytes long: runs of the same stop (..., !!, ?!) stay
// together.
func punctLen(s string, r rune, size int) int {
	n := size
	if r == '.' || r == '!' || r == '?' {
		for n < len(s) && strings.ContainsRune(".!?", rune(s[n])) {
			n++
		}
	}
	return n
}

// pretag returns the length and kind of a pre-tagged unit starting at i.
func pretag(text string, i int) (int, Kind) {
	if i > 0 {
		// Only at a token start: not inside a word (a1b2) or after a digit.
		r, _ := utf8.DecodeLastRuneInString(text[:i])
		if isWordRune(r) {
			return 0, 0
		}
	}
	rest := text[i:]
	if len(rest) > 512 {
		rest = rest[:512]
	}
	c := cuesOf(rest)
	if !c.any() {
		return 0, 0
	}
	for _, p := range pretags {
		if !c.allow(p.kind) {
			continue
		}
		if n := pretagLen(p.kind, p.re, rest); n > 0 {
			return n, p.kind
		}
	}
	return 0, 0
}

// pretagCues are cheap tests of the text at a token start that say which
// patterns could match there: most tokens are plain words that no pattern
// can match, and running every pattern at every word is slow.
type pretagCues struct {
	digit, money, url, email, month bool
}

// cuesOf tests the text rest at a token start.
func cuesOf(rest string) pretagCues {
	r, _ := utf8.DecodeRuneInString(rest)
	run := rest
	if j := strings.IndexFunc(rest, unicode.IsSpace); j >= 0 {
		run = rest[:j]
	}
	c := pretagCues{
		digit: r >= '0' && r <= '9' || r == '+' || r == '-',
		money: moneyStart(rest, r),
		url:   hasPrefixFold(rest, "http") || hasPrefixFold(rest, "ftp") || hasPrefixFold(rest, "www."),
		email: strings.Contains(run, "@"),
	}
	c.month = !c.digit && monthStart(run)
	return c
}

// moneyStart reports whether rest, whose first rune is r, starts with a
// currency sign or code.
func moneyStart(rest string, r rune) bool {
	return strings.ContainsRune("$€£¥", r) || strings.HasPrefix(rest, "EUR") || strings.HasPrefix(rest, "USD") ||
		strings.HasPrefix(rest, "GBP") || strings.HasPrefix(rest, "CHF")
}

// any reports whether some pattern could match.
func (c pretagCues) any() bool {
	return c.digit || c.money || c.url || c.email || c.month
}

// allow reports whether the pattern of kind could match.
func (c pretagCues) allow(kind Kind) bool {
	switch kind {
	case URL:
		return c.url
	case Email:
		return c.email
	case Date:
		return c.digit || c.month
	case Money:
		return c.digit || c.money
	}
	return c.digit
}

// pretagLen is the length of the unit of kind that re finds at the start
// of rest, 0 if none ends on a token boundary. A URL gives back trailing
// punctuation, a number its trailing separators.
func pretagLen(kind Kind, re *regexp.Regexp, rest string) int {
	loc := re.FindStringIndex(rest)
	if loc == nil {
		return 0
	}
	n := loc[1]
	if kind == URL {
		n = len(strings.TrimRight(rest[:n], ".,;:!?)]}'\"»”’"))
	}
	if kind == Number || kind == Measure || kind == Money {
		n = trimSeparators(rest, n)
	}
	if n == 0 || !boundaryAt(rest, n) {
		return 0
	}
	return n
}

// trimSeparators gives back the trailing separators of the number
// s[:n]: 1,2,3 lists and a trailing thousands separator are not part of
// the number.
func trimSeparators(s string, n int) int {
	for n > 0 && strings.ContainsRune(",. ", rune(s[n-1])) {
		n--
	}
	return n
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// monthStart reports whether word starts like a month name of a supported
// language (for dates written "May 3, 2024").
func monthStart(word string) bool {
	if len(word) < 3 {
		return false
	}
	w := strings.ToLower(word)
	for _, m := range monthPrefixes {
		if strings.HasPrefix(w, m) {
			return true
		}
	}
	return false
}

var monthPrefixes = []string{"jan", "feb", "fév", "fev", "mar", "mär", "apr", "avr", "may", "mai", "jun", "jui", "jul",
	"aug", "aoû", "aou", "sep", "oct", "okt", "nov", "dec", "déc", "dez"}

// boundaryAt reports whether a token may end at s[:n]: the next rune is not
// a letter or digit.
func boundaryAt(s string, n int) bool {
	if n >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[n:])
	return !isWordRune(r)
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// wordLen is the length of the word at the start of s: word runes joined by
// single internal apostrophes, hyphens and (for abbreviations like z.B.,
// U.S.) dots between single letters.
func wordLen(s string) int {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if isWordRune(r) {
			i += size
			continue
		}
		if isApostrophe(r) || r == '-' || r == '‐' {
			r2, _ := utf8.DecodeRuneInString(s[i+size:])
			if i+size < len(s) && isWordRune(r2) {
				i += size
				continue
			}
		}
		break
	}
	return i
}

// appendWord appends the word text[start:end], split at clitics and
// elisions, and extended with a final dot when it is an abbreviation.
func appendWord(toks []Token, text string, start, end int, lang string) []Token {
	if tok, ok := abbreviationAt(text, start, end, lang); ok {
		return append(toks, tok)
	}
	if lang == "fr" || lang == "" {
		if out, ok := splitElision(toks, text, start, end, lang); ok {
			return out
		}
		if out, ok := splitFrenchClitic(toks, text, start, end, lang); ok {
			return out
		}
	}
	if lang == "en" || lang == "" {
		if out, ok := splitEnglishClitic(toks, text[start:end], start, end); ok {
			return out
		}
	}
	return append(toks, Token{Text: text[start:end], Start: start, End: end, Kind: Word})
}

// abbreviationAt returns the abbreviation token of the word text[start:end]:
// a dotted one (U.S., z.B., e.g., p.ex.) or a known abbreviation of lang
// followed by its dot.
func abbreviationAt(text string, start, end int, lang string) (Token, bool) {
	w := text[start:end]
	if m := dotted.FindString(text[start:]); m != "" && len(m) > len(w) && boundaryAt(text[start:], len(m)) {
		return Token{Text: m, Start: start, End: start + len(m), Kind: Abbrev}, true
	}
	if end < len(text) && text[end] == '.' && IsAbbreviation(w, lang) {
		return Token{Text: text[start : end+1], Start: start, End: end + 1, Kind: Abbrev}, true
	}
	return Token{}, false
}

// splitElision splits a French elided word (l'homme -> l' homme) and
// reports whether the word had one.
func splitElision(toks []Token, text string, start, end int, lang string) ([]Token, bool) {
	w := text[start:end]
	j := strings.IndexAny(w, "'’")
	if j <= 0 || !elisions[strings.ToLower(w[:j])] {
		return toks, false
	}
	_, size := utf8.DecodeRuneInString(w[j:])
	toks = append(toks, Token{Text: w[:j+size], Start: start, End: start + j + size, Kind: Word})
	return appendWord(toks, text, start+j+size, end, lang), true
}

// splitFrenchClitic splits an inverted clitic pronoun off a French verb
// (est-il -> est -il, a-t-il -> a -t-il) and reports whether there was one.
func splitFrenchClitic(toks []Token, text string, start, end int, lang string) ([]Token, bool) {
	w := text[start:end]
	low := strings.ToLower(w)
	if low == "rendez-vous" || low == "c'est-à-dire" {
		return toks, false
	}
	for _, c := range frenchClitics {
		if strings.HasSuffix(low, c) && len(low) > len(c) {
			cut := len(w) - len(c)
			toks = appendWord(toks, text, start, start+cut, lang)
			return append(toks, Token{Text: w[cut:], Start: start + cut, End: end, Kind: Word}), true
		}
	}
	return toks, false
}

// splitEnglishClitic splits an English clitic off the word w
// (don't -> do n't) and reports whether there was one.
func splitEnglishClitic(toks []Token, w string, start, end int) ([]Token, bool) {
	low := strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	for _, c := range clitics {
		if strings.HasSuffix(low, c) && len(low) > len(c) {
			cut := len(w) - len(c)
			if strings.Contains(w[cut:], "’") {
				cut = len(w) - (len(c) + len("’") - 1)
			}
			toks = append(toks, Token{Text: w[:cut], Start: start, End: start + cut, Kind: Word})
			return append(toks, Token{Text: w[cut:], Start: start + cut, End: end, Kind: Word}), true
		}
	}
	return toks, false
}

var dotted = regexp.MustCompile(`^(?:\pL{1,4}\.){2,}`)

// Sentences groups tokens into sentences (each a sub-slice of toks). text is
// the string the tokens were cut from: a line break between two tokens ends
// a sentence.
func Sentences(toks []Token, text, lang string) [][]Token {
	var out [][]Token
	start := 0
	for i := 0; i < len(toks); i++ {
		if last, end := sentenceEnd(toks, i, text); end {
			out = append(out, toks[start:last+1])
			start = last + 1
			i = last
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}

// sentenceEnd reports whether a sentence ends at toks[i], and after which
// token: at a line break after it, or after a stop and the closing quotes
// and brackets that stay with it, when what follows can start a sentence.
func sentenceEnd(toks []Token, i int, text string) (last int, end bool) {
	if i+1 < len(toks) && strings.ContainsRune(text[toks[i].End:toks[i+1].Start], '\n') {
		return i, true
	}
	if !isStop(toks[i]) {
		return i, false
	}
	j := afterClosers(toks, i+1)
	if j >= len(toks) || canStart(toks[j]) {
		return j - 1, true
	}
	return i, false
}

// afterClosers returns the index of the first token from toks[j] on that
// is not a closing quote or bracket staying with the sentence before it:
// one written against it, or a closing guillemet or bracket.
func afterClosers(toks []Token, j int) int {
	for j < len(toks) && isCloser(toks[j].Text) && (!toks[j-1].SpaceAfter || strings.Contains("»”)]", toks[j].Text)) {
		j++
	}
	return j
}

func isStop(t Token) bool {
	if t.Kind == Abbrev {
		// An abbreviation ends a sentence only if it is one that often
		// closes one (etc., usw.); titles (Mr., Dr.) never do.
		return sentenceFinalAbbrev[strings.ToLower(t.Text)]
	}
	return t.Kind == Punct && (strings.ContainsAny(t.Text, ".!?") || t.Text == "…")
}

func isCloser(s string) bool { return strings.Contains(`"')]}»”’`, s) && s != "" }

// canStart reports whether t can begin a sentence.
func canStart(t Token) bool {
	r, _ := utf8.DecodeRuneInString(t.Text)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune(`"'(«“‘¿¡-–—`, r) || t.Kind.Pretagged()
}
