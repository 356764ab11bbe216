package export

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

// scriptMadeArticles returns, per fixture site, the first article whose
// body the served HTML lacks (JavaScript makes it), with its gold
// paragraphs.
func scriptMadeArticles(t *testing.T, w *fixtures.Server, sites ...string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	plain := &browser.HTTPFetcher{Guard: loopbackGuard}
	for _, s := range w.Sites {
		if !contains(sites, s.Name) {
			continue
		}
		for _, a := range s.Articles {
			if !a.Kind.IsArticle() {
				continue
			}
			u := w.ArticleURL(a)
			p, err := plain.Fetch(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			gold := strings.Fields(a.Gold())
			last := strings.Join(gold[len(gold)-6:], " ")
			if strings.Contains(strings.Join(strings.Fields(p.HTML), " "), last) {
				continue // served with its body
			}
			out[u] = []string{a.Gold(), last}
			break
		}
	}
	if len(out) != len(sites) {
		t.Fatalf("script-made articles of %v: %d", sites, len(out))
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestReplayFixtureArticles captures script-made articles of the fixture
// web (herald's body comes as JSON the server delays; pulse is a
// single-page application), packages them as WACZ and replays each in
// wabac.js with the fixture web shut down: the replayed page must show
// the live render's text (shingle F1 ≥ 0.99) and as much of the gold body
// as the live render (the page's text and the gold differ slightly in
// where blocks break).
func TestReplayFixtureArticles(t *testing.T) {
	if _, err := os.Stat(wabacSW); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have wabac.js (scripts/setup.sh): %v", err)
		}
		t.Skip("wabac.js missing: run scripts/setup.sh")
	}
	w, err := fixtures.Start(context.Background(), fixtures.Options{Seed: 1, Articles: 12})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	arts := scriptMadeArticles(t, w, "herald", "pulse")
	st := recordPages(t, arts)
	out := t.TempDir()
	if _, err := Corpus(context.Background(), st, nil, CorpusOptions{Formats: []string{"wacz"}, Out: out, Dataset: "crawl:fixtures"}); err != nil {
		t.Fatal(err)
	}
	ctx := headless(t)
	live := map[string]string{}
	for u, a := range arts {
		run(t, ctx, chromedp.Navigate(u))
		if err := waitFor(ctx, `document.body && document.body.innerText.replace(/\s+/g, " ").includes(`+jsString(a[1])+`)`, 30*time.Second); err != nil {
			t.Fatalf("%s: the live render never showed its body: %v", u, err)
		}
		live[u] = settledText(t, ctx, `document`)
	}
	w.Close() // the network is cut: only the archive answers
	replay := replayServer(t, filepath.Join(out, "corpus.wacz"))
	loadCollection(t, ctx, replay.URL)
	for u, a := range arts {
		text := replayInFrame(t, ctx, replay.URL+"/replay/w/test/mp_/"+u, `document.body && document.body.innerText.replace(/\s+/g, " ").includes(`+jsString(a[1])+`)`)
		c := eval.ShingleCounts(live[u], text)
		f1 := 2 * c.TP / max(2*c.TP+c.FP+c.FN, 1e-9)
		recall, liveRecall := goldRecall(a[0], text), goldRecall(a[0], live[u])
		t.Logf("%s replayed offline: shingle F1 %.3f against the live render; gold body shingle recall %.3f (live render: %.3f)", u, f1, recall, liveRecall)
		if f1 < 0.99 || recall < liveRecall-0.001 {
			t.Errorf("%s: replayed %q\nlive %q", u, text, live[u])
		}
	}
}

// recordPages renders urls with recording on and stores them, each with
// an extraction, as a crawl would.
func recordPages(t *testing.T, urls map[string][]string) store.Store {
	t.Helper()
	r, err := browser.New(browser.Options{Tabs: 1, PageTimeout: 20 * time.Second, Guard: loopbackGuard, Record: browser.RecordOptions{On: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for u, a := range urls {
		p, err := r.Fetch(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := capture.ToStore(u, "crawl:fixtures", store.SiteFromDomain, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.PutPages(ctx, []*store.Page{sp}); err != nil {
			t.Fatal(err)
		}
		if err := st.PutExtractions(ctx, []store.Extraction{{PageID: sp.ID, Title: p.Title, Body: a[0]}}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// goldRecall is the share of the gold text's shingles found in text.
func goldRecall(gold, text string) float64 {
	c := eval.ShingleCounts(gold, text)
	return c.TP / max(c.TP+c.FN, 1e-9)
}
