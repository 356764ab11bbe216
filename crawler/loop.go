package crawler

import (
	"context"
	"errors"
	"time"

	"github.com/gleaner/gleaner/store/frontier"
)

// scheduler is the state of the one scheduling loop (Crawler.loop): the
// URLs this process has in flight, per host, and the first error of one.
type scheduler struct {
	c        *Crawler
	done     chan workResult
	inflight map[string]int // URLs in flight per host
	n        int            // URLs in flight
	firstErr error
	// refreshed is when the crawl's shared state was last read; held is
	// the stop it gave ("" to go on).
	refreshed time.Time
	held      string
	stop      string
}

// workResult is a worker's end: its URL's host and its error.
type workResult struct {
	host string
	err  error
}

// loop leases URLs from the frontier and runs the workers until a stop:
// a limit reached, the frontier exhausted, the crawl paused, ctx
// cancelled or a worker's error.
func (c *Crawler) loop(ctx context.Context) (string, error) {
	s := &scheduler{c: c, done: make(chan workResult), inflight: map[string]int{}}
	for s.stop == "" {
		s.step(ctx)
	}
	for s.n > 0 {
		s.collect(<-s.done)
	}
	if s.firstErr != nil && !errors.Is(s.firstErr, context.Canceled) {
		return s.stop, s.firstErr
	}
	if ctx.Err() != nil {
		return StopCancelled, nil
	}
	return s.stop, nil
}

// step starts at most one more URL, or waits, or sets the stop.
func (s *scheduler) step(ctx context.Context) {
	switch {
	case s.firstErr != nil:
		s.stop = StopError
		return
	case ctx.Err() != nil:
		s.stop = StopCancelled
		return
	}
	why, err := s.stopReason(ctx)
	if err != nil {
		s.firstErr = err
		return
	}
	if why != "" {
		if why != StopMaxPages || s.n == 0 {
			s.stop = why
			return
		}
		s.wait(ctx, time.Second)
		return
	}
	if s.n >= s.c.cfg.Workers {
		s.wait(ctx, time.Second)
		return
	}
	s.next(ctx)
}

// stopReason is why the crawl must stop now, "" to go on: the crawl's state
// read again when due (paused, or a worker's view of the others), then
// this process's limits with the URLs in flight counted (MaxPages is never
// overshot).
func (s *scheduler) stopReason(ctx context.Context) (string, error) {
	if every, _ := s.c.member.pace(); time.Since(s.refreshed) > every {
		s.refreshed = time.Now()
		why, err := s.c.member.refresh(ctx)
		if err != nil {
			return "", err
		}
		s.held = why
	}
	if s.held != "" {
		return s.held, nil
	}
	return s.c.stopReason(s.n), nil
}

// next leases the next URL and starts its worker.
func (s *scheduler) next(ctx context.Context) {
	c := s.c
	e, res, err := c.fr.Next(ctx, frontier.LeaseRequest{TTL: c.cfg.LeaseTTL, MaxPages: c.cfg.MaxPages,
		OnlyRelevant: c.cfg.ExhaustRelevant, Skip: c.skipHosts(s.inflight), Ready: c.slots.Ready})
	if err != nil {
		s.firstErr = err
		return
	}
	switch {
	case res == frontier.Got || res == frontier.Takeover:
		s.start(ctx, *e, res == frontier.Takeover)
		return
	case res == frontier.Budget && s.n == 0:
		s.stop = StopMaxPages
		return
	case res == frontier.Empty && s.n == 0:
		s.stop = c.exhausted(ctx)
		return
	}
	_, poll := c.member.pace()
	s.wait(ctx, poll)
}

// start runs the worker of a leased URL.
func (s *scheduler) start(ctx context.Context, e frontier.Entry, takeover bool) {
	s.inflight[e.Host]++
	s.n++
	go func() {
		s.done <- workResult{e.Host, s.c.unleaseOnError(e, s.c.workLeased(ctx, e, takeover))}
	}()
}

// collect takes a worker's end into account.
func (s *scheduler) collect(r workResult) {
	s.n--
	if s.inflight[r.host]--; s.inflight[r.host] <= 0 {
		delete(s.inflight, r.host)
	}
	if r.err != nil && s.firstErr == nil {
		s.firstErr = r.err
	}
}

// wait waits for a worker to end, at most d.
func (s *scheduler) wait(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case r := <-s.done:
		s.collect(r)
	case <-t.C:
	case <-ctx.Done():
	}
}
