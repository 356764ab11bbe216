package heuristics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/internal/sharedpages"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// storyPage parses testdata/pair/story-N.html and its expected body words.
func storyPage(t *testing.T, n string) (*treediff.Tree, []byte, string) {
	t.Helper()
	return testdataPage(t, "pair", "story-"+n)
}

// testdataPage reads testdata/dir/name.html parsed, its source and the
// expected body, testdata/dir/name.body.txt.
func testdataPage(t *testing.T, dir, name string) (*treediff.Tree, []byte, string) {
	t.Helper()
	path := filepath.Join("testdata", dir, name+".html")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := treediff.Parse(path, src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join("testdata", dir, name+".body.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return tree, src, string(body)
}

// bothWays are the two pages of a testdata pair, each compared with the
// other as its medoid.
var bothWays = []struct{ page, medoid string }{{"1", "2"}, {"2", "1"}}

// testdataPair reads testdata/dir/page-<page> as testdataPage does, with
// page-<medoid> as its medoid.
func testdataPair(t *testing.T, dir, page, medoid string) (*treediff.Tree, []byte, string, *treediff.Tree) {
	t.Helper()
	p, src, want := testdataPage(t, dir, "page-"+page)
	m, _, _ := testdataPage(t, dir, "page-"+medoid)
	return p, src, want, m
}

func TestPairDiff(t *testing.T) {
	cases := []struct {
		page, medoid string
		title        string
		exact        bool
	}{
		{"1", "2", "Bridge plan cost rises again", false},
		{"2", "3", "Council delays the river vote", false},
		{"3", "1", "Engineers question traffic data", false},
		{"1", "3", "Bridge plan cost rises again", true},
	}
	for _, c := range cases {
		t.Run(c.page+"-vs-"+c.medoid, func(t *testing.T) {
			page, _, want := storyPage(t, c.page)
			medoid, _, _ := storyPage(t, c.medoid)
			r, err := PairDiff(page, medoid, PairOptions{Align: AlignOptions{Exact: c.exact}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Method != singlepage.MethodPair {
				t.Errorf("method %q", r.Method)
			}
			// The story body wins over the longer, also changing, comments.
			if r.Selector != "div#page > div.story > div.story-body" {
				t.Errorf("selector %q", r.Selector)
			}
			if r.Title != c.title {
				t.Errorf("title %q, want %q", r.Title, c.title)
			}
			if got, w := singlepage.NormWords(r.Body), singlepage.NormWords(want); got != w {
				t.Errorf("body\n%s\nwant\n%s", r.Body, want)
			}
			if strings.Count(r.Body, "\n\n") != strings.Count(strings.TrimSpace(want), "\n\n") {
				t.Errorf("paragraph breaks lost:\n%s", r.Body)
			}
			if r.Confidence < 0.5 || r.Confidence > 1 {
				t.Errorf("confidence %v", r.Confidence)
			}
			if r.Node == nil || selector.Of(r.Node) != r.Selector {
				t.Errorf("node %v does not match selector %q", r.Node, r.Selector)
			}
		})
	}
}

func TestPairDiffNothingDiffers(t *testing.T) {
	page, _, _ := storyPage(t, "1")
	same, _, _ := storyPage(t, "1")
	r, err := PairDiff(page, same, PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Node != nil || r.Body != "" || r.Confidence != 0 {
		t.Errorf("identical pages: %+v", r)
	}
}

func TestPairDiffErrors(t *testing.T) {
	page, _, _ := storyPage(t, "1")
	if _, err := PairDiff(nil, page, PairOptions{}); err == nil {
		t.Error("nil page: no error")
	}
	if _, err := PairDiff(page, &treediff.Tree{}, PairOptions{}); err == nil || !strings.Contains(err.Error(), "medoid") {
		t.Errorf("empty medoid: %v", err)
	}
}

func TestTextWithout(t *testing.T) {
	tree, err := treediff.Parse("t", []byte("<div><p>one\ntwo</p><p class=x>skip me</p><p>three <b>four</b></p><pre>a\nb</pre></div>"), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var div, skip *treediff.Node
	for _, n := range tree.Nodes {
		if n.Label == "div" {
			div = n
		}
		if _, ok := n.Attr("class"); ok {
			skip = n
		}
	}
	got := textWithout(div, map[*treediff.Node]bool{skip: true})
	if want := "one two\n\nthree four\n\na\nb"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// BenchmarkPairDiff measures pages/s of the pair diff on big9-dev, each page
// against the next page of the same site and era (parsing excluded).
func BenchmarkPairDiff(b *testing.B) {
	pages := sharedpages.Pages(b, "big9-dev")
	for _, exact := range []bool{false} {
		b.Run("fast", func(b *testing.B) {
			n := 0
			for b.Loop() {
				p, m := pages[n%len(pages)], pages[(n+1)%len(pages)]
				n++
				if _, err := PairDiff(p.Tree, m.Tree, PairOptions{Align: AlignOptions{Exact: exact}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// TestPairDiffHostile: deep nesting and wide, repetitive pages are handled
// in bounded time, without error or panic.
func TestPairDiffHostile(t *testing.T) {
	deep := func(words string) []byte {
		return []byte(strings.Repeat("<div>", 5000) + words + strings.Repeat("</div>", 5000))
	}
	wide := func(w string) []byte {
		return []byte("<ul>" + strings.Repeat("<li><a href=x>"+w+" item</a></li>", 20000) + "</ul><p>" + strings.Repeat(w+" ", 3000) + "</p>")
	}
	cases := []struct {
		name string
		a, b []byte
	}{
		{"deep", deep("story words here and there"), deep("other words entirely")},
		{"wide", wide("one"), wide("two")},
		{"empty body", []byte("<p></p>"), []byte("<p>x</p>")},
	}
	for _, c := range cases {
		a, err := treediff.Parse("a", c.a, treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := treediff.Parse("b", c.b, treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := PairDiff(a, b, PairOptions{}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestComparables(t *testing.T) {
	medoid, err := treediff.Parse("m", []byte(`<div id="a"><p>Same words here</p></div><div class="b"><p>old story</p></div>`), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	page, err := treediff.Parse("p", []byte(`<div id="a"><p>here words same</p></div><div class="b"><p>new story text</p></div><div class="c">x</div>`), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mv, pv := medoid.View(treediff.TokenView), page.View(treediff.TokenView)
	c := comparables{medoid: mv}
	want := map[string]bool{"a": true, "b": false, "c": false}
	for _, n := range pv.Nodes {
		if n.Label != "div" {
			continue
		}
		key, _ := n.Attr("id")
		if key == "" {
			key, _ = n.Attr("class")
		}
		if got := c.template(n); got != want[key] {
			t.Errorf("div %s: template %v, want %v", key, got, want[key])
		}
	}
}
