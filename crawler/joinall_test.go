package crawler

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

// TestWorkOnRunning: without a running crawl, exitIdle returns at once;
// with one (paused, then resumed with URLs queued), it is joined once
// however often the crawls are looked for, and work's error is logged.
func TestWorkOnRunning(t *testing.T) {
	ctx := context.Background()
	db := tempDB(t)
	never := func(context.Context, string) error { t.Error("work on no crawl"); return nil }
	if err := WorkOnRunning(ctx, db, time.Millisecond, true, never, func(error) {}); err != nil {
		t.Fatal(err)
	}
	if err := Exists(ctx, db, "pause"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Exists before the crawl: %v", err)
	}
	pausedCrawl(t, db, "pause")
	if err := Exists(ctx, db, "pause"); err != nil {
		t.Errorf("Exists: %v", err)
	}
	var mu sync.Mutex
	var joined []string
	var logged []error
	boom := errors.New("boom")
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := func(_ context.Context, name string) error {
		mu.Lock()
		defer mu.Unlock()
		joined = append(joined, name)
		// The crawl stays running: many more polls find it before the end.
		time.AfterFunc(200*time.Millisecond, cancel)
		return boom
	}
	err := WorkOnRunning(wctx, db, 5*time.Millisecond, true, work, func(err error) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, err)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(joined, []string{"pause"}) || len(logged) != 1 || !errors.Is(logged[0], boom) {
		t.Errorf("joined %v, logged %v; want the crawl once, its error once", joined, logged)
	}
}

// pausedCrawl leaves in db a crawl of the fixture web paused after a few
// pages, then resumed: running, with URLs queued.
func pausedCrawl(t *testing.T, db *store.DB, name string) {
	t.Helper()
	ctx := context.Background()
	cfg := fixtureConfig(fixtureWeb(t), name)
	cfg.LearnAt, cfg.MaxPages, cfg.Workers = -1, 40, 1
	cfg.Progress = func(p Progress) {
		if p.Counters.Tried == 2 {
			if err := Pause(ctx, db, name); err != nil {
				t.Error(err)
			}
		}
	}
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := c.Run(ctx); err != nil || sum.Stop != StopPaused {
		t.Fatalf("run: stop %s, %v", sum.Stop, err)
	}
	if err := Resume(ctx, db, name); err != nil {
		t.Fatal(err)
	}
}

// TestWorkOnRunningEndsWhileLooking: a context that ends while the running
// crawls are being looked up ends the wait, without an error.
func TestWorkOnRunningEndsWhileLooking(t *testing.T) {
	db := tempDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	never := func(context.Context, string) error { t.Error("work after the end"); return nil }
	if err := WorkOnRunning(ctx, db, time.Millisecond, false, never, func(error) {}); err != nil {
		t.Errorf("ended context: %v, want nil", err)
	}
}
