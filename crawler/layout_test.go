package crawler

import (
	"context"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// TestLayoutImprovesExtraction renders script-built articles of one
// template in Chromium, stores them as the crawler does, and extracts them
// as a site (pair diff against a medoid, cluster rules) twice: reading
// every element, then, as the crawler does, only those the browser showed
// (capture.Visible). The articles hold in their body container a
// summary of another story that the stylesheet hides; it varies from page
// to page like the body, so without layout it is taken for article text.
func TestLayoutImprovesExtraction(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages in Chromium")
	}
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("Chromium is needed (scripts/setup.sh installs it): %v", err)
	}
	w := fixtureWeb(t)
	var site *fixtures.Site
	for _, s := range w.Sites {
		if s.Name == "herald" {
			site = s
		}
	}
	var arts []*fixtures.Article
	for _, a := range site.Articles {
		if a.Scripted && a.Kind == fixtures.KindArticle && len(arts) < 8 {
			arts = append(arts, a)
		}
	}
	if len(arts) < 4 {
		t.Fatalf("only %d script-built articles", len(arts))
	}
	r, err := browser.New(browser.Options{Tabs: 2, PageTimeout: 20 * time.Second, Guard: fixtureConfig(w, "").Guard(), Wait: browser.WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	pages := make([]heuristics.SitePage, len(arts))
	visible := make([]func(*treediff.Node) bool, len(arts))
	for i, a := range arts {
		u := site.URL(a.Path)
		p, err := r.Fetch(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := capture.ToStore(u, "", store.SiteFromHost, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := treediff.Parse(sp.Name(), sp.HTML(), treediff.ParseOptions{ContentType: sp.ContentType})
		if err != nil {
			t.Fatal(err)
		}
		if visible[i], err = capture.Visible(sp); err != nil || visible[i] == nil {
			t.Fatalf("%s: no layout to read: %v", u, err)
		}
		// Page 0 is the template's medoid, compared with page 1.
		pages[i] = heuristics.SitePage{Page: tree, Src: sp.HTML(), Cluster: 0, Medoid: 0}
	}
	pages[0].Medoid = 1
	f1 := map[bool]float64{}
	for _, layout := range []bool{false, true} {
		for i := range pages {
			pages[i].Visible = nil
			if layout {
				pages[i].Visible = visible[i]
			}
		}
		out, err := heuristics.ExtractSite(ctx, pages, heuristics.ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var scores []eval.PageScore
		for i, res := range out.Results {
			if out.Errs[i] != nil {
				t.Fatal(out.Errs[i])
			}
			scores = append(scores, eval.ScorePage(arts[i].Path, site.Name, arts[i].Gold(), res.Title+"\n\n"+res.Body))
		}
		s := eval.Summarize(scores)
		f1[layout] = s.F1
		t.Logf("layout %v: %d pages, F1 %.4f, precision %.4f, recall %.4f", layout, s.Pages, s.F1, s.Precision, s.Recall)
	}
	if f1[true] <= f1[false] {
		t.Errorf("F1 with layout %.4f, not above without %.4f", f1[true], f1[false])
	}
	if f1[true] < 0.95 {
		t.Errorf("F1 with layout %.4f, want >= 0.95", f1[true])
	}
}
