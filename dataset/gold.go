package dataset

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/gleaner/gleaner/store"
)

// DecodeGold decodes the bytes of a gold file: UTF-8 when they are valid
// UTF-8 (a byte order mark is dropped), else windows-1252. The five bytes
// windows-1252 leaves undefined become the C1 controls of the same value, as
// browsers decode them (WHATWG), so no byte is lost. Line ends become "\n".
func DecodeGold(b []byte) string {
	s := strings.TrimPrefix(string(b), "\uFEFF")
	if !utf8.ValidString(s) {
		var d strings.Builder
		d.Grow(len(s) + len(s)/8)
		for i := 0; i < len(s); i++ {
			r := charmap.Windows1252.DecodeByte(s[i])
			if r == utf8.RuneError {
				r = rune(s[i])
			}
			d.WriteRune(r)
		}
		s = d.String()
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// ParseGold splits a decoded gold text into its title, the first non-blank
// line, and its body, the rest. Text keeps the whole annotation, trimmed.
func ParseGold(text string) store.Gold {
	text = strings.TrimSpace(text)
	g := store.Gold{Text: text}
	title, body, _ := strings.Cut(text, "\n")
	g.Title = strings.TrimSpace(title)
	g.Body = strings.TrimSpace(body)
	return g
}
