package tagger

import (
	"context"
	"fmt"
	"strings"

	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/turkish"
)

var stemmers = map[string]func(*snowball.Env) bool{
	"da": danish.Stem, "nl": dutch.Stem, "en": english.Stem, "fi": finnish.Stem, "fr": french.Stem,
	"de": german.Stem, "hu": hungarian.Stem, "it": italian.Stem, "no": norwegian.Stem,
	"pt": portuguese.Stem, "ro": romanian.Stem, "ru": russian.Stem, "es": spanish.Stem,
	"sv": swedish.Stem, "tr": turkish.Stem,
}

// Stemmer is the fall-back for languages without a tagger: lemmas are
// Snowball stems of the lower-cased words and UPOS is "_" except for the
// kinds the segmenter recognised (numbers, punctuation, URLs…).
type Stemmer struct {
	lang string
	stem func(*snowball.Env) bool
}

// NewStemmer returns the stemmer of lang, or an error when Snowball has no
// stemmer for it.
func NewStemmer(lang string) (*Stemmer, error) {
	f, ok := stemmers[lang]
	if !ok {
		return nil, fmt.Errorf("no Snowball stemmer for language %q", lang)
	}
	return &Stemmer{lang: lang, stem: f}, nil
}

// Name says that no tagger analysed the text.
func (s *Stemmer) Name() string {
	return "snowball-stems:" + s.lang + " (no POS tagger for " + s.lang + ")"
}

// Close does nothing: the stemmer runs in process.
func (s *Stemmer) Close() error { return nil }

// Stem returns the Snowball stem of the lower-cased word.
func (s *Stemmer) Stem(word string) string {
	env := snowball.NewEnv(strings.ToLower(word))
	s.stem(env)
	return env.Current()
}

// Tag implements Tagger.
func (s *Stemmer) Tag(ctx context.Context, sents [][]Token) error {
	for _, sent := range sents {
		for i := range sent {
			t := &sent[i]
			if byKind(t) {
				continue
			}
			t.Lemma, t.UPOS, t.XPOS = s.Stem(t.Text), "_", "_"
		}
	}
	return ctx.Err()
}
