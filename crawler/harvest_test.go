package crawler

import (
	"context"
	"testing"

	"github.com/gleaner/gleaner/relevance"
)

// TestHarvestRate crawls 200 pages of the fixture web with each strategy and
// checks that the focused ones (OPIC, Shark-Search) harvest at least 1.5
// times as many on-topic pages as breadth-first (ground truth of the
// fixtures). One worker and no delay make the order reproducible.
func TestHarvestRate(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 600 pages")
	}
	w := fixtureWeb(t)
	rates := map[string]float64{}
	for _, s := range []string{"bfs", "opic", "shark"} {
		db := tempDB(t)
		cfg := fixtureConfig(w, "harvest-"+s)
		// Template learning is left out: this test is about the order of
		// the frontier, and single-page extraction keeps it fast.
		cfg.Strategy, cfg.Workers, cfg.Delay, cfg.MaxPages, cfg.LearnAt = s, 1, -1, 200, -1
		c, err := New(db, cfg)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := c.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		h, n := groundHarvest(t, w, db, cfg.Name, 200)
		rates[s] = h
		// The crawler's own judgement, after calibration, on the pages it
		// judged: precision and recall against the ground truth.
		fetched, _ := Fetched(context.Background(), db, cfg.Name)
		var tp, fp, fn int
		for _, f := range fetched {
			if f.Outcome != OutcomeValidated && f.Outcome != OutcomeIrrelevant {
				continue
			}
			truth := w.Relevant(f.URL)
			switch {
			case f.Relevant && truth:
				tp++
			case f.Relevant:
				fp++
			case truth:
				fn++
			}
		}
		p, r := float64(tp)/float64(max(1, tp+fp)), float64(tp)/float64(max(1, tp+fn))
		t.Logf("%-5s judgement precision %.3f recall %.3f", s, p, r)
		if sum.Threshold == relevance.DefaultThreshold || p < 0.75 || r < 0.6 {
			t.Errorf("%s: threshold %.3f (calibrated?), judgement precision %.3f recall %.3f, want >= 0.75 and >= 0.6", s, sum.Threshold, p, r)
		}
		t.Logf("%-5s harvest %.3f over %d pages (crawler's own: %.3f; %s; threshold %.3f; stop %s, %v)", s, h, n,
			sum.Counters.HarvestRate(), sum.Counters, sum.Threshold, sum.Stop, sum.Elapsed.Round(1e6))
		if n != 200 {
			t.Errorf("%s: %d pages fetched, want 200", s, n)
		}
	}
	for _, s := range []string{"opic", "shark"} {
		if rates[s] < 1.5*rates["bfs"] {
			t.Errorf("%s harvest %.3f < 1.5 x breadth-first %.3f", s, rates[s], rates["bfs"])
		}
	}
}
