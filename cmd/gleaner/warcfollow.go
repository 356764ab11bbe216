package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"sync"

	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/store"
)

// warcFollowFlags are the flags of crawl and monitor that write WARC files
// while they run (export.Follow).
type warcFollowFlags struct {
	dir  string
	size int64
}

func addWARCFollowFlags(fs *flag.FlagSet) *warcFollowFlags {
	w := &warcFollowFlags{}
	fs.StringVar(&w.dir, "warc", "", "with --record: write the recorded pages as WARC files into this `folder` while running (gzip per record, each file complete once named .warc.gz)")
	fs.Int64Var(&w.size, "warc-size", 1<<30, "with --warc: roll to a new WARC file at this many `bytes`")
	return w
}

// check rejects --warc without --record, and a size that is no size.
func (w *warcFollowFlags) check(record bool) error {
	if w.dir != "" && !record {
		return fmt.Errorf("%w: --warc writes the recorded exchanges: give --record", errUsage)
	}
	if w.size <= 0 {
		return fmt.Errorf("%w: --warc-size %d: want a positive size", errUsage, w.size)
	}
	return nil
}

// start follows datasets in st into the WARC folder until the returned
// stop is called (one Follow per dataset, each with its own file names);
// stop waits for the last files to be closed (call it after the engine
// that writes has returned, before closing st) and returns the first
// Follow's error. Without --warc it does nothing. Only stop ends Follow,
// not ctx: when ctx ends Follow writes every page seen as final, which
// holds only once the engine's last transaction has committed.
func (w *warcFollowFlags) start(ctx context.Context, st store.Store, stderr io.Writer, datasets ...string) (stop func() error) {
	if w.dir == "" {
		return func() error { return nil }
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, len(datasets))
	for _, ds := range datasets {
		go func() {
			done <- export.Follow(ctx, st, export.FollowOptions{Dir: w.dir, Dataset: ds, MaxFileBytes: w.size,
				WARC: export.WARCOptions{Software: "gleaner"}})
		}()
	}
	var once sync.Once
	var err error
	return func() error {
		once.Do(func() {
			cancel()
			err = w.wait(done, len(datasets), stderr)
		})
		return err
	}
}

// wait waits for n Follows to return on done, prints their errors and
// returns the first.
func (w *warcFollowFlags) wait(done <-chan error, n int, stderr io.Writer) error {
	var first error
	for range n {
		if err := <-done; err != nil {
			fmt.Fprintln(stderr, "warc:", err)
			first = cmp.Or(first, err)
		}
	}
	return first
}
