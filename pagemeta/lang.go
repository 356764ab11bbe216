package pagemeta

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gleaner/gleaner/chain/langid"
	"github.com/gleaner/gleaner/treediff"
)

// minLangWords is the text length from which the text's language, as
// identified, overrides the declared one: shorter texts (a teaser, an
// app shell) are identified too unreliably.
const minLangWords = 20

// identifier is the language identifier over every known language,
// built once.
var identifier = sync.OnceValue(func() *langid.Identifier {
	id, err := langid.New(nil)
	if err != nil {
		panic(err) // an empty list is always accepted
	}
	return id
})

// declaredLang is the language the page declares, primary subtag only:
// html lang or xml:lang, else Content-Language (header or meta), else
// og:locale, dc.language or JSON-LD inLanguage.
func declaredLang(s *scan, ld ldMeta, header string) string {
	for _, v := range []string{s.htmlLang, header, s.meta("content-language", "language", "dc.language", "dcterms.language", "og:locale"), ld.lang} {
		if l := PrimaryTag(v); l != "" {
			return l
		}
	}
	return ""
}

// PrimaryTag is a language tag's primary subtag, lower-cased: "en-US",
// "en_GB", "de, en" -> "en", "en", "de"; "" for none or "x-default".
func PrimaryTag(v string) string {
	v = strings.TrimSpace(strings.SplitN(v, ",", 2)[0])
	v, _, _ = strings.Cut(strings.ReplaceAll(strings.ToLower(v), "_", "-"), "-")
	if len(v) < 2 || len(v) > 3 || strings.Trim(v, "abcdefghijklmnopqrstuvwxyz") != "" {
		return ""
	}
	return v
}

// language is the document's language and its source: the text's
// ("text"), when it has minLangWords words and is identified with some
// confidence, else the declared one ("declared"). A text of names only
// (a list of towns, teams or products) does not overrule the declared
// language: trigrams of names are the language's of their origin (wcxb-dev:
// 4 English pages of names identified as Spanish, French or Nynorsk).
func language(t *treediff.Tree, opt Options, declared string) (string, string) {
	id, text := langInput(t, opt)
	if len(strings.Fields(text)) >= minLangWords {
		l, conf, prose := vote(id, text)
		if l != "" && (conf >= 0.5 || declared == "") && (prose || declared == "" || l == declared) {
			return l, "text"
		}
	}
	if declared != "" {
		return declared, "declared"
	}
	return "", ""
}

// langInput is the identifier to use and the text to identify: the
// options', else every language and the page's prose, clipped.
func langInput(t *treediff.Tree, opt Options) (*langid.Identifier, string) {
	id, text := opt.Languages, opt.Text
	if id == nil {
		id = identifier()
	}
	if text == "" {
		text = bodyText(t)
	}
	return id, clip(text, maxLangText)
}

// langChunk is the size of the pieces of text identified apart: whatlanggo
// errs on longer texts (English menus and prose of 2 kB taken for French
// with a confidence of 0.76, of 8 kB for Yoruba), not on their pieces.
const langChunk = 600

// vote identifies the language of each piece of text and returns the one
// most pieces of prose have, with their mean confidence (prose true);
// when no piece is prose, the one most pieces have (prose false).
func vote(id *langid.Identifier, text string) (string, float64, bool) {
	prose, all := newBallot(), newBallot()
	for rest := text; len(rest) > 0; {
		n := cutAt(rest, langChunk)
		piece := rest[:n]
		rest = rest[n:]
		if len(strings.Fields(piece)) < minLangWords/2 {
			continue
		}
		l, conf := id.Detect(piece)
		all.add(l, conf)
		if !namesOnly(piece) {
			prose.add(l, conf)
		}
	}
	if prose.best != "" {
		return prose.best, prose.mean(), true
	}
	return all.best, all.mean(), false // "" when no piece is long enough
}

// namesOnly reports whether most words of a piece that start with a
// letter start with a capital: names, product titles, a menu, not
// sentences (German prose capitalizes its nouns, about a third of its
// words). Letters without case (Chinese, Arabic) are no capitals.
func namesOnly(piece string) bool {
	caps, words := 0, 0
	for _, w := range strings.Fields(piece) {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsLetter(r) {
			continue
		}
		words++
		if unicode.IsUpper(r) {
			caps++
		}
	}
	return 2*caps > words
}

// ballot counts the pieces identified as each language, and their
// summed confidence; best has the most pieces, then the most confidence.
type ballot struct {
	votes map[string]int
	confs map[string]float64
	best  string
}

func newBallot() ballot { return ballot{votes: map[string]int{}, confs: map[string]float64{}} }

// mean is the mean confidence of the pieces of the leading language, 0
// when there is none.
func (b *ballot) mean() float64 {
	if b.best == "" {
		return 0
	}
	return b.confs[b.best] / float64(b.votes[b.best])
}

// add counts one piece identified as l ("" for none) with confidence conf.
func (b *ballot) add(l string, conf float64) {
	if l == "" {
		return
	}
	b.votes[l]++
	b.confs[l] += conf
	if b.best == "" || b.votes[l] > b.votes[b.best] || b.votes[l] == b.votes[b.best] && b.confs[l] > b.confs[b.best] {
		b.best = l
	}
}

// maxLangText bounds the text read for identification: enough for its
// trigram statistics, and whatlanggo's scores go wrong on long texts (an
// English article of 8 kB is identified as Yoruba with a negative
// confidence).
const maxLangText = 3000

// bodyText is the text of t's <p> elements (the prose, not the menus),
// else of its body, up to maxLangText bytes.
func bodyText(t *treediff.Tree) string {
	var b strings.Builder
	for _, label := range []string{"p", "body"} {
		t.Root.Walk(func(n *treediff.Node) bool {
			if b.Len() >= maxLangText {
				return false
			}
			if n.Kind == treediff.Element && n.Label == label {
				b.WriteString(n.Text())
				b.WriteByte('\n')
				return false
			}
			return true
		})
		if len(strings.Fields(b.String())) >= minLangWords {
			break
		}
		b.Reset()
	}
	return b.String()
}

// clip cuts s to at most n bytes, at a space when there is one.
func clip(s string, n int) string {
	return strings.ToValidUTF8(s[:cutAt(s, n)], "")
}

// cutAt is where to cut s to at most n bytes (n > 0): after its last
// space in the second half of those bytes, else at n; never 0 for a
// non-empty s.
func cutAt(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	if i := strings.LastIndexAny(s[:n], " \n\t"); i > n/2 {
		return i + 1
	}
	return n
}
