package singlepage

import (
	"strings"
	"testing"
)

// TestTablesAndAnnouncedLists reads articles whose text goes on in a data
// table (short cells, a column of linked names) or in a list of links a
// sentence announces: the body keeps them with the paragraphs around
// them, and leaves the menus, share links and a box of headlines out.
func TestTablesAndAnnouncedLists(t *testing.T) {
	tests := []struct {
		file      string
		want, not []string
	}{
		{
			file: "clubs.html",
			want: []string{"Water sports have a long history", "Club", "Harbour Sailing Society", "1898", "Westbank Dragon Boats", "64", "Clubs that wish to be listed"},
			not:  []string{"Share on Facebook", "Privacy", "Sport"},
		},
		{
			file: "changes.html",
			want: []string{"This month went mostly", "merged this month:", "Fix the parser on empty input", "Keep the order of keys when saving", "With those, the editor opens"},
			not:  []string{"Progress report for October", "Blog"},
		},
		{
			// A column of times beside a column of linked headlines,
			// without a header row, is a box of links.
			file: "headlines.html",
			want: []string{"Two walkers were rescued", "check the tide times"},
			not:  []string{"20:28", "Harbour board approves"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, src := parseIn(t, "tables", tt.file)
			r, err := Extract(tr, Options{Source: src, SecondOpinionBelow: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.Body, w) {
					t.Errorf("body lacks %q:\n%s", w, r.Body)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(r.Body, n) {
					t.Errorf("body holds %q:\n%s", n, r.Body)
				}
			}
		})
	}
}
