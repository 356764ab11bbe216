package singlepage

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// TestArticleLike checks the sanity test a second opinion must pass: the
// paragraphs of an article are article text, a list of teasers (an archive
// page) is not.
func TestArticleLike(t *testing.T) {
	var teasers, summaries []string
	for i := range 20 {
		head := fmt.Sprintf("Story number %d about the harbour and the new bridge plans", i)
		sum := fmt.Sprintf("The council said on day %d that the work on the bridge would start before the winter floods.", i)
		teasers = append(teasers, `<li><a href="/s`+fmt.Sprint(i)+`">`+head+`</a><p>`+sum+`</p></li>`)
		summaries = append(summaries, head, sum)
	}
	tests := []struct {
		name, html, body string
		want             bool
	}{
		{"article", "<article>" + proseArticle + "</article>", strings.Join([]string{
			"The council voted on Tuesday to rebuild the old stone bridge over the river before the winter floods arrive.",
			"Engineers said the work would take eighteen months and cost less than the repairs made over the last ten years.",
		}, "\n\n"), true},
		{"archive of teasers", "<ul>" + strings.Join(teasers, "") + "</ul>", strings.Join(summaries, "\n\n"), false},
	}
	for _, tt := range tests {
		tr, err := treediff.Parse(tt.name, []byte("<html><body>"+tt.html+"</body></html>"), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := articleLike(newPage(tr, Options{}.WithDefaults()), tt.body); got != tt.want {
			t.Errorf("%s: articleLike = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFuse checks the evidence that chooses between the block model's body
// and the second candidate's on one page.
func TestFuse(t *testing.T) {
	paras := []string{
		"The council voted on Tuesday to rebuild the old stone bridge over the river before the winter floods arrive.",
		"Engineers said the work would take eighteen months and cost less than the repairs made over the last ten years.",
		"Residents who cross the river every day welcomed the decision at a crowded meeting in the town hall.",
		"The mayor said the new bridge would carry buses and bicycles as well as cars when it opens.",
	}
	const comment = "What a waste of money, the old bridge was fine and everyone in town knows it."
	page := `<html><body><ul class="top"><li><a href="/">Home</a></li><li><a href="/w">World</a></li><li><a href="/b">Business</a></li><li><a href="/s">Sport</a></li></ul><main>` +
		"<p>" + strings.Join(paras, "</p><p>") + "</p></main>" +
		`<div class="comments"><p>` + comment + `</p></div></body></html>`
	tr, err := treediff.Parse("fuse", []byte(page), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(tr, Options{}.WithDefaults())
	body := func(ps ...string) string { return strings.Join(ps, "\n\n") }
	// An article of more than articleWords words, sharing few words with paras.
	var longArticle []string
	for i := range 12 {
		longArticle = append(longArticle, fmt.Sprintf("Paragraph %d of the report counts ships, cranes, quays and sheds along the eastern harbour wall.", i))
	}
	tests := []struct {
		name  string
		mine  string
		conf  float64
		other string
		want  bool
	}{
		{"no body of its own", "", 0, body(paras...), true},
		{"the same body", body(paras...), 1, body(paras...), false},
		{"a fragment of the other", body(paras[0]), 1, body(paras...), true},
		{"the other is a fragment", body(paras...), 0.5, body(paras[1]), false},
		{"the other adds a menu", body(paras...), 1, body(append([]string{"Home World Business Sport"}, paras...)...), false},
		{"the other adds comments", body(paras[:3]...), 1, body(append(paras[:3:3], "What a waste of money, the old bridge was fine and everyone in town knows it.")...), false},
		{"a sure long article, the other adds text and comments", body(longArticle...), 1, body(append(longArticle[:len(longArticle):len(longArticle)], append(paras[:4:4], comment)...)...), false},
		{"a sure long article, the other adds text alone", body(longArticle...), 1, body(append(longArticle[:len(longArticle):len(longArticle)], paras...)...), true},
		{"an unsure long body, the other adds text and comments", body(longArticle...), 0.5, body(append(longArticle[:len(longArticle):len(longArticle)], append(paras[:4:4], comment)...)...), true},
		{"disjoint, sure", body(paras[0], paras[1]), 0.9, body(paras[2], paras[3]), false},
		{"disjoint, unsure", body(paras[0], paras[1]), 0.3, body(paras[2], paras[3]), true},
	}
	for _, tt := range tests {
		r := Result{Body: tt.mine, Confidence: tt.conf}
		if got := fuse(r, p, tt.other, DefaultSecondOpinionBelow); got != tt.want {
			t.Errorf("%s: fuse = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSecondOpinionAskedOnce checks that the other extractors are asked at
// most once per page, and not at all beyond their bound: the calibration
// reads the agreement the choice measured (a page of many short blocks
// ran go-trafilatura there once more, unbounded, and took 56x the time at
// 10x the blocks).
func TestSecondOpinionAskedOnce(t *testing.T) {
	cases := []struct {
		name   string
		blocks int
		known  bool
	}{
		{"within the bound", 200, true},
		{"beyond the bound", maxSecondOpinionBlocks + 1000, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("<html><head><title>Many blocks</title></head><body><div id=main>")
			for i := range c.blocks {
				if i%10 == 9 {
					fmt.Fprintf(&b, "<p>Paragraph %d is long enough to count as article text on its own, with a dozen words and more.</p>", i)
					continue
				}
				fmt.Fprintf(&b, "<p>Item %d here</p>", i)
			}
			b.WriteString("</div></body></html>")
			src := []byte(b.String())
			tr, err := treediff.Parse("blocks", src, treediff.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Extract(tr, Options{Source: src})
			if err != nil {
				t.Fatal(err)
			}
			if r.Evidence == nil {
				t.Fatal("no evidence")
			}
			if known := r.Evidence.Agreement >= 0; known != c.known {
				t.Errorf("agreement %.3f: known %v, want %v", r.Evidence.Agreement, known, c.known)
			}
		})
	}
}

// TestOtherExtractorsSkipNoscript reads pages built by script that give
// their text in <noscript> with the other extractors asked: the body is
// never the <noscript> markup shown as text, nor the script shell's line.
func TestOtherExtractorsSkipNoscript(t *testing.T) {
	tests := []struct {
		file    string
		want    []string
		notWant []string
	}{
		{"noscript-thread.html", nil, []string{"<div", "<p>", "<a href", "works best with JavaScript"}},
		// A shell showing only a loading line: the other extractors read
		// the page with its <noscript> shown, not the shell's line.
		{"noscript-shell.html", []string{"Post number 0", "Post number 4"}, []string{"Something went wrong", "Skip to content"}},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, "gather", tt.file)
		r, err := Extract(tr, Options{Source: src})
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		checkBody(t, tt.file, r.Body, tt.want, tt.notWant)
	}
}
