package crawler

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gleaner/gleaner/store"
)

// WorkOnRunning makes this process a worker of every running crawl of db
// (RunningCrawls): work runs on each in its own goroutine, and the crawls
// that start later are joined as they are found (looked for every poll),
// until ctx ends or, with exitIdle, no crawl is running. A crawl is joined
// once: one stopped by a limit keeps URLs queued and is not joined again
// by this process. work's errors go to logErr, unless ctx has ended. It
// returns once every work has.
func WorkOnRunning(ctx context.Context, db *store.DB, poll time.Duration, exitIdle bool, work func(ctx context.Context, name string) error, logErr func(error)) error {
	active := map[string]bool{}
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		names, err := RunningCrawls(ctx, db)
		if ctx.Err() != nil {
			return nil // ended while looking: that is the end asked for, not a failure
		}
		if err != nil {
			return err
		}
		for _, n := range names {
			if !active[n] {
				active[n] = true
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := work(ctx, n); err != nil && ctx.Err() == nil {
						logErr(err)
					}
				}()
			}
		}
		if len(names) == 0 && exitIdle {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(poll):
		}
	}
}

// Exists fails, wrapping store.ErrNotFound, when db holds no crawl named
// name.
func Exists(ctx context.Context, db *store.DB, name string) error {
	names, err := Crawls(ctx, db)
	if err != nil {
		return err
	}
	if slices.Contains(names, name) {
		return nil
	}
	return fmt.Errorf("no crawl named %q: %w", name, store.ErrNotFound)
}
