package singlepage

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gleaner/gleaner/treediff"
)

// looksLikeCode reports text that is script or markup shown as text (a
// script the page hid from old parsers, an ad's escaped HTML): escaped
// tags, or many of the characters code is made of ({ } ; = < > \) for its
// length. Brackets and pipes count half and never alone: prose uses them
// too ("(nyse: AMD - news - people)").
func looksLikeCode(s string) bool {
	if strings.Contains(s, "<a href") || strings.Contains(s, "<img ") || strings.Contains(s, "<script") {
		return true
	}
	strong, weak, letters := 0, 0, 0
	for _, r := range s {
		switch r {
		case '{', '}', ';', '=', '<', '>', '\\':
			strong++
		case '(', ')', '[', ']', '|', '+', '&':
			weak++
		default:
			if unicode.IsLetter(r) {
				letters++
			}
		}
	}
	return strong >= 3 && float64(strong)+0.5*float64(weak) > 0.04*float64(letters)
}

// dateWords are the words a dateline or timestamp line is made of.
var dateWords = map[string]bool{
	"jan": true, "january": true, "feb": true, "february": true, "mar": true, "march": true,
	"apr": true, "april": true, "may": true, "jun": true, "june": true, "jul": true, "july": true,
	"aug": true, "august": true, "sep": true, "sept": true, "september": true, "oct": true,
	"october": true, "nov": true, "november": true, "dec": true, "december": true,
	"mon": true, "monday": true, "tue": true, "tuesday": true, "wed": true, "wednesday": true,
	"thu": true, "thursday": true, "fri": true, "friday": true, "sat": true, "saturday": true,
	"sun": true, "sunday": true, "am": true, "pm": true, "et": true, "est": true, "edt": true,
	"pt": true, "pst": true, "pdt": true, "gmt": true, "bst": true, "utc": true, "cet": true,
	"updated": true, "posted": true, "published": true, "last": true, "modified": true,
	"at": true, "on": true, "date": true, "time": true,
}

// boilerLines are whole short lines that label page furniture rather than
// say anything.
var boilerLines = map[string]bool{
	"advertisement": true, "advertising": true, "sponsored": true, "ad": true,
	"story continues below": true, "continue reading": true, "continued": true,
	"read more": true, "more": true, "print": true, "email": true, "share": true,
	"share this": true, "comments": true, "related": true, "related stories": true,
	"see also": true, "photos": true, "video": true, "close": true,
}

// isBoilerLine reports short blocks that are bylines, datelines or labels:
// "By Jane Doe, Staff Writer", "Posted: 2:51 pm March 12, 2009",
// "ADVERTISEMENT".
func isBoilerLine(b *block) bool {
	if b.words > 25 {
		return false
	}
	ws := treediff.Words(b.text)
	if isByline(b.text, ws) {
		return true
	}
	if b.words > 16 {
		return false
	}
	if boilerLines[strings.ToLower(strings.Trim(b.text, " .:|-–—»›>"))] {
		return true
	}
	return mostlyDate(ws)
}

// isByline reports "By Jane Doe, AP Writer Fri Sep 2" but not "By Friday,
// the storm had passed.": a byline does not end as a sentence. ws are
// text's words.
func isByline(text string, ws []treediff.Word) bool {
	if len(ws) < 2 {
		return false
	}
	first := strings.ToLower(ws[0].Text)
	return (first == "by" || first == "from") && startsUpper(ws[1].Text) && !strings.HasSuffix(strings.TrimSpace(text), ".")
}

// mostlyDate reports a line of three words or more, most of them date
// words or numbers (a dateline).
func mostlyDate(ws []treediff.Word) bool {
	dates := 0
	for _, w := range ws {
		t := strings.ToLower(w.Text)
		if dateWords[t] || isDigits(t) {
			dates++
		}
	}
	return len(ws) >= 3 && float64(dates) >= 0.7*float64(len(ws))
}

func startsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// sentenceLike reports a short block that reads as a sentence of the
// article ("Work starts next spring."): a few words, no link, ending as
// sentences end. Inside the article's span it is kept even when a box of
// links separates it from the paragraphs around.
func sentenceLike(b *block) bool {
	if b.class == classBad || b.heading > 0 || b.linkWords > 0 || b.words < minSentenceWords {
		return false
	}
	return endsSentence(b.text)
}

