package crawler

import (
	"context"
	"time"

	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store/frontier"
)

// queue is the crawl's frontier as the engine sees it, like colly's queue
// storage: the next URL to fetch, its outcome, and what judging a page
// reads of the others. Everything the engine decides is passed in as
// values (priorities merged by the Strategy given, host caps, lease
// lengths). *frontier.Frontier implements it over the store's database, a
// Local one for a crawl run by one process (SQLite) and a Shared one for
// a crawl of workers (PostgreSQL).
type queue interface {
	Seed(ctx context.Context, seeds []frontier.Link, merge frontier.Merge) error
	Next(ctx context.Context, r frontier.LeaseRequest) (*frontier.Entry, frontier.LeaseResult, error)
	Requeue(ctx context.Context, u string, retry bool) error
	Commit(ctx context.Context, d frontier.Record) error
	ReserveSeq(ctx context.Context, c frontier.Counter, n int) (int64, error)
	Count(ctx context.Context, state frontier.State) (int, error)
	State(ctx context.Context, u string) (frontier.State, frontier.Outcome, error)
	Paused(ctx context.Context) (bool, error)
	SaveModel(ctx context.Context, lexicon map[string]float64, threshold float64, calibrated bool) error
	SimHashesAfter(ctx context.Context, seq int64) ([]relevance.SimHash, int64, error)
}

var _ queue = (*frontier.Frontier)(nil)

// membership is how this process holds the crawl while it runs, and what
// differs between the two ways: the owner of a crawl run alone, or one
// worker of a shared one.
type membership interface {
	// enter takes the crawl (creating it when new) and returns its row.
	enter(ctx context.Context, config string) (row *frontier.CrawlRow, created bool, err error)
	// recover takes over what a dead run left leased, before the loop.
	recover(ctx context.Context) error
	// keep extends what this process holds (ownership, or leases).
	keep(ctx context.Context) error
	// refresh reads the crawl's state again: why the run must stop, "" to
	// go on.
	refresh(ctx context.Context) (string, error)
	// last reports whether this process is the last one working on the
	// crawl (it learns the sites at the end).
	last(ctx context.Context) bool
	// pace is how often the loop refreshes and how long it waits when no
	// URL is ready.
	pace() (refresh, poll time.Duration)
	// leave gives the crawl up.
	leave(ctx context.Context)
}

// owner holds a crawl run by this process alone: it owns the crawl's row,
// takes over the leases a dead owner left before the loop, and only the
// paused flag can change under it.
type owner struct {
	c  *Crawler
	fr *frontier.Frontier
}

func (o owner) enter(ctx context.Context, config string) (*frontier.CrawlRow, bool, error) {
	row, err := o.fr.Claim(ctx, config, o.c.cfg.LeaseTTL)
	if err != nil {
		return nil, false, err
	}
	return row, row.Lexicon == nil && row.Threshold == 0, nil
}

func (o owner) recover(ctx context.Context) error { return o.c.recover(ctx) }

func (o owner) keep(ctx context.Context) error { return o.fr.Heartbeat(ctx, o.c.cfg.LeaseTTL) }

func (o owner) refresh(ctx context.Context) (string, error) { return o.c.pausedStop(ctx) }

func (o owner) last(context.Context) bool { return true }

func (o owner) pace() (time.Duration, time.Duration) {
	return 50 * time.Millisecond, 5 * time.Millisecond
}

func (o owner) leave(ctx context.Context) { o.fr.Release(context.WithoutCancel(ctx)) }

// worker is one of the processes working on a shared crawl; update
// replaces the stored configuration with its own (a crawl started, not
// joined). Its leases expire unless renewed, and an expired one is taken
// over by the next worker that asks (Next); what the other workers change
// is read again every refresh.
type worker struct {
	c      *Crawler
	fr     *frontier.Frontier
	update bool
}

func (w worker) enter(ctx context.Context, config string) (*frontier.CrawlRow, bool, error) {
	row, created, err := w.fr.Join(ctx, config, w.update)
	if err == nil {
		w.c.shareWork()
	}
	return row, created, err
}

func (w worker) recover(context.Context) error { return nil }

func (w worker) keep(ctx context.Context) error { return w.fr.RenewLeases(ctx, w.c.cfg.LeaseTTL) }

func (w worker) refresh(ctx context.Context) (string, error) {
	if why, err := w.c.pausedStop(ctx); why != "" || err != nil {
		return why, err
	}
	return w.c.refreshShared(ctx)
}

// last: no worker holds a lease any more (the last one to stop learns the
// sites; its jobs run once, see frontier.ClaimJob).
func (w worker) last(ctx context.Context) bool {
	n, err := w.fr.Count(ctx, StateLeased)
	return err == nil && n == 0
}

func (w worker) pace() (time.Duration, time.Duration) {
	return 250 * time.Millisecond, 20 * time.Millisecond
}

func (w worker) leave(context.Context) {}
