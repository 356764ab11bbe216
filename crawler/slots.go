package crawler

import (
	"context"
	"time"

	"github.com/gleaner/gleaner/store/frontier"
)

// dbSlots are the politeness slots of a shared crawl (frontier.TakeSlot):
// one fetch per host at a time, and delay (or the Crawl-delay) between the
// end of one and the start of the next, whichever process makes them.
type dbSlots struct {
	fr    *frontier.Frontier
	delay time.Duration
	// hold is how long a slot stays taken by a worker that died with it.
	hold time.Duration
	poll time.Duration
	logf func(string, ...any)
}

// Ready is always true: the lease query itself skips the hosts whose slot is
// taken or waiting.
func (s *dbSlots) Ready(string) bool { return true }

// Acquire waits until host's slot is free and takes it.
func (s *dbSlots) Acquire(ctx context.Context, host string) (func(time.Duration), error) {
	for {
		ok, err := s.fr.TakeSlot(ctx, host, s.hold)
		if err != nil {
			return nil, err
		}
		if ok {
			return func(crawlDelay time.Duration) {
				if err := s.fr.FreeSlot(context.Background(), host, max(s.delay, crawlDelay)); err != nil {
					// The slot frees itself after hold: politeness is kept.
					s.logf("host slot of %s: %v", host, err)
				}
			}, nil
		}
		t := time.NewTimer(s.poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
