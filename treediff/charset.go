package treediff

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gogs/chardet"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// ErrBinary is wrapped by errors about a source that is not text (NUL
// bytes, control characters): its "body" would be garbage.
var ErrBinary = errors.New("binary data, not text")

// ErrCharset is wrapped by errors about an unknown forced charset.
var ErrCharset = errors.New("unknown charset")

// Decode turns the raw bytes of a page into UTF-8 text. The order is:
//
//  1. a byte order mark (UTF-8, UTF-16);
//  2. UTF-16 without BOM, told by the NUL bytes of its ASCII markup at
//     every other position;
//  3. valid UTF-8 (pages often declare ISO-8859-1 yet are UTF-8);
//  4. a source with many NUL or control bytes: ErrBinary;
//  5. the charset of contentType, else a <meta> charset in the first 1024
//     bytes: a declared UTF-8 is decoded as UTF-8 replacing only the invalid
//     bytes with U+FFFD; another multi-byte or non-Latin charset is used
//     as declared;
//  6. mostly valid UTF-8 (at least four valid multi-byte sequences per
//     invalid byte): UTF-8, replacing the invalid bytes;
//  7. undeclared: Shift_JIS, EUC-JP, GB18030, Big5 or EUC-KR when the
//     detector (github.com/gogs/chardet, ICU's statistics) is sure of one
//     and it decodes the bytes without error;
//  8. windows-1252 (which is also what ISO-8859-1 means on the web).
//
// It returns the text and the name of the encoding used.
func Decode(src []byte, contentType string) (string, string, error) {
	switch {
	case bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}):
		return checkText(string(src[3:]), "utf-8")
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		return decodeWith(unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), src, "utf-16be")
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return decodeWith(unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), src, "utf-16le")
	}
	if enc, name := sniffUTF16(src); enc != nil {
		return decodeWith(enc, src, name)
	}
	if utf8.Valid(src) {
		return checkText(string(src), "utf-8")
	}
	if err := checkBytes(src); err != nil {
		return "", "", err
	}
	return decodeLegacy(src, contentType)
}

// decodeLegacy decodes src, neither UTF-16 nor valid UTF-8, as Decode's
// steps 5 to 8 say: the declared charset, mostly valid UTF-8, a detected
// CJK charset, windows-1252.
func decodeLegacy(src []byte, contentType string) (string, string, error) {
	enc, name := declaredEncoding(src, contentType)
	switch {
	case name == "utf-8":
		return decodeWith(unicode.UTF8, src, name)
	case enc != nil && !latin(name):
		return decodeWith(enc, src, name)
	case mostlyUTF8(src):
		return decodeWith(unicode.UTF8, src, "utf-8")
	case enc != nil:
		return decodeWith(enc, src, name)
	}
	if enc, name := detectCJK(src); enc != nil {
		return decodeWith(enc, src, name)
	}
	return decodeWith(charmap.Windows1252, src, "windows-1252")
}

// DecodeAs decodes src with the named charset (a WHATWG label: "shift_jis",
// "gb18030", "utf-16le"...), whatever the page declares; an unknown name is
// an ErrCharset error naming it.
func DecodeAs(src []byte, name string) (string, string, error) {
	enc, canon := charset.Lookup(strings.TrimSpace(name))
	if enc == nil {
		return "", "", fmt.Errorf("charset %q: %w", name, ErrCharset)
	}
	return decodeWith(enc, src, canon)
}

// latin reports whether a declared charset is windows-1252 or what the web
// reads as it: such a declaration is often wrong about UTF-8 pages.
func latin(name string) bool { return name == "windows-1252" || name == "iso-8859-1" }

func declaredEncoding(src []byte, contentType string) (encoding.Encoding, string) {
	if contentType != "" {
		if i := strings.Index(strings.ToLower(contentType), "charset="); i >= 0 {
			label := strings.Trim(contentType[i+len("charset="):], `"' `)
			if j := strings.IndexAny(label, "; "); j >= 0 {
				label = label[:j]
			}
			if enc, name := charset.Lookup(label); enc != nil {
				return enc, name
			}
		}
	}
	head := src[:min(len(src), 1024)]
	enc, name, certain := charset.DetermineEncoding(head, "text/html")
	if certain || name != "windows-1252" {
		return enc, name
	}
	return nil, ""
}

func decodeWith(enc encoding.Encoding, src []byte, name string) (string, string, error) {
	out, err := enc.NewDecoder().Bytes(src)
	if err != nil {
		return "", name, fmt.Errorf("decode as %s: %w", name, err)
	}
	return checkText(string(out), name)
}

