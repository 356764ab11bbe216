package singlepage

import (
	"strings"
	"testing"
)

// TestTableEchoes: a table's cells that say the same again ("Rest",
// each table's header row) are kept; a table shown twice (for small and
// large screens) is kept once.
func TestTableEchoes(t *testing.T) {
	tests := []struct {
		file string
		want map[string]int // paragraph of the body -> times it is there
	}{
		{"repeated-cells.html", map[string]int{"Optional": 3, "Required": 3, "Field": 2, "String": 4}},
		{"twice-shown-table.html", map[string]int{"Rest": 2, "Monday": 1, "Easy run 4 miles": 1, "Day": 1}},
	}
	for _, tt := range tests {
		body := gatherBody(t, tt.file)
		count := map[string]int{}
		for _, para := range strings.Split(body, "\n\n") {
			count[para]++
		}
		for para, n := range tt.want {
			if count[para] != n {
				t.Errorf("%s: %q %d times in the body, want %d:\n%s", tt.file, para, count[para], n, body)
			}
		}
	}
}

// TestUnitsKeepTableEchoes: on a page whose rows are read as units (a
// documentation page's tables of attributes), the body joined with them
// keeps each cell the block model kept, "String" and "Optional" row after
// row, not each text once.
func TestUnitsKeepTableEchoes(t *testing.T) {
	tests := []struct {
		file string
		want map[string]int // paragraph of the body -> times it is there
	}{
		{"feed-spec-units.html", map[string]int{"Optional": 8, "String": 8, "Required": 4, "URL": 3, "Attribute": 2}},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, "gather", tt.file)
		r, err := Extract(tr, Options{Source: src})
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		count := map[string]int{}
		for _, para := range strings.Split(r.Body, "\n\n") {
			count[para]++
		}
		for para, n := range tt.want {
			if count[para] != n {
				t.Errorf("%s: %q %d times in the body, want %d:\n%s", tt.file, para, count[para], n, r.Body)
			}
		}
	}
}
