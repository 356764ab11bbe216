package pagemeta

import "testing"

func TestSameTitle(t *testing.T) {
	for _, c := range []struct {
		want, got string
		same      bool
	}{
		{"It’s — fine", "it's - Fine", true},
		{"A  title\u00a0here", "a title here", true},
		{"Wait…", "wait...", true},
		{"A title", "A title | Site", false},
		{"", "", false},
	} {
		if got := SameTitle(c.want, c.got); got != c.same {
			t.Errorf("SameTitle(%q, %q) = %v, want %v", c.want, c.got, got, c.same)
		}
	}
}
