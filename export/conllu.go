package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/gleaner/gleaner/chain"
)

// WriteCoNLLU writes doc in CoNLL-U: a newdoc comment, then per sentence
// its id and text comments and one line per token (ID, FORM, LEMMA, UPOS,
// XPOS, FEATS, HEAD, DEPREL, DEPS, MISC). The chain does not parse, so
// HEAD, DEPREL and DEPS are "_"; MISC holds SpaceAfter=No and the
// pre-tagged kind (Kind=Date…). A contraction (du = de + le) is a
// multiword token: a range line with the surface form, then one line per
// word. Blocks start new paragraphs (newpar).
func WriteCoNLLU(w io.Writer, doc *chain.Document) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# newdoc id = %s\n", clean(doc.ID))
	if doc.URL != "" {
		fmt.Fprintf(bw, "# url = %s\n", clean(doc.URL))
	}
	fmt.Fprintf(bw, "# lang = %s\n# tagger = %s\n", orUnderscore(doc.Lang), clean(doc.Tagger))
	n := 0
	for bi, b := range doc.Blocks {
		fmt.Fprintf(bw, "# newpar id = %s-p%d\n", clean(doc.ID), bi+1)
		for _, s := range b.Sentences {
			n++
			fmt.Fprintf(bw, "# sent_id = %s-%d\n# text = %s\n", clean(doc.ID), n, clean(s.Text))
			id := 0 // word ID: contractions (du = de + le) take a range
			for i, t := range s.Tokens {
				misc := ""
				if !t.SpaceAfter && i+1 < len(s.Tokens) {
					misc = "SpaceAfter=No"
				}
				if t.Kind.Pretagged() {
					if misc != "" {
						misc += "|"
					}
					misc += "Kind=" + t.Kind.String()
				}
				if len(t.Parts) > 1 {
					fmt.Fprintf(bw, "%d-%d\t%s\t_\t_\t_\t_\t_\t_\t_\t%s\n", id+1, id+len(t.Parts), orUnderscore(t.Text), orUnderscore(misc))
					for _, p := range t.Parts {
						id++
						fmt.Fprintf(bw, "%d\t%s\t%s\t%s\t%s\t%s\t_\t_\t_\t_\n", id, orUnderscore(p.Lemma), orUnderscore(p.Lemma),
							orUnderscore(p.UPOS), orUnderscore(p.XPOS), orUnderscore(p.Feats))
					}
					continue
				}
				id++
				fmt.Fprintf(bw, "%d\t%s\t%s\t%s\t%s\t%s\t_\t_\t_\t%s\n", id, orUnderscore(t.Text), orUnderscore(t.Lemma),
					orUnderscore(t.UPOS), orUnderscore(t.XPOS), orUnderscore(t.Feats), orUnderscore(misc))
			}
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// WriteVertical writes doc as TreeTagger-style vertical text: <doc> with
// its metadata as attributes, <p> per block, <s> per sentence, one
// "token TAB POS TAB lemma" line per token (POS is the tagger's own tag,
// or UPOS when it has none).
func WriteVertical(w io.Writer, doc *chain.Document) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "<doc id=%s url=%s title=%s lang=%s tagger=%s>\n", attr(doc.ID), attr(doc.URL), attr(doc.Title), attr(doc.Lang), attr(doc.Tagger))
	for _, b := range doc.Blocks {
		bw.WriteString("<p>\n")
		for _, s := range b.Sentences {
			bw.WriteString("<s>\n")
			for _, t := range s.Tokens {
				pos := t.XPOS
				if pos == "" || pos == "_" {
					pos = t.UPOS
				}
				fmt.Fprintf(bw, "%s\t%s\t%s\n", orUnderscore(t.Text), orUnderscore(pos), orUnderscore(t.Lemma))
			}
			bw.WriteString("</s>\n")
		}
		bw.WriteString("</p>\n")
	}
	bw.WriteString("</doc>\n")
	return bw.Flush()
}

// attr quotes an SGML attribute value.
func attr(s string) string {
	r := strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")
	return `"` + r.Replace(clean(s)) + `"`
}
