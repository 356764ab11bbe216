package fixturescore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

// TestJudgement scores the crawler's decisions on pages it judged against
// the fixtures' truth; pages it did not judge do not count.
func TestJudgement(t *testing.T) {
	bases, err := fixtures.BaseURLs("127.0.0.1:8700", false)
	if err != nil {
		t.Fatal(err)
	}
	w, err := fixtures.New(fixtures.Options{Seed: 1, Articles: 20}, bases)
	if err != nil {
		t.Fatal(err)
	}
	var on, off []string
	for _, p := range w.Pages() {
		if p.Relevant {
			on = append(on, p.URL)
		} else if p.Article != nil {
			off = append(off, p.URL)
		}
	}
	if len(on) < 2 || len(off) < 2 {
		t.Fatalf("%d on-topic, %d off-topic pages", len(on), len(off))
	}
	judged := func(u string, relevant bool) crawler.FetchedURL {
		o := crawler.OutcomeIrrelevant
		if relevant {
			o = crawler.OutcomeValidated
		}
		return crawler.FetchedURL{URL: u, Outcome: o, Relevant: relevant}
	}
	for _, tc := range []struct {
		name              string
		fetched           []crawler.FetchedURL
		precision, recall float64
	}{
		{"none", nil, 0, 0},
		{"right", []crawler.FetchedURL{judged(on[0], true), judged(off[0], false)}, 1, 1},
		{"half", []crawler.FetchedURL{judged(on[0], true), judged(off[0], true), judged(on[1], false), judged(off[1], false)}, 0.5, 0.5},
		{"not judged", []crawler.FetchedURL{judged(on[0], true), {URL: on[1], Outcome: crawler.OutcomeDuplicate}}, 1, 1},
	} {
		p, r := Judgement(tc.fetched, w)
		if p != tc.precision || r != tc.recall {
			t.Errorf("%s: precision %v recall %v, want %v %v", tc.name, p, r, tc.precision, tc.recall)
		}
	}
}

// TestHarvests crawls the fixture web with two strategies and scores the
// crawls: each cut at the pages asked, its rates shares, and ScoreCrawl
// agrees with it on the same crawl.
func TestHarvests(t *testing.T) {
	ctx := context.Background()
	srv, err := fixtures.Start(ctx, fixtures.Options{Seed: 1, Articles: 20, Slow: -1, CrawlDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	hs, err := Harvests(ctx, srv, []string{"bfs", "opic"}, 25, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 || hs[0].Strategy != "bfs" || hs[1].Strategy != "opic" {
		t.Fatalf("harvests %+v", hs)
	}
	for _, h := range hs {
		if h.Pages < 1 || h.Pages > 25 || h.Rate < 0 || h.Rate > 1 || h.Own < 0 || h.Own > 1 {
			t.Errorf("%+v", h)
		}
	}
	db, err := store.Open(ctx, filepath.Join(dir, "bfs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sc, err := ScoreCrawl(ctx, db, "harvest-bfs", srv.Web)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Fetched < hs[0].Pages || sc.OnTopic > sc.Fetched || sc.KeptOnTopic > sc.Kept || sc.Kept > sc.Fetched {
		t.Errorf("score %+v against harvest %+v", sc, hs[0])
	}
	if sc.Fetched == hs[0].Pages && sc.HarvestRate() != hs[0].Rate {
		t.Errorf("harvest rate %v, Harvests says %v", sc.HarvestRate(), hs[0].Rate)
	}
}
