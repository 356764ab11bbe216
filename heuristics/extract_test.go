package heuristics

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/internal/sharedpages"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

func TestExtract(t *testing.T) {
	page, src, want := storyPage(t, "2")
	medoid, _, _ := storyPage(t, "1")
	rule := Rules{Body: Rule{Field: FieldBody, Selector: "div#page > div.story > div.story-body", Votes: 3, Pages: 3, Support: 1}}
	weak := Rules{Body: Rule{Field: FieldBody, Selector: "div#page", Votes: 1, Pages: 4, Support: 0.25}}
	cases := []struct {
		name   string
		in     Input
		opt    ExtractOptions
		method string
	}{
		{"no medoid, no rule: single page", Input{Page: page, Src: src}, ExtractOptions{}, singlepage.MethodSingle},
		{"medoid: pair diff", Input{Page: page, Src: src, Medoid: medoid}, ExtractOptions{}, singlepage.MethodPair},
		{"medoid and rule: pair diff", Input{Page: page, Src: src, Medoid: medoid, Rules: rule}, ExtractOptions{}, singlepage.MethodPair},
		{"no medoid, rule: cluster rule", Input{Page: page, Src: src, Rules: rule}, ExtractOptions{}, singlepage.MethodCluster},
		{"rules first", Input{Page: page, Src: src, Medoid: medoid, Rules: rule}, ExtractOptions{RulesFirst: true}, singlepage.MethodCluster},
		{"weak rule ignored", Input{Page: page, Src: src, Rules: weak}, ExtractOptions{}, singlepage.MethodSingle},
		{"unsure pair diff settled by the rule", Input{Page: page, Src: src, Medoid: medoid, Rules: rule}, ExtractOptions{MinConfidence: 0.99}, singlepage.MethodCluster},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Extract(c.in, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Method != c.method {
				t.Errorf("method %q, want %q", r.Method, c.method)
			}
			if singlepage.NormWords(r.Body) != singlepage.NormWords(want) {
				t.Errorf("body:\n%s\nwant:\n%s", r.Body, want)
			}
			if r.Title != "Council delays the river vote" || r.Date != "2024-03-02T10:00:00Z" || r.Author != "Ann Writer" {
				t.Errorf("title %q date %q author %q", r.Title, r.Date, r.Author)
			}
			// A compared body's agreement with the block model's is
			// evidence for its confidence; the block model's own has none.
			if compared := c.method != singlepage.MethodSingle; r.Evidence == nil || compared != (r.Evidence.Block >= 0.9) ||
				!compared && r.Evidence.Block != -1 {
				t.Errorf("evidence %+v", r.Evidence)
			}
		})
	}
	if _, err := Extract(Input{}, ExtractOptions{}); err == nil {
		t.Error("no page: no error")
	}
}

func TestRefine(t *testing.T) {
	single := singlepage.Result{Title: "Headline", Body: "A long first paragraph of the article that both methods keep.\n\nShort kept line"}
	const long = "A long first paragraph of the article that both methods keep."
	cases := []struct {
		name, body, want string
	}{
		{"short line only the pair diff kept", "By a reporter\n\n" + long, long + "\n\nShort kept line"},
		{"short line both kept", "Short kept line\n\nPhoto: someone", long + "\n\nShort kept line"},
		{"long line only the pair diff kept", long + "\n\nA paragraph that the single page method missed but long enough to stay.",
			long + "\n\nShort kept line\n\nA paragraph that the single page method missed but long enough to stay."},
		{"same words cut differently", "A long first paragraph of the\narticle that both methods keep.\n\nShort kept line",
			"A long first paragraph of the\narticle that both methods keep.\n\nShort kept line"},
		{"blank lines collapse", "Headline\n\n\n\n" + long, "Headline\n\n" + long + "\n\nShort kept line"},
	}
	for _, c := range cases {
		got := refine(singlepage.Result{Body: c.body}, single, 12, "")
		if got.Body != c.want {
			t.Errorf("%s: refine(%q) = %q, want %q", c.name, c.body, got.Body, c.want)
		}
	}
	if got := refine(singlepage.Result{Body: "x"}, singlepage.Result{}, 12, ""); got.Body != "x" {
		t.Errorf("empty single result: %q", got.Body)
	}
}

