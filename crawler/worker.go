package crawler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
)

// JoinOptions are what a worker sets for itself when it joins a stored
// crawl; everything else is the crawl's stored configuration.
type JoinOptions struct {
	// Fetcher fetches pages (default: the crawl's plain HTTP fetcher).
	Fetcher browser.Fetcher
	// Workers is how many pages this process fetches at once (default: the
	// crawl's).
	Workers int
	// MaxDuration stops this worker after this long (the crawl goes on
	// with the others).
	MaxDuration time.Duration
	Logf        func(format string, args ...any)
	Progress    func(Progress)
}

// Join prepares a worker of the stored crawl name: Run then works on it
// beside any number of other workers, in this or other processes, on this
// or other machines sharing the database, until the crawl's frontier is
// exhausted, its limits reached or it is paused. Workers may join and leave
// at any time; a worker killed outright loses nothing: its leases expire
// (the crawl's LeaseTTL) and other workers take them over.
func Join(ctx context.Context, db *store.DB, name string, opt JoinOptions) (*Crawler, error) {
	cfg, err := StoredConfig(ctx, db, name)
	if err != nil {
		return nil, err
	}
	cfg.Fetcher, cfg.Logf, cfg.Progress = opt.Fetcher, opt.Logf, opt.Progress
	if opt.Workers > 0 {
		cfg.Workers = opt.Workers
	}
	if opt.MaxDuration > 0 {
		cfg.MaxDuration = opt.MaxDuration
	}
	c, err := New(db, cfg)
	if err != nil {
		return nil, err
	}
	c.shared, c.joined = true, true
	return c, nil
}

// Create stores a new shared crawl of cfg with its seeds queued, without
// fetching anything: workers (Join, `gleaner worker`) then run it. It fails
// when a crawl of that name exists.
func Create(ctx context.Context, db *store.DB, cfg Config) error {
	c, err := New(db, cfg)
	if err != nil {
		return err
	}
	fr, err := openFrontier(ctx, db, c.cfg.Name)
	if err != nil {
		return err
	}
	c.shared, fr.shared, c.fr = true, true, fr
	cj, _ := json.Marshal(c.cfg)
	_, created, err := c.fr.join(ctx, string(cj), false)
	if err != nil {
		return err
	}
	if !created {
		return fmt.Errorf("crawl %s exists already", c.cfg.Name)
	}
	return c.seedFrontier(ctx)
}

// start makes this process the crawl's owner, or one of its workers when it
// is shared; leave gives it up.
func (c *Crawler) start(ctx context.Context) (row *crawlRow, created bool, leave func(), err error) {
	cj, _ := json.Marshal(c.cfg)
	if !c.shared {
		row, err = c.fr.claim(ctx, string(cj), c.cfg.LeaseTTL)
		if err != nil {
			return nil, false, nil, err
		}
		return row, row.Lexicon == nil && row.Threshold == 0, func() { c.fr.release(context.WithoutCancel(ctx)) }, nil
	}
	if row, created, err = c.fr.join(ctx, string(cj), !c.joined); err != nil {
		return nil, false, nil, err
	}
	// A slot is held at most a fetch's time (robots.txt or page) after a
	// worker died with it.
	c.slots = &dbSlots{fr: c.fr, delay: c.cfg.Delay, hold: c.cfg.Timeout + 2*time.Second, poll: 10 * time.Millisecond, logf: c.cfg.Logf}
	c.polite2.Slots = c.slots
	c.learner.shared = true
	c.learner.claim = c.fr.claimJob
	return row, created, func() {}, nil
}

// heartbeat extends the crawl's ownership, or this worker's leases, until
// ctx ends.
func (c *Crawler) heartbeat(ctx context.Context) {
	ttl := c.cfg.LeaseTTL
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			var err error
			if c.shared {
				err = c.fr.renewLeases(ctx, ttl)
			} else {
				err = c.fr.heartbeat(ctx, ttl)
			}
			if err != nil && ctx.Err() == nil {
				c.cfg.Logf("crawl %s: heartbeat: %v", c.cfg.Name, err)
			}
		}
	}
}

// finishing reports whether the run ends with learning the crawled sites'
// templates (learner.finish): not after a cancellation, and in a shared
// crawl only when no worker holds a lease any more (the last one to stop
// does it; its jobs run once, see claimJob).
func (c *Crawler) finishing(ctx context.Context, stop string) bool {
	if stop == StopCancelled {
		return false
	}
	if !c.shared {
		return true
	}
	n, err := c.fr.count(ctx, StateLeased)
	return err == nil && n == 0
}

