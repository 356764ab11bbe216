package singlepage

import (
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// TestCodeSample: a code sample set in <pre> on a documentation page is
// part of its body; the same text leaking from a script outside <pre> is
// not.
func TestCodeSample(t *testing.T) {
	prose := "<p>To read a file line by line, open it and loop over the scanner until it reports no more lines, then check its error.</p>" +
		"<p>The scanner splits on newlines by default; a custom split function changes that for words or runes.</p>"
	code := "for s.Scan() { line := s.Text(); if line == \"\" { continue }; fmt.Println(line) }"
	tests := []struct {
		name string
		html string
		want bool
	}{
		{"sample in pre", "<main>" + prose + "<pre><code>" + code + "</code></pre></main>", true},
		{"script shown as text", "<main>" + prose + "<div>" + code + "</div></main>", false},
	}
	for _, tt := range tests {
		tr, err := treediff.Parse(tt.name, []byte("<html><body>"+tt.html+"</body></html>"), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Extract(tr, Options{SecondOpinionBelow: -1})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(r.Body, "s.Scan()"); got != tt.want {
			t.Errorf("%s: body holds the code %v, want %v:\n%s", tt.name, got, tt.want, r.Body)
		}
	}
}
