package crawler

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/crawlcorpus"
	"github.com/gleaner/gleaner/eval"
)

// TestRenderedCrawl crawls the fixture site whose article bodies are
// inserted by a script, with real Chromium: the kept articles must hold
// their gold body, which the served HTML lacks.
func TestRenderedCrawl(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages in Chromium")
	}
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("Chromium is needed (scripts/setup.sh installs it): %v", err)
	}
	w := fixtureWeb(t)
	var herald string
	for _, s := range w.Sites {
		if s.Name == "herald" {
			herald = s.Base
		}
	}
	r, err := browser.New(browser.Options{Tabs: 2, PageTimeout: 20 * time.Second, Guard: fixtureConfig(w, "").Guard(), Wait: browser.WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	db := tempDB(t)
	cfg := fixtureConfig(w, "rendered")
	cfg.Seeds = []string{herald + "/section/energy/"}
	cfg.Include = []string{"^" + regexp.QuoteMeta(herald) + "/news/energy/"}
	cfg.Fetcher, cfg.Workers, cfg.MaxPages, cfg.LearnAt, cfg.Strategy = r, 2, 10, 4, "shark"
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	docs, err := crawlcorpus.Corpus(context.Background(), db, cfg.Name)
	if err != nil {
		t.Fatal(err)
	}
	scripted := 0
	var scores []eval.PageScore
	for _, d := range docs {
		info, err := w.Classify(d.URL)
		if err != nil || info.Article == nil || !info.Article.Scripted {
			continue
		}
		scripted++
		scores = append(scores, eval.ScorePage(d.URL, d.Site, info.Article.Gold(), d.Title+"\n\n"+d.Text))
	}
	t.Logf("%s; %d script-built articles kept", sum.Counters, scripted)
	if scripted < 3 {
		t.Fatalf("only %d script-built articles kept: %s", scripted, sum.Counters)
	}
	if s := eval.Summarize(scores); s.F1 < 0.9 {
		t.Errorf("extraction F1 %.3f on rendered script-built articles, want >= 0.9", s.F1)
	}
}