// minSentenceWords is the least words of a full sentence (sentenceLike).
const minSentenceWords = 5

// endsSentence reports text that ends as a sentence does.
func endsSentence(text string) bool {
	t := strings.TrimRight(text, " ")
	return strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "?") ||
		strings.HasSuffix(t, ".\"") || strings.HasSuffix(t, ".”") || strings.HasSuffix(t, "?\"")
}

// isLegal reports a copyright or legal notice: "© 2005 The Associated
// Press. All rights reserved. This material may not be published…".
func isLegal(b *block) bool {
	if b.words > 60 {
		return false
	}
	low := strings.ToLower(b.text)
	return strings.Contains(low, "©") || strings.Contains(low, "all rights reserved") ||
		strings.HasPrefix(low, "copyright") || strings.HasPrefix(low, "(c) ")
}

// NormWords is s's lower-cased words joined by single spaces.
func NormWords(s string) string {
	ws := treediff.Words(s)
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = strings.ToLower(w.Text)
	}
	return strings.Join(parts, " ")
}

// gapBefore reports whether inline element n, entered in t's text, starts
// where the text of its previous sibling element ends with no space
// between them: "<span>Brand</span><span>Model 10</span>",
// "<b>Price</b><span>24 dollars</span>". A page's style sets such boxes
// apart (a product's brand above its name, a label beside its value); read
// as they are written, their words run together. A single letter before
// (a drop cap: "<b>T</b><span>he</span>") and text that is the element's
// sibling ("link<a>s</a>") are one word, read as written.
func gapBefore(t *treediff.Tree, n *treediff.Node) bool {
	if n.Kind != treediff.Element || treediff.IsBlock(n.Label) || n.Index == 0 || n.Index >= len(t.Nodes) || t.Nodes[n.Index] != n {
		return false
	}
	prev := t.Nodes[n.Index-1] // the previous sibling's last descendant, or n's parent
	if prev.Kind != treediff.Text || prev.Parent == n.Parent || prev == n.Parent {
		return false
	}
	if !endsWord(prev.Label) || midWord(prev.Label, firstText(t, n)) {
		return false
	}
	for a, k := prev.Parent, 0; a != nil && a != n.Parent; a, k = a.Parent, k+1 {
		if treediff.IsBlock(a.Label) || k > 64 {
			return false // a block ended: its text is a block of its own
		}
	}
	return true
}

// firstText is the text of the first text node under n, within a few
// nodes of it ("" if none).
func firstText(t *treediff.Tree, n *treediff.Node) string {
	for i := n.Index + 1; i < len(t.Nodes) && i <= n.Index+16 && t.Nodes[i].Depth > n.Depth; i++ {
		if c := t.Nodes[i]; c.Kind == treediff.Text && strings.TrimSpace(c.Label) != "" {
			return c.Label
		}
	}
	return ""
}

// midWord reports a boundary that is no gap between two words: not a
// letter or digit on each side (punctuation: "an app<span>.</span>"), a
// lower-case letter on both sides ("an<span>d</span>"), or a script
// written without spaces between words (Chinese, Japanese, Thai…).
func midWord(before, after string) bool {
	r, _ := utf8.DecodeLastRuneInString(before)
	a, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(after, unicode.IsSpace))
	if !wordRune(r) || !wordRune(a) {
		return true
	}
	return unicode.IsLower(r) && unicode.IsLower(a) || noSpaces(r) || noSpaces(a)
}

// wordRune reports a letter or a digit.
func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// noSpaces reports a letter of a script that does not set words apart
// with spaces.
func noSpaces(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// endsWord reports text that ends with no space on a word of two
// characters or more: a single letter after a space or alone is the
// start of a word styled apart ("sustainably made: <span>p</span>roducts").
func endsWord(s string) bool {
	r, size := utf8.DecodeLastRuneInString(s)
	if size == 0 || unicode.IsSpace(r) {
		return false
	}
	last := s[strings.LastIndexFunc(s, unicode.IsSpace)+1:]
	return utf8.RuneCountInString(last) >= 2
}
