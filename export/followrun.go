package export

import (
	"cmp"
	"context"
	"sync"

	"github.com/gleaner/gleaner/store"
)

// StartFollow runs one Follow per dataset in the background (opt with its
// Dataset set to each, so each has its own file names), for a crawl or a
// monitor that writes its WARC files while it runs, until the returned
// stop is called. Only stop ends them, not ctx: when Follow's context ends
// it writes every page seen as final, which holds only once the engine's
// last transaction has committed, so call stop after the engine that
// writes has returned, and before closing st. stop waits for the last
// files to be closed and returns the first error; each error is passed
// to logErr (nil: not logged); later calls return the same error.
func StartFollow(ctx context.Context, st store.Store, opt FollowOptions, datasets []string, logErr func(error)) (stop func() error) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, len(datasets))
	for _, ds := range datasets {
		o := opt
		o.Dataset = ds
		go func() { done <- Follow(ctx, st, o) }()
	}
	var once sync.Once
	var err error
	return func() error {
		once.Do(func() {
			cancel()
			err = waitFollows(done, len(datasets), logErr)
		})
		return err
	}
}

// waitFollows waits for n Follows to return on done, passes their errors
// to logErr and returns the first.
func waitFollows(done <-chan error, n int, logErr func(error)) error {
	var first error
	for range n {
		if err := <-done; err != nil {
			if logErr != nil {
				logErr(err)
			}
			first = cmp.Or(first, err)
		}
	}
	return first
}
