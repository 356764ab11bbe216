package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gleaner/gleaner/fixtures/replay"
)

// runReplay serves a dataset as live sites (replay.Server) and publishes
// its rounds on a timer or at each line of stdin.
func runReplay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("fixtures replay", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, fixturesUsage) }
	var opt replay.Options
	fs.StringVar(&opt.Manifest, "manifest", "", "the dataset's manifest.tsv (required)")
	fs.IntVar(&opt.PerRound, "per-round", 5, "pages each site publishes per round")
	fs.IntVar(&opt.MinPages, "min-pages", 1, "leave out the sites with fewer pages")
	fs.Int64Var(&opt.Seed, "shuffle", 0, "seed shuffling each site's publication order (0: the manifest's order)")
	every := fs.Duration("every", 0, "time between rounds (0: a round at each line read on stdin)")
	rounds := fs.Int("rounds", 0, "stop publishing after this many rounds (0: when every page is published)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if opt.Manifest == "" || fs.NArg() > 0 || *every < 0 || *rounds < 0 {
		return fmt.Errorf("%w: --manifest M.tsv is required, --every and --rounds not negative, and no argument is taken", errUsage)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r, err := replay.Start(ctx, opt)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, s := range r.Sites {
		fmt.Fprintf(stdout, "%-24s %s/  (%d pages, %d left out)\n", s.Name, s.Base, len(s.Pages), len(s.Skipped))
	}
	if publishRounds(ctx, r, replayTicks(ctx, stdin, *every), *rounds, stdout) {
		fmt.Fprintln(stdout, "every round published; serving until interrupted")
	}
	<-ctx.Done()
	return r.Close()
}

// publishRounds publishes a round at once and one at each tick of next,
// until every page is published or rounds rounds were (true), or ctx is
// done (false). When next closes (stdin did), it waits for ctx.
func publishRounds(ctx context.Context, r *replay.Server, next <-chan struct{}, rounds int, stdout io.Writer) bool {
	for {
		n := len(r.Publish())
		fmt.Fprintf(stdout, "round %d: %d pages published (%d in all)\n", r.Round(), n, len(r.Published()))
		if n == 0 || (rounds > 0 && r.Round() >= rounds) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case _, ok := <-next:
			if !ok {
				return false // stdin closed: keep serving
			}
		}
	}
}

// replayTicks says when to publish the next round: every d, or at each
// line of stdin when d is 0 (closed with stdin).
func replayTicks(ctx context.Context, stdin io.Reader, d time.Duration) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		if d > 0 {
			tickEvery(ctx, d, ch)
			return
		}
		sc := bufio.NewScanner(stdin)
		for sc.Scan() && send(ctx, ch) {
		}
	}()
	return ch
}

// tickEvery sends on ch every d until ctx is done.
func tickEvery(ctx context.Context, d time.Duration, ch chan<- struct{}) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if !send(ctx, ch) {
				return
			}
		}
	}
}

// send sends a tick on ch; false when ctx ended first.
func send(ctx context.Context, ch chan<- struct{}) bool {
	select {
	case ch <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}
