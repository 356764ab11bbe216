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
