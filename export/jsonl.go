package export

import (
	"encoding/json"
	"io"

	"github.com/gleaner/gleaner/chain"
	"github.com/gleaner/gleaner/chain/tagger"
)

// JSONL writes one JSON object per line per page.
type JSONL struct{ enc *json.Encoder }

// NewJSONL returns a JSON Lines writer on w.
func NewJSONL(w io.Writer) *JSONL {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	return &JSONL{enc: e}
}

type jsonDoc struct {
	ID             string      `json:"id"`
	URL            string      `json:"url,omitempty"`
	Title          string      `json:"title,omitempty"`
	Date           string      `json:"date,omitempty"`
	Author         string      `json:"author,omitempty"`
	Text           string      `json:"text"`
	Method         string      `json:"method,omitempty"`
	Confidence     float64     `json:"confidence,omitempty"`
	Run            int64       `json:"run,omitempty"` // learning run whose template gave the text
	Kind           string      `json:"kind,omitempty"`
	Relevance      *float64    `json:"relevance,omitempty"`
	Template       *int        `json:"template,omitempty"` // cluster of Run; -1 for none
	Lang           string      `json:"lang,omitempty"`
	LangConfidence float64     `json:"lang_confidence,omitempty"`
	Tagger         string      `json:"tagger,omitempty"`
	Blocks         []jsonBlock `json:"blocks,omitempty"`
	Links          []Link      `json:"links,omitempty"`
}

type jsonBlock struct {
	Text      string     `json:"text"`
	Sentences []jsonSent `json:"sentences"`
}

type jsonSent struct {
	Text   string      `json:"text"`
	Tokens []jsonToken `json:"tokens"`
}

type jsonToken struct {
	Form  string `json:"form"`
	Lemma string `json:"lemma,omitempty"`
	UPOS  string `json:"upos,omitempty"`
	XPOS  string `json:"xpos,omitempty"`
	Feats string `json:"feats,omitempty"`
	Kind  string `json:"kind,omitempty"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Parts are the words of a contraction (du = de + le).
	Parts []jsonPart `json:"parts,omitempty"`
}

type jsonPart struct {
	Lemma string `json:"lemma"`
	UPOS  string `json:"upos"`
	XPOS  string `json:"xpos,omitempty"`
	Feats string `json:"feats,omitempty"`
}

// Write writes page as one line.
func (j *JSONL) Write(page *Page) error {
	d := jsonDoc{ID: page.ID, URL: page.URL, Title: page.Title, Date: page.Date, Author: page.Author, Text: page.Text, Links: page.Links,
		Method: page.Method, Confidence: page.Confidence, Run: page.Run}
	if j := page.Judgement; j != nil {
		d.Kind, d.Relevance, d.Template = j.Kind, &j.Relevance, &j.Template
	}
	if doc := page.Doc; doc != nil {
		d.Lang, d.LangConfidence, d.Tagger = doc.Lang, doc.LangConfidence, doc.Tagger
		for _, b := range doc.Blocks {
			d.Blocks = append(d.Blocks, newJSONBlock(b))
		}
	}
	return j.enc.Encode(d)
}

// newJSONBlock is an annotated block as written.
func newJSONBlock(b chain.Block) jsonBlock {
	jb := jsonBlock{Text: b.Text}
	for _, s := range b.Sentences {
		js := jsonSent{Text: s.Text}
		for _, t := range s.Tokens {
			js.Tokens = append(js.Tokens, newJSONToken(t))
		}
		jb.Sentences = append(jb.Sentences, js)
	}
	return jb
}

// newJSONToken is an annotated token as written; its kind only when the
// pre-tagger gave it.
func newJSONToken(t tagger.Token) jsonToken {
	k := ""
	if t.Kind.Pretagged() {
		k = t.Kind.String()
	}
	jt := jsonToken{Form: t.Text, Lemma: t.Lemma, UPOS: t.UPOS, XPOS: t.XPOS, Feats: t.Feats, Kind: k, Start: t.Start, End: t.End}
	for _, p := range t.Parts {
		jt.Parts = append(jt.Parts, jsonPart{Lemma: p.Lemma, UPOS: p.UPOS, XPOS: p.XPOS, Feats: p.Feats})
	}
	return jt
}
