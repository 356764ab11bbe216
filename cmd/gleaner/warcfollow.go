package main

import (
	"context"
	"flag"
	"fmt"
	"io"

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
	fs.StringVar(&w.dir, "warc", "", "write the recorded pages as WARC files into this `folder` while running (gzip per record, each file complete once named .warc.gz)")
	fs.Int64Var(&w.size, "warc-size", 1<<30, "with --warc: roll to a new WARC file at this many `bytes`")
	return w
}

// check rejects --warc with --record=false, and a size that is no size.
func (w *warcFollowFlags) check(record bool) error {
	if w.dir != "" && !record {
		return fmt.Errorf("%w: --warc writes the recorded exchanges: not with --record=false", errUsage)
	}
	if w.size <= 0 {
		return fmt.Errorf("%w: --warc-size %d: want a positive size", errUsage, w.size)
	}
	return nil
}

// start follows datasets in st into the WARC folder until the returned
// stop is called (export.StartFollow: call stop after the engine that
// writes has returned, before closing st). Without --warc it does
// nothing.
func (w *warcFollowFlags) start(ctx context.Context, st store.Store, stderr io.Writer, datasets ...string) (stop func() error) {
	if w.dir == "" {
		return func() error { return nil }
	}
	opt := export.FollowOptions{Dir: w.dir, MaxFileBytes: w.size, WARC: export.WARCOptions{Software: "gleaner"}}
	return export.StartFollow(ctx, st, opt, datasets, func(err error) { fmt.Fprintln(stderr, "warc:", err) })
}
