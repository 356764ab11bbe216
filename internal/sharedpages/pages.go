// Package sharedpages reads the pages of the shared data sets
// (internal/shareddata) parsed, for tests and benchmarks of the packages
// above treediff (treediff's own tests use shareddata alone: no cycle).
package sharedpages

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/treediff"
)

// Page is a page of a shared data set, read and parsed.
type Page struct {
	Name string
	Src  []byte
	Tree *treediff.Tree
}

// Pages reads and parses the pages of shared/data/<name>/html (plain HTML
// files, as big9-dev holds them), in file name order; it skips tb as
// shareddata.Dir does when the data is missing.
func Pages(tb testing.TB, name string) []Page {
	tb.Helper()
	dir := filepath.Join(shareddata.Dir(tb, name), "html")
	ents, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var pages []Page
	for _, e := range ents {
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		t, err := treediff.Parse(e.Name(), src, treediff.ParseOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, Page{e.Name(), src, t})
	}
	return pages
}
