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
	"github.com/gleaner/gleaner/store/frontier"
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
	c.shared = true
	if err := c.open(ctx); err != nil {
		return err
	}
	cj, _ := json.Marshal(c.cfg)
	_, created, err := c.crawl.Join(ctx, string(cj), false)
	if err != nil {
		return err
	}
	if !created {
		return fmt.Errorf("crawl %s exists already", c.cfg.Name)
	}
	return c.seedFrontier(ctx)
}

// open opens the crawl's frontier: a shared one when the crawl is shared
// (a worker's, or any crawl on PostgreSQL).
func (c *Crawler) open(ctx context.Context) error {
	fs, err := frontier.Open(ctx, c.db)
	if err != nil {
		return err
	}
	c.fs = fs
	c.shared = c.shared || fs.SharedCrawls()
	if c.shared {
		c.crawl = fs.Shared(c.cfg.Name)
		c.member = worker{c: c, fr: c.crawl, update: !c.joined}
	} else {
		c.crawl = fs.Local(c.cfg.Name)
		c.member = owner{c: c, fr: c.crawl}
	}
	c.fr = c.crawl
	return nil
}

// start opens the crawl's frontier and makes this process the crawl's
// owner, or one of its workers when it is shared (c.member.leave gives it
// up).
func (c *Crawler) start(ctx context.Context) (row *frontier.CrawlRow, created bool, err error) {
	if err := c.open(ctx); err != nil {
		return nil, false, err
	}
	cj, _ := json.Marshal(c.cfg)
	return c.member.enter(ctx, string(cj))
}

// shareWork makes this process one of the crawl's workers: politeness in
// the database's host slots, template learning as jobs run once.
func (c *Crawler) shareWork() {
	// A slot is held at most a fetch's time (robots.txt or page) after a
	// worker died with it.
	c.slots = &dbSlots{fr: c.crawl, delay: c.cfg.Delay, hold: c.cfg.Timeout + 2*time.Second, poll: 10 * time.Millisecond, logf: c.cfg.Logf}
	c.polite2.Slots = c.slots
	c.learner.Share(c.crawl.ClaimJob)
}

// heartbeat extends the crawl's ownership, or this worker's leases, until
// ctx ends.
func (c *Crawler) heartbeat(ctx context.Context) {
	t := time.NewTicker(c.cfg.LeaseTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := c.member.keep(ctx); err != nil && ctx.Err() == nil {
				c.cfg.Logf("crawl %s: heartbeat: %v", c.cfg.Name, err)
			}
		}
	}
}

// finishing reports whether the run ends with learning the crawled sites'
// templates (crawllearn's Finish): not after a cancellation, and only by the
// last process working on the crawl.
func (c *Crawler) finishing(ctx context.Context, stop string) bool {
	return stop != StopCancelled && c.member.last(ctx)
}

// loadDups adds the fingerprints of the pages kept since the last call (by
// any worker) to the near-duplicate filter.
func (c *Crawler) loadDups(ctx context.Context) error {
	c.mu.Lock()
	after := c.dupsSeq
	c.mu.Unlock()
	hs, last, err := c.fr.SimHashesAfter(ctx, after)
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

// pausedStop is StopPaused when the crawl is paused, "" otherwise.
func (c *Crawler) pausedStop(ctx context.Context) (string, error) {
	p, err := c.fr.Paused(ctx)
	if err != nil || p {
		return StopPaused, err
	}
	return "", nil
}

// refreshShared reads what the other workers changed: the leases of the
// dead ones, the counters (for the stop criteria), the calibrated lexicon
// and threshold, the fingerprints of their pages. It returns why the run
// must stop, "" to go on.
func (c *Crawler) refreshShared(ctx context.Context) (string, error) {
	if err := c.crawl.ExpireDead(ctx, max(c.cfg.Delay, 0)); err != nil {
		return "", err
	}
	cnt, err := c.fs.Counters(ctx, c.cfg.Name)
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
		if err := c.loadModel(ctx); err != nil {
			return "", err
		}
	}
	return c.stopReason(0), nil
}

// loadModel takes the lexicon and threshold another worker calibrated,
// once stored.
func (c *Crawler) loadModel(ctx context.Context) error {
	row, err := c.fs.Crawl(ctx, c.cfg.Name)
	if err != nil || row == nil || !row.Calibrated || len(row.Lexicon) == 0 {
		return err
	}
	c.mu.Lock()
	c.lex, c.threshold, c.calibrated, c.sample = relevance.LexiconOf(row.Lexicon), row.Threshold, true, nil
	c.mu.Unlock()
	return nil
}

// exhausted is why a run whose frontier has nothing left for it stops.
func (c *Crawler) exhausted(ctx context.Context) string {
	if c.cfg.ExhaustRelevant {
		if q, err := c.fr.Count(ctx, StateQueued); err == nil && q > 0 {
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

// workLeased processes a leased URL; one taken over from a worker that
// died is processed from its stored page when that worker had fetched it.
func (c *Crawler) workLeased(ctx context.Context, e frontier.Entry, takeover bool) error {
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
