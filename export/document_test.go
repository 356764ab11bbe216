package export

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/chain"
)

// TestDocumentWriter writes one annotated document in each format the
// writer takes (the format's own mark in the output), and refuses another.
func TestDocumentWriter(t *testing.T) {
	c, err := chain.New(chain.Config{NoApertium: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	doc, err := c.Process(context.Background(), chain.Input{ID: "d1", Lang: "en", Text: "Wind farms grow fast."})
	if err != nil {
		t.Fatal(err)
	}
	for format, mark := range map[string]string{"conllu": "# sent_id", "vertical": "<doc", "jsonl": `"id":"d1"`, "tei": "<TEI"} {
		var b bytes.Buffer
		w, err := NewDocumentWriter(&b, format)
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if err := w.Write(doc, "Wind farms grow fast."); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if !strings.Contains(b.String(), mark) || !strings.Contains(b.String(), "Wind") {
			t.Errorf("%s: output lacks %q or the text:\n%s", format, mark, b.String())
		}
	}
	if _, err := NewDocumentWriter(&bytes.Buffer{}, "pdf"); err == nil || !strings.Contains(err.Error(), `unknown format "pdf"`) {
		t.Errorf("format pdf: %v", err)
	}
}
