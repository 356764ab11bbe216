package langid

import (
	"fmt"
	"sort"
	"strings"

	"github.com/abadojack/whatlanggo"
)

// Identifier picks a language among a fixed set.
type Identifier struct {
	langs []string
	opts  whatlanggo.Options
}

// byISO maps ISO 639-1 codes to whatlanggo's languages.
var byISO = func() map[string]whatlanggo.Lang {
	m := map[string]whatlanggo.Lang{}
	for l := whatlanggo.Lang(0); l < 200; l++ {
		if c := l.Iso6391(); c != "" {
			if _, ok := m[c]; !ok {
				m[c] = l
			}
		}
	}
	return m
}()

// New returns an identifier restricted to langs (ISO 639-1 codes: en, fr,
// de…); an empty list allows every known language.
func New(langs []string) (*Identifier, error) {
	id := &Identifier{}
	if len(langs) > 0 {
		id.opts.Whitelist = map[whatlanggo.Lang]bool{}
	}
	for _, c := range langs {
		c = strings.ToLower(strings.TrimSpace(c))
		l, ok := byISO[c]
		if !ok {
			return nil, fmt.Errorf("langid: unknown language code %q (want ISO 639-1, e.g. en, fr, de)", c)
		}
		id.opts.Whitelist[l] = true
		id.langs = append(id.langs, c)
	}
	sort.Strings(id.langs)
	return id, nil
}

// Languages returns the allowed codes, sorted.
func (id *Identifier) Languages() []string { return id.langs }

// Detect returns the ISO 639-1 code of text's language and a confidence in
// [0, 1]. Text with no letters gives "" and 0.
func (id *Identifier) Detect(text string) (string, float64) {
	if len(text) > 64<<10 {
		text = text[:64<<10] // enough for trigram statistics; bounds the cost
	}
	if !strings.ContainsFunc(text, isLetter) {
		return "", 0
	}
	info := whatlanggo.DetectWithOptions(text, id.opts)
	code := info.Lang.Iso6391()
	if id.opts.Whitelist != nil && !id.opts.Whitelist[info.Lang] {
		return "", 0
	}
	return code, info.Confidence
}

func isLetter(r rune) bool {
	return r > 127 && r != 0xFFFD || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}
