package crawler

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/gleaner/gleaner/fixtures"
)

// TestOneLoopAloneAndAsWorker runs the one scheduling loop both ways on
// SQLite: a crawl run alone (owner), then the same URLs as a shared crawl
// of one worker (Create, Join: leases, database host slots, jobs). The
// worker tries as many URLs, leaves nothing leased, keeps the same corpus
// and is as polite as the owner.
func TestOneLoopAloneAndAsWorker(t *testing.T) {
	ctx := context.Background()
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 5, Slow: -1, CrawlDelay: -1, Articles: 4})
	alone := tempDB(t)
	cfg := sharedConfig(srv, "alone")
	cfg.MaxPages = 25
	c, err := New(alone, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fetched, err := Fetched(ctx, alone, "alone")
	if err != nil || len(fetched) == 0 {
		t.Fatalf("alone: %d URLs fetched, %v", len(fetched), err)
	}
	aloneEnd := time.Now()

	shared := tempDB(t)
	wcfg := sharedConfig(srv, "worker")
	wcfg.MaxPages = cfg.MaxPages
	for _, f := range fetched {
		wcfg.Include = append(wcfg.Include, "^"+regexp.QuoteMeta(f.URL)+"$")
	}
	if err := Create(ctx, shared, wcfg); err != nil {
		t.Fatal(err)
	}
	w, err := Join(ctx, shared, wcfg.Name, JoinOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wsum, err := w.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Summary{sum, wsum} {
		if s.Counters.Leased != 0 || s.Counters.Tried == 0 {
			t.Errorf("%s: stop %s, %s: want URLs tried and none left leased", s.Name, s.Stop, s.Counters)
		}
	}
	if wsum.Counters.Tried != sum.Counters.Tried || (wsum.Stop != StopExhausted && wsum.Stop != StopMaxPages) {
		t.Errorf("worker: stop %s, %s; alone: stop %s, %s", wsum.Stop, wsum.Counters, sum.Stop, sum.Counters)
	}
	checkPolite(t, hitsSince(srv, aloneEnd), wcfg.Delay)
	sameCorpus(t, alone, "alone", shared, wcfg.Name)
}
