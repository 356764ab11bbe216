package crawler

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// TestRegionHintReachesRenderer crawls herald twice into one store with
// real Chromium, herald's pages sending an analytics beacon the server
// holds for a minute. The first crawl learns the site's templates, hints
// the region its own pair-diff extractions agree on to the pages that
// follow, and stores the rules; the second passes the body selectors of
// those rules to the renderer. Pages so hinted are ready by their content
// region (the note on the stored capture) instead of waiting for the
// beacon to count as a long request, and still hold their whole
// script-made body.
func TestRegionHintReachesRenderer(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages in Chromium")
	}
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("Chromium is needed (scripts/setup.sh installs it): %v", err)
	}
	w := ownFixtureWeb(t, fixtures.Options{Seed: 1, Slow: -1, CrawlDelay: -1, Beacon: time.Minute})
	var herald string
	for _, s := range w.Sites {
		if s.Name == "herald" {
			herald = s.Base
		}
	}
	r, err := browser.New(browser.Options{Tabs: 2, PageTimeout: 20 * time.Second, Guard: fixtureConfig(w, "").Guard(),
		Wait: browser.WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1, LongRequest: 2 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	db := tempDB(t)
	crawl := func(name string, pages int) *Crawler {
		cfg := fixtureConfig(w, name)
		cfg.Seeds = []string{herald + "/section/energy/"}
		cfg.Include = []string{"^" + regexp.QuoteMeta(herald) + "/news/energy/"}
		cfg.Fetcher, cfg.Workers, cfg.MaxPages, cfg.LearnAt, cfg.Strategy = r, 2, pages, 4, "shark"
		cfg.Timeout = 20 * time.Second
		c, err := New(db, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// The first crawl hints from its own pair-diff extractions once the
	// site is learned (LearnAt 4), before any rule is stored.
	crawl("learn", 12)
	checkRegionReady(t, db, w, "learn")
	c := crawl("hinted", 6)
	hint := c.learner.RegionHint(herald + "/")
	t.Logf("hint for herald: %q, at least %d chars", hint.ContentSelectors, hint.MinRegionChars)
	if len(hint.ContentSelectors) == 0 || hint.MinRegionChars == 0 {
		t.Fatalf("no body selector or no least length learned for herald: %+v", hint)
	}
	checkRegionReady(t, db, w, "hinted")
}

// checkRegionReady fails unless some page of the crawl was ready by its
// content region, and checks that each such page holds its whole gold body.
func checkRegionReady(t *testing.T, db *store.DB, w *fixtures.Server, crawl string) {
	t.Helper()
	metas, err := db.Pages(context.Background(), store.PageQuery{Dataset: Dataset(crawl)})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(metas))
	for i, m := range metas {
		ids[i] = m.ID
	}
	pages, err := db.Pages(context.Background(), store.PageQuery{IDs: ids, WithContent: true})
	if err != nil {
		t.Fatal(err)
	}
	byRegion := 0
	for _, p := range pages {
		if p.Capture == nil || !regionReadyNote(p.Capture.Notes) {
			continue
		}
		byRegion++
		info, err := w.Classify(p.URL)
		if err != nil || info.Article == nil {
			continue
		}
		text := normText(t, p.RenderedHTML)
		for _, g := range strings.Split(info.Article.Gold(), "\n") {
			if g = strings.Join(strings.Fields(g), " "); g != "" && !strings.Contains(text, g) {
				t.Errorf("%s, ready by its region, lacks gold text %.60q (notes %q)", p.URL, g, p.Capture.Notes)
			}
		}
	}
	if byRegion == 0 {
		for _, p := range pages {
			if p.Capture != nil {
				t.Logf("%s: %q", p.URL, p.Capture.Notes)
			}
		}
		t.Fatalf("crawl %s: none of its %d pages was ready by its content region", crawl, len(pages))
	}
	t.Logf("crawl %s: %d of %d pages ready by their content region", crawl, byRegion, len(pages))
}

func regionReadyNote(notes []string) bool {
	for _, n := range notes {
		if strings.HasPrefix(n, browser.NoteRegionReady) {
			return true
		}
	}
	return false
}

// normText is the whitespace-normalized text of an HTML document.
func normText(t *testing.T, html []byte) string {
	tree, err := treediff.Parse("page", html, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(tree.Root.Text()), " ")
}
