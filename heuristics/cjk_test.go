package heuristics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// TestCJKBody checks that a page written without spaces between words
// (Japanese) yields its article, by the single-page method and by the pair
// diff: its paragraphs are long in characters though each is "one word" to
// a space-based count.
func TestCJKBody(t *testing.T) {
	parse := func(dir, name string) *treediff.Tree {
		t.Helper()
		src, err := os.ReadFile(filepath.Join("testdata", dir, name))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := treediff.Parse(name, src, treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	want := []string{"市議会は二十日", "工事は来年春に始まり", "住民説明会を年内に開く"}
	not := []string{"関連記事", "Copyright", "カテゴリー", "山間部"}
	single, err := singlepage.Extract(parse(filepath.Join("..", "..", "singlepage", "testdata", "single"), "ja-article.html"), singlepage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pair, err := PairDiff(parse("pair", "ja-page.html"), parse("pair", "ja-medoid.html"), PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []singlepage.Result{single, pair} {
		if r.Title != "港の再開発計画が決定" {
			t.Errorf("%s: title %q", r.Method, r.Title)
		}
		for _, w := range want {
			if !strings.Contains(r.Body, w) {
				t.Errorf("%s: body lacks %q:\n%s", r.Method, w, r.Body)
			}
		}
		for _, w := range not {
			if strings.Contains(r.Body, w) {
				t.Errorf("%s: body holds %q:\n%s", r.Method, w, r.Body)
			}
		}
	}
}