// loadDups adds the fingerprints of the pages kept since the last call (by
// any worker) to the near-duplicate filter.
func (c *Crawler) loadDups(ctx context.Context) error {
	c.mu.Lock()
	after := c.dupsSeq
	c.mu.Unlock()
	hs, last, err := c.fr.simhashesAfter(ctx, after)
	if err != nil {
		return fmt.Errorf("crawl %s: fingerprints: %w", c.cfg.Name, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if last > c.dupsSeq {
		c.dups.Add(hs...)
		c.dupsSeq = last
	}
	return nil
}

// refreshShared reads what the other workers changed: the paused flag, the
// counters (for the stop criteria), the calibrated lexicon and threshold,
// the fingerprints of their pages. It returns why the run must stop, ""
// to go on.
func (c *Crawler) refreshShared(ctx context.Context) (string, error) {
	p, err := c.fr.paused(ctx)
	if err != nil || p {
		return StopPaused, err
	}
	if err := c.fr.expireDead(ctx, max(c.cfg.Delay, 0)); err != nil {
		return "", err
	}
	cnt, err := CrawlCounters(ctx, c.db, c.cfg.Name)
	if err != nil {
		return "", err
	}
	if err := c.loadDups(ctx); err != nil {
		return "", err
	}
	c.mu.Lock()
	c.counters = cnt
	calibrated := c.calibrated
	c.mu.Unlock()
	if !calibrated {
		row, err := loadCrawl(ctx, c.db, c.cfg.Name)
		if err != nil {
			return "", err
		}
		if row != nil && row.Calibrated && len(row.Lexicon) > 0 {
			c.mu.Lock()
			c.lex, c.threshold, c.calibrated, c.sample = relevance.LexiconOf(row.Lexicon), row.Threshold, true, nil
			c.mu.Unlock()
		}
	}
	return c.stopReason(0), nil
}

// loopShared leases URLs from the shared frontier and runs this worker's
// fetches until a stop.
func (c *Crawler) loopShared(ctx context.Context) (string, error) {
	cfg := c.cfg
	type result struct {
		host string
		err  error
	}
	done := make(chan result)
	inflight := map[string]int{}
	n := 0
	var firstErr error
	var refreshed time.Time
	budget := ""
	collect := func(r result) {
		n--
		if inflight[r.host]--; inflight[r.host] <= 0 {
			delete(inflight, r.host)
		}
		if r.err != nil && firstErr == nil {
			firstErr = r.err
		}
	}
	wait := func(d time.Duration) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case r := <-done:
			collect(r)
		case <-t.C:
		case <-ctx.Done():
		}
	}
	stop := ""
	for stop == "" {
		switch {
		case firstErr != nil:
			stop = "error"
			continue
		case ctx.Err() != nil:
			stop = StopCancelled
			continue
		}
		if time.Since(refreshed) > 250*time.Millisecond {
			refreshed = time.Now()
			s, err := c.refreshShared(ctx)
			if err != nil {
				firstErr = err
				continue
			}
			budget = s
		}
		if budget != "" && (budget != StopMaxPages || n == 0) {
			stop = budget
			continue
		}
		if n >= cfg.Workers || budget != "" {
			wait(time.Second)
			continue
		}
		e, res, err := c.fr.leaseNext(ctx, leaseRequest{TTL: cfg.LeaseTTL, MaxPages: cfg.MaxPages, OnlyRelevant: cfg.ExhaustRelevant, Skip: c.skipHosts(inflight)})
		if err != nil {
			firstErr = err
			continue
		}
		switch res {
		case leaseGot, leaseTakeover:
			inflight[e.Host]++
			n++
			go func(e entry, takeover bool) {
				done <- result{e.Host, c.unleaseOnError(e, c.workShared(ctx, e, takeover))}
			}(*e, res == leaseTakeover)
			continue
		case leaseBudget:
			if n == 0 {
				stop = StopMaxPages
				continue
			}
		case leaseEmpty:
			if n == 0 {
				stop = c.exhausted(ctx)
				continue
			}
		}
		wait(20 * time.Millisecond)
	}
	for n > 0 {
		collect(<-done)
	}
	if firstErr != nil && !errors.Is(firstErr, context.Canceled) {
		return stop, firstErr
	}
	if ctx.Err() != nil {
		return StopCancelled, nil
	}
	return stop, nil
}

// exhausted is why a run whose frontier has nothing left for it stops.
func (c *Crawler) exhausted(ctx context.Context) string {
	if c.cfg.ExhaustRelevant {
		if q, err := c.fr.count(ctx, StateQueued); err == nil && q > 0 {
			return StopRelevantExhausted
		}
	}
	return StopExhausted
}

// skipHosts are the hosts this worker must not lease from now: those it is
// fetching from, and those it found unreachable (suspended).
func (c *Crawler) skipHosts(inflight map[string]int) []string {
	out := c.health.suspended(time.Now())
	for h := range inflight {
		out = append(out, h)
	}
	return out
}

// workShared processes a leased URL; one taken over from a worker that died
// is processed from its stored page when that worker had fetched it.
func (c *Crawler) workShared(ctx context.Context, e entry, takeover bool) error {
	if takeover {
		p, err := c.db.PageByKey(ctx, Dataset(c.cfg.Name), e.URL)
		switch {
		case err == nil:
			c.cfg.Logf("took over %s, fetched by a worker that stopped; processing the stored page", e.URL)
			return c.processStored(ctx, e, p)
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
	}
	return c.work(ctx, e)
}

// StoredConfig returns the configuration crawl name was created with.
func StoredConfig(ctx context.Context, db *store.DB, name string) (Config, error) {
	var cfg Config
	if err := ensureTables(ctx, db); err != nil {
		return cfg, err
	}
	row, err := loadCrawl(ctx, db, name)
	if err != nil {
		return cfg, err
	}
	if row == nil {
		return cfg, fmt.Errorf("crawl %s: %w", name, store.ErrNotFound)
	}
	if err := json.Unmarshal([]byte(row.Config), &cfg); err != nil {
		return cfg, fmt.Errorf("crawl %s: stored configuration: %w", name, err)
	}
	if cfg.Delay == 0 {
		// Stored with its defaults applied: 0 is "no delay" (asked as a
		// negative one), not the default delay.
		cfg.Delay = -1
	}
	return cfg, nil
}
