package export

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gleaner/gleaner/chain"
)

// DocumentFormats are the formats an annotated document is written in on
// its own ("gleaner chain"), without a store's page around it.
var DocumentFormats = []string{"conllu", "vertical", "jsonl", "tei"}

// DocumentWriter writes annotated documents one after another in one of
// DocumentFormats.
type DocumentWriter struct {
	out    io.Writer
	jl     *JSONL
	format string
}

// NewDocumentWriter returns a writer of documents in format to out; an
// error names a format not in DocumentFormats.
func NewDocumentWriter(out io.Writer, format string) (*DocumentWriter, error) {
	if !slices.Contains(DocumentFormats, format) {
		return nil, fmt.Errorf("unknown format %q (want %s)", format, strings.Join(DocumentFormats, ", "))
	}
	return &DocumentWriter{out: out, jl: NewJSONL(out), format: format}, nil
}

// Write writes doc, annotated from text (empty for HTML input, whose text
// is in its blocks).
func (w *DocumentWriter) Write(doc *chain.Document, text string) error {
	switch w.format {
	case "conllu":
		return WriteCoNLLU(w.out, doc)
	case "vertical":
		return WriteVertical(w.out, doc)
	case "jsonl":
		return w.jl.Write(&Page{ID: doc.ID, Text: text, Doc: doc})
	}
	return WriteTEI(w.out, &Page{ID: doc.ID, Doc: doc})
}