// nulPairs counts the byte pairs of head with a NUL at the even, and at
// the odd position.
func nulPairs(head []byte) (even, odd int) {
	for i := 0; i+1 < len(head); i += 2 {
		if head[i] == 0 {
			even++
		}
		if head[i+1] == 0 {
			odd++
		}
	}
	return even, odd
}

// sniffUTF16 recognises UTF-16 without byte order mark: HTML markup is
// ASCII, so in UTF-16 one byte of most of its first characters is NUL —
// the odd bytes in little-endian, the even ones in big-endian — while the
// other byte almost never is.
func sniffUTF16(src []byte) (encoding.Encoding, string) {
	head := src[:min(len(src), 1024)&^1]
	if len(head) < 16 {
		return nil, ""
	}
	even, odd := nulPairs(head)
	pairs := len(head) / 2
	// At least 15% of the pairs with a NUL on one side, under 5% on the
	// other: NUL bytes are never that regular in other text.
	switch {
	case 100*odd >= 15*pairs && 20*even < pairs:
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le"
	case 100*even >= 15*pairs && 20*odd < pairs:
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be"
	}
	return nil, ""
}

// checkBytes rejects a source that is not text: in its first 64 KiB more
// than 1% of NUL bytes or 2% of control bytes (other than tab, line feed,
// form feed, carriage return and escape). A stray NUL in a page is
// tolerated; text never holds them in number.
func checkBytes(src []byte) error {
	head := src[:min(len(src), 64<<10)]
	nul, ctl := 0, 0
	for _, b := range head {
		switch {
		case b == 0:
			nul++
		case isControl(rune(b)):
			ctl++
		}
	}
	if 100*nul > len(head) || 50*ctl > len(head) {
		return fmt.Errorf("%d NUL and %d control bytes in the first %d: %w", nul, ctl, len(head), ErrBinary)
	}
	return nil
}

// isControl reports a control character that text does not hold in
// number: below space or DEL, other than NUL (counted apart), tab, line
// feed, form feed, carriage return and escape.
func isControl(r rune) bool {
	return r > 0 && r < 0x20 && r != '\t' && r != '\n' && r != '\f' && r != '\r' && r != 0x1B || r == 0x7F
}

// checkText rejects a decoded text that is not text (see checkBytes).
func checkText(s, name string) (string, string, error) {
	head := s[:min(len(s), 64<<10)]
	nul, ctl, n := 0, 0, 0
	for _, r := range head {
		n++
		switch {
		case r == 0:
			nul++
		case isControl(r):
			ctl++
		}
	}
	if 100*nul > n || 50*ctl > n {
		return "", name, fmt.Errorf("decoded as %s: %d NUL and %d control characters in the first %d: %w", name, nul, ctl, n, ErrBinary)
	}
	return s, name, nil
}

// mostlyUTF8 reports whether src is UTF-8 with a few stray bytes: at least
// four valid multi-byte sequences per invalid byte. Text in a single-byte
// charset almost never forms valid multi-byte UTF-8 sequences.
func mostlyUTF8(src []byte) bool {
	valid, invalid := 0, 0
	for i := 0; i < len(src); {
		if src[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			invalid++
		} else {
			valid++
		}
		i += max(size, 1)
	}
	return valid > 0 && valid >= 4*invalid
}

// detectableCJK are the multi-byte charsets the detector may name for an
// undeclared page.
var detectableCJK = map[string]bool{"Shift_JIS": true, "EUC-JP": true, "GB18030": true, "Big5": true, "EUC-KR": true}

// detectCJK returns the multi-byte East Asian charset of an undeclared
// page when the detector is confident of it (at least 50 of 100) and it
// decodes the bytes with no more than one error per thousand characters.
func detectCJK(src []byte) (encoding.Encoding, string) {
	res, err := chardet.NewHtmlDetector().DetectBest(src)
	if err != nil || !detectableCJK[res.Charset] || res.Confidence < 50 {
		return nil, ""
	}
	enc, name := charset.Lookup(res.Charset)
	if enc == nil {
		return nil, ""
	}
	out, err := enc.NewDecoder().Bytes(src)
	if err != nil {
		return nil, ""
	}
	text := string(out)
	if 1000*strings.Count(text, "\uFFFD") > utf8.RuneCountInString(text) {
		return nil, ""
	}
	return enc, name
}
