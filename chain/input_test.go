package chain

import (
	"strings"
	"testing"
)

// TestInputOf reads text as text and HTML (by its name or when asked) as
// its coherent blocks.
func TestInputOf(t *testing.T) {
	const page = "<html><body><p>First block of the page.</p><div><p>Second block here.</p></div></body></html>"
	for _, tc := range []struct {
		name, src string
		asHTML    bool
		text      bool // read as text
	}{
		{"notes.txt", "One paragraph.\n\nAnother.", false, true},
		{"dir/page.html", page, false, false},
		{"page.HTM", page, false, false},
		{"-", page, true, false},
		{"-", page, false, true},
	} {
		in, err := InputOf(tc.name, []byte(tc.src), "en", tc.asHTML)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if in.Lang != "en" || strings.Contains(in.ID, "/") {
			t.Errorf("%s: id %q lang %q", tc.name, in.ID, in.Lang)
		}
		if tc.text {
			if in.Text != tc.src || len(in.Blocks) != 0 {
				t.Errorf("%s: read as %q, %q; want the text", tc.name, in.Text, in.Blocks)
			}
			continue
		}
		if in.Text != "" || !strings.Contains(strings.Join(in.Blocks, "|"), "First block") || !strings.Contains(strings.Join(in.Blocks, "|"), "Second block") {
			t.Errorf("%s: blocks %q, text %q; want the page's blocks", tc.name, in.Blocks, in.Text)
		}
	}
}
