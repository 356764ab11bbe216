package export

import (
	"context"
	"sync"

	"github.com/gleaner/gleaner/store"
)

// StartFollow runs Follow(ctx, st, opt) in the background, for a crawl or
// a monitor that writes its WARC files while it runs, until the returned
// stop is called. stop ends Follow, waits for its last file to be closed
// (call it before closing st) and returns Follow's error, passed once to
// logErr (nil: not logged); later calls return the same error.
func StartFollow(ctx context.Context, st store.Store, opt FollowOptions, logErr func(error)) (stop func() error) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- Follow(ctx, st, opt) }()
	var once sync.Once
	var err error
	return func() error {
		once.Do(func() {
			cancel()
			if err = <-done; err != nil && logErr != nil {
				logErr(err)
			}
		})
		return err
	}
}
