package singlepage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/treediff"
)

// TestFusedBody checks the union of two bodies: the base whole, the other
// body's paragraphs the base lacks put in after the base paragraph that
// holds the last shared paragraph before them; nothing when the other adds
// nothing.
func TestFusedBody(t *testing.T) {
	const (
		a = "The council voted on Tuesday to rebuild the old stone bridge over the river."
		b = "Work will start in the spring and last about two years, the mayor said."
		c = "Residents asked for a footpath on both sides of the new bridge."
		d = "Comments are closed."
	)
	tests := []struct {
		name, base, other, want string
	}{
		{"nothing added", a + "\n\n" + b, a + "\n\n" + b, ""},
		{"the other holds less", a + "\n\n" + b, b, ""},
		{"added after the shared one", a + "\n\n" + b, a + "\n\n" + c, a + "\n\n" + c + "\n\n" + b},
		{"added in front", b, c + "\n\n" + b, c + "\n\n" + b},
		{"shared paragraph cut otherwise", a + "\n\n" + b, a + " " + b + "\n\n" + c, a + "\n\n" + b + "\n\n" + c},
		{"short paragraph held whole", a + "\n\n" + d, a + "\n\n" + d, ""},
		{"short paragraph added", a, a + "\n\n" + d, a + "\n\n" + d},
		{"empty base", "", a, ""},
		{"empty other", a, " \n\n ", ""},
	}
	for _, tt := range tests {
		if got := fusedBody(tt.base, tt.other); got != tt.want {
			t.Errorf("%s: fusedBody = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestNodeParas checks that go-trafilatura's body comes as paragraphs, cut
// at its block elements and not at inline ones, so that each can be
// weighed alone.
func TestNodeParas(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"paragraphs", "<p>One two.</p><p>Three <b>four</b> five.</p>", []string{"One two.", "Three four five."}},
		{"list and heading", "<h2>Title</h2><ul><li>a <a href=x>link</a></li><li>b</li></ul>", []string{"Title", "a link", "b"}},
		{"text between blocks", "<div>lead<p>para</p>tail</div>", []string{"lead", "para", "tail"}},
		{"empty", "<div> </div>", nil},
	}
	for _, tt := range tests {
		doc, err := html.Parse(strings.NewReader("<body><div id=c>" + tt.body + "</div></body>"))
		if err != nil {
			t.Fatal(err)
		}
		n := doc.FirstChild.LastChild.FirstChild // html > body > div
		if got := nodeParas(n); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: nodeParas = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestFusedCandidate reads a course page whose block model keeps the
// heading and the prose but not the schedule table of linked cells, and
// whose go-trafilatura body keeps the prose and the table but not the
// heading: the fused candidate holds the three, in page order, each once,
// and no furniture.
func TestFusedCandidate(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "fusion", "course.html"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := treediff.Parse("course", src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Choices(tr, Options{Source: src}.WithDefaults())
	if err != nil {
		t.Fatal(err)
	}
	var fused *Candidate
	for i := range c.Candidates {
		if c.Candidates[i].Name == CandidateFused {
			fused = &c.Candidates[i]
		}
	}
	if fused == nil {
		t.Fatalf("no fused candidate among %d", len(c.Candidates))
	}
	if len(fused.Features) != len(ChoiceFeatureNames) {
		t.Errorf("fused features %v", fused.Features)
	}
	order := []string{"Course details", "graduate class", "Grading is based", "Introduction and sampling", "Learning mixtures of Gaussians"}
	at := -1
	for _, s := range order {
		i := strings.Index(fused.Body, s)
		if i <= at || strings.Count(fused.Body, s) != 1 {
			t.Errorf("fused body: %q at %d (after %d), %d times:\n%s", s, i, at, strings.Count(fused.Body, s), fused.Body)
		}
		at = i
	}
	for _, s := range []string{"Department", "Accessibility"} {
		if strings.Contains(fused.Body, s) {
			t.Errorf("fused body holds %q:\n%s", s, fused.Body)
		}
	}
}

// BenchmarkFusedBody measures the fusion against the bodies' size: it
// must stay linear (the bodies hold up to the second opinion's bounds).
func BenchmarkFusedBody(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		var base, other []string
		for i := range n {
			para := fmt.Sprintf("Paragraph %d of the page tells its own part of the story, number %d.", i, i)
			base = append(base, para)
			if i%3 != 0 {
				other = append(other, para)
			} else {
				other = append(other, fmt.Sprintf("Only the other extractor kept line %d here.", i))
			}
		}
		bs, ob := strings.Join(base, "\n\n"), strings.Join(other, "\n\n")
		b.Run(fmt.Sprintf("paras=%d", n), func(b *testing.B) {
			for range b.N {
				if fusedBody(bs, ob) == "" {
					b.Fatal("nothing fused")
				}
			}
		})
	}
}
