package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/treediff"
)

// Meta is what a page states about itself, as the extraction methods use
// it (pagemeta.Meta has every field and their sources).
type Meta struct {
	// Title is the page's headline (pagemeta.Meta.Title).
	Title string
	// Date is the publication date the page states, ISO 8601
	// (pagemeta.Meta.Published); "" when none.
	Date string
	// Author is the page's authors joined with ", ".
	Author string
}

// ExtractMeta reads the title, publication date and authors a page
// states, with pagemeta.Extract; src, optional, is the page's source (its
// JSON-LD, which the tree does not keep). Absent values are "".
func ExtractMeta(t *treediff.Tree, src []byte) Meta {
	m := pagemeta.Extract(t, src, pagemeta.Options{NoLanguage: true})
	return Meta{Title: m.Title, Date: m.Published, Author: strings.Join(m.Authors, ", ")}
}

// NormalizeDate returns the date s states as ISO 8601, "" when it holds
// no complete date (pagemeta.NormalizeDate).
func NormalizeDate(s string) string { return pagemeta.NormalizeDate(s) }
