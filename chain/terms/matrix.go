package terms

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gleaner/gleaner/chain/segment"
	"github.com/gleaner/gleaner/chain/tagger"
)

// Matrix is the document × word frequency matrix M(i, j) = frequency of
// word j in document i, over the lemmas of content words (nouns, proper
// nouns, verbs, adjectives, adverbs; every word when the tagger gave no
// part of speech).
type Matrix struct {
	Docs  []string
	Words []string
	index map[string]int
	rows  []map[int]int
}

// NewMatrix returns an empty matrix.
func NewMatrix() *Matrix { return &Matrix{index: map[string]int{}} }

var contentPOS = map[string]bool{"NOUN": true, "PROPN": true, "VERB": true, "ADJ": true, "ADV": true, "_": true}

// AddDocument adds a row for document id.
func (m *Matrix) AddDocument(id string, sents [][]tagger.Token) {
	row := map[int]int{}
	for _, s := range sents {
		for _, t := range s {
			if t.Kind != segment.Word && t.Kind != segment.Abbrev || !contentPOS[t.UPOS] {
				continue
			}
			w := strings.ToLower(t.Lemma)
			if w == "" {
				w = strings.ToLower(t.Text)
			}
			j, ok := m.index[w]
			if !ok {
				j = len(m.Words)
				m.index[w] = j
				m.Words = append(m.Words, w)
			}
			row[j]++
		}
	}
	m.Docs = append(m.Docs, id)
	m.rows = append(m.rows, row)
}

// Count returns the frequency of word in the document at row i.
func (m *Matrix) Count(i int, word string) int {
	j, ok := m.index[word]
	if !ok || i < 0 || i >= len(m.rows) {
		return 0
	}
	return m.rows[i][j]
}

// WriteTSV writes the non-zero cells as "doc TAB word TAB count" lines,
// by document then word.
func (m *Matrix) WriteTSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("doc\tword\tcount\n")
	for i, row := range m.rows {
		js := make([]int, 0, len(row))
		for j := range row {
			js = append(js, j)
		}
		sort.Slice(js, func(a, b int) bool { return m.Words[js[a]] < m.Words[js[b]] })
		for _, j := range js {
			fmt.Fprintf(bw, "%s\t%s\t%d\n", tsv(m.Docs[i]), tsv(m.Words[j]), row[j])
		}
	}
	return bw.Flush()
}

func tsv(s string) string { return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s) }
