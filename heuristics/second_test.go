package heuristics

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
		if got := articleLike(newPage(tr, SingleOptions{}.withDefaults()), tt.body); got != tt.want {
			t.Errorf("%s: articleLike = %v, want %v", tt.name, got, tt.want)
		}
	}
}
