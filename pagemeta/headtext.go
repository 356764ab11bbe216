package pagemeta

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// cleanHeadline is a headline as a reader sees it: UTF-8 that was read
// as Latin-1 or Windows-1252 repaired ("Investorâ\u0080\u0099s" ->
// "Investor’s"), the characters that do not show dropped, and without a
// trailing pilcrow, the permalink documentation generators put at the
// end of each heading ("Quickstart¶"): on the wcxb-dev documentation
// pages, 13 headlines ended with one, no gold title does.
func cleanHeadline(h string) string {
	h = halfWidth(invisible.Replace(repairMojibake(h)))
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(h), "¶"))
}

// halfWidth writes the full-width forms of ASCII characters ("Work？")
// as their plain forms in a headline of no Chinese, Japanese or Korean
// script, where they are an input method's slip, not the title's
// spelling; a CJK headline keeps its full-width punctuation.
func halfWidth(h string) string {
	if !strings.ContainsFunc(h, isFullWidth) || strings.ContainsFunc(h, isCJK) {
		return h
	}
	return strings.Map(func(r rune) rune {
		if isFullWidth(r) {
			return r - 0xFEE0
		}
		return r
	}, h)
}

// isFullWidth reports whether r is the full-width form of an ASCII
// character (U+FF01 to U+FF5E).
func isFullWidth(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }

// isCJK reports whether r is of a Chinese, Japanese or Korean script.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// invisible drops the characters that do not show in a headline: a byte
// order mark, zero-width spaces and joiners, soft hyphens ("B\ufeffest").
var invisible = strings.NewReplacer("\ufeff", "", "\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\u00ad", "")

// repairMojibake undoes text encoded as UTF-8 twice (its bytes read as
// Latin-1 or Windows-1252, then written as UTF-8): s unchanged unless
// every character of it is one such byte and the bytes they stand for
// are valid UTF-8 holding a character beyond ASCII. A text really
// written in Latin-1 ("Café") is no valid UTF-8 once its bytes are read
// back, and stays.
func repairMojibake(s string) string {
	b := make([]byte, 0, len(s))
	wide := false
	for _, r := range s {
		c, ok := latinByte(r)
		if !ok {
			return s
		}
		wide = wide || c >= 0x80
		b = append(b, c)
	}
	if !wide || !utf8.Valid(b) {
		return s
	}
	return string(b)
}

// latinByte is the byte that rune r stands for in Latin-1 (C1 controls
// included) or Windows-1252.
func latinByte(r rune) (byte, bool) {
	if r < 0x100 {
		return byte(r), true
	}
	if c, ok := charmap.Windows1252.EncodeRune(r); ok {
		return c, true
	}
	return 0, false
}

// reSourceHost is a headline's last part naming the site a link
// aggregator's story points to, and the count of its comments after it
// ("Grads find fewer jobs (example.com) 87"): the listing's annotation,
// not the story's title, which no domain name ends.
var reSourceHost = regexp.MustCompile(`\s*\((?:[a-z0-9-]+\.)+[a-z]{2,}\)(?:\s+[0-9][0-9,]*)?$`)

// withoutSourceHost is h without a last part naming a linked site, when
// a title remains.
func withoutSourceHost(h string) string {
	if loc := reSourceHost.FindStringIndex(h); loc != nil && loc[0] > 0 {
		return h[:loc[0]]
	}
	return h
}
