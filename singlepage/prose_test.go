package singlepage

import (
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

const proseArticle = `<p>The council voted on Tuesday to rebuild the old stone bridge over the river before the winter floods arrive.</p>
<p>Engineers said the work would take eighteen months and cost less than the repairs made over the last ten years.</p>
<p>Residents who cross the bridge every day to reach the market welcomed the decision at a crowded meeting.</p>`

// TestCuesWeighedAgainstProse checks that a boilerplate cue on an element
// holding most of the page's prose does not drop the article, while the
// same cue on a small box still does.
func TestCuesWeighedAgainstProse(t *testing.T) {
	comment := `<div class="comment"><p>I have crossed that bridge for forty years and never once seen it repaired properly by anyone at all.</p></div>`
	tests := []struct {
		name, html string
		want, not  string
	}{
		{"layout class on the wrapper", `<div class="layout right-rail with-navbar"><h1>Bridge to be rebuilt</h1>` + proseArticle + `</div><div class="sidebar"><p>Sidebar text</p></div>`,
			"Engineers said", "Sidebar"},
		{"taxonomy classes on the post", `<div class="post category-social-media tag-cookie-recipes category-worth-sharing">` + proseArticle + `</div>`,
			"Residents who cross", ""},
		{"hidden-label field wrapper", `<div class="field field--label-hidden preload-hidden">` + proseArticle + `</div><footer><p>Copyright notice and links</p></footer>`,
			"The council voted", "Copyright"},
		{"small comment box beside the article", `<article>` + proseArticle + `</article><div id="comments">` + comment + `</div>`,
			"The council voted", "forty years"},
		{"comment list holding most prose", `<article>` + proseArticle + `</article><div id="comments">` + strings.Repeat(comment, 5) + `</div>`,
			"The council voted", "forty years"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := treediff.Parse(tt.name, []byte("<html><body>"+tt.html+"</body></html>"), treediff.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Extract(tr, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(r.Body, tt.want) {
				t.Errorf("body lacks %q:\n%s", tt.want, r.Body)
			}
			if tt.not != "" && strings.Contains(r.Body, tt.not) {
				t.Errorf("body holds %q:\n%s", tt.not, r.Body)
			}
		})
	}
}
