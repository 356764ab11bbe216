package tagger

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gleaner/gleaner/chain/segment"
)

// Token is a token with its analysis.
type Token struct {
	segment.Token
	Lemma string
	UPOS  string // Universal Dependencies part of speech; "_" when unknown
	XPOS  string // the tagger's own tag
	Feats string // CoNLL-U features (Number=Sing|Gender=Fem), "" when none
	// Unknown is set when the tagger's lexicon did not know the word.
	Unknown bool
	// Parts are the words a contraction stands for (du = de + le, aux =
	// à + les), each with its analysis; nil for ordinary tokens. Lemma,
	// UPOS and XPOS of the token then join or take the first of its parts.
	Parts []Part
}

// Part is one word of a contracted token.
type Part struct {
	Lemma, UPOS, XPOS, Feats string
}

// Tagger analyses the sentences of one text in place.
type Tagger interface {
	// Tag fills Lemma, UPOS, XPOS and Feats of every token of sents (all
	// the sentences of a document go in one call: one round trip).
	Tag(ctx context.Context, sents [][]Token) error
	// Name says which tagger analysed the text, for the output's metadata.
	Name() string
	// Close stops the tagger's processes.
	Close() error
}

// FromSegments wraps segmented sentences for tagging.
func FromSegments(sents [][]segment.Token) [][]Token {
	out := make([][]Token, len(sents))
	for i, s := range sents {
		out[i] = make([]Token, len(s))
		for j, t := range s {
			out[i][j] = Token{Token: t, UPOS: "_"}
		}
	}
	return out
}

// byKind analyses a token from its kind alone: pre-tagged units, punctuation
// and symbols need no tagger. It reports whether it did.
func byKind(t *Token) bool {
	switch t.Kind {
	case segment.Number, segment.Date, segment.Time, segment.Money, segment.Measure:
		t.UPOS, t.XPOS = "NUM", t.Kind.String()
	case segment.URL, segment.Email:
		t.UPOS, t.XPOS = "X", t.Kind.String()
	case segment.Punct:
		t.UPOS, t.XPOS = "PUNCT", "punct"
	case segment.Symbol:
		t.UPOS, t.XPOS = "SYM", "sym"
	default:
		return false
	}
	t.Lemma = t.Text
	return true
}

// guess analyses a word no lexicon knew: capitalised words are names.
func guess(t *Token) {
	if byKind(t) {
		return
	}
	t.Unknown = true
	t.Lemma = strings.ToLower(t.Text)
	r, _ := utf8.DecodeRuneInString(t.Text)
	switch {
	case unicode.IsUpper(r):
		t.UPOS, t.Lemma = "PROPN", t.Text
	case unicode.IsDigit(r):
		t.UPOS = "NUM"
	default:
		t.UPOS = "NOUN"
	}
	t.XPOS = "unknown"
}