func TestExtractSite(t *testing.T) {
	var pages []SitePage
	var wants []string
	for _, n := range []string{"1", "2", "3"} {
		tree, src, want := storyPage(t, n)
		pages = append(pages, SitePage{Page: tree, Src: src, Cluster: 0})
		wants = append(wants, want)
	}
	// Story 1 is the medoid, compared with story 2; a fourth page is an
	// outlier.
	pages[0].Medoid, pages[1].Medoid, pages[2].Medoid = 1, 0, 0
	out, err := ExtractSite(context.Background(), append(pages, SitePage{Page: pages[2].Page, Cluster: -1, Medoid: -1}), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out.Results[:3] {
		if out.Errs[i] != nil {
			t.Fatal(out.Errs[i])
		}
		if r.Method != singlepage.MethodPair || singlepage.NormWords(r.Body) != singlepage.NormWords(wants[i]) {
			t.Errorf("page %d: %s %q", i, r.Method, r.Body)
		}
	}
	if r := out.Results[3]; r.Method != singlepage.MethodSingle || singlepage.NormWords(r.Body) != singlepage.NormWords(wants[2]) {
		t.Errorf("outlier: %s %q", r.Method, r.Body)
	}
	rs, ok := out.Rules[0]
	if !ok || rs.Body.Selector != "div#page > div.story > div.story-body" || rs.Body.Votes != 3 || rs.Body.Support != 1 {
		t.Errorf("body rule %+v", rs.Body)
	}
	if rs.Title.Selector != "div#page > div.story > h1.headline" {
		t.Errorf("title rule %+v", rs.Title)
	}
	if _, ok := out.Rules[-1]; ok {
		t.Error("outliers voted a rule")
	}

	// Known rules, rules first: no pair diff, the same bodies.
	fast, err := ExtractSite(context.Background(), pages, ExtractOptions{RulesFirst: true, Rules: out.Rules})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range fast.Results {
		if r.Method != singlepage.MethodCluster || singlepage.NormWords(r.Body) != singlepage.NormWords(wants[i]) {
			t.Errorf("rules first, page %d: %s %q", i, r.Method, r.Body)
		}
	}

	bad := []SitePage{{Page: pages[0].Page, Cluster: 0, Medoid: 0}}
	if _, err := ExtractSite(context.Background(), bad, ExtractOptions{}); err == nil || !strings.Contains(err.Error(), "medoid") {
		t.Errorf("page its own medoid: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ExtractSite(ctx, pages, ExtractOptions{}); err == nil {
		t.Error("cancelled: no error")
	}
}

// BenchmarkExtract measures pages/s of Extract on big9-dev (pair diff
// against the next page, single-page check of short lines, metadata;
// parsing excluded): compare with BenchmarkExtractSingle.
func BenchmarkExtract(b *testing.B) {
	pages := sharedpages.Pages(b, "big9-dev")
	n := 0
	for b.Loop() {
		p, m := pages[n%len(pages)], pages[(n+1)%len(pages)]
		n++
		if _, err := Extract(Input{Page: p.Tree, Src: p.Src, Medoid: m.Tree}, ExtractOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// TestExtractCalibrates checks that Extract calibrates its result as
// singlepage.Extract does, keeping its method's confidence apart.
func TestExtractCalibrates(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "pagetype", "testdata", "pagetype", "article.html"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := treediff.Parse("article", src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Extract(Input{Page: tr, Src: src}, ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.PageType == "" || r.Evidence == nil || r.RawConfidence != r.Evidence.Raw {
		t.Errorf("Extract: page type %q, evidence %+v", r.PageType, r.Evidence)
	}
}

// TestExtractTemplateSingleBody: where the pair diff is not confident and
// the single-page body is text its template medoid shows too (an about box
// printed on every page), the pair diff's differing text is the content.
func TestExtractTemplateSingleBody(t *testing.T) {
	for _, c := range bothWays {
		t.Run(c.page, func(t *testing.T) {
			page, src, want, medoid := testdataPair(t, "about", c.page, c.medoid)
			single, err := singlepage.Extract(page, singlepage.Options{Source: src})
			if err != nil {
				t.Fatal(err)
			}
			pr, err := PairDiff(page, medoid, PairOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Extract(Input{Page: page, Src: src, Medoid: medoid}, ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("single %q (%s); pair confidence %.3f", single.Body, single.Selector, pr.Confidence)
			if r.Method != singlepage.MethodPair || singlepage.NormWords(r.Body) != singlepage.NormWords(want) {
				t.Errorf("method %q body %q, want the pair diff's %q", r.Method, r.Body, want)
			}
		})
	}
}

// TestAloneReadsNoscript extracts, with no template, pages built by script
// that give their text in <noscript> only: the site method reads them
// alone as the single-page method does, from <noscript>, whether the
// block model finds no body or a short one.
func TestAloneReadsNoscript(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"noscript-thread.html", []string{"Reply number 0", "Reply number 4"}},
		// A short body shown (a loading notice): read from <noscript>
		// too, as the single-page method reads it.
		{"noscript-loading.html", []string{"Reply number 0", "Reply number 4"}},
	}
	for _, tt := range tests {
		src, err := os.ReadFile(filepath.Join("testdata", "alone", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := treediff.Parse(tt.file, src, treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Extract(Input{Page: tr, Src: src}, ExtractOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.Body, w) {
				t.Errorf("%s: body lacks %q:\n%s", tt.file, w, r.Body)
			}
		}
	}
}
