package crawler

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/chain/langid"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
)

// Crawler runs one focused crawl over a store. Make it with New, then call
// Run; running a crawl of the same name again resumes it.
type Crawler struct {
	cfg      Config
	db       *store.DB
	fr       queue
	fetch    browser.Fetcher
	strategy Strategy
	formula  *relevance.Formula
	include  []*regexp.Regexp
	exclude  []*regexp.Regexp
	guard    fetchpolicy.TargetGuard
	robots   *fetchpolicy.Robots
	polite   *fetchpolicy.Politeness
	// slots holds the hosts' politeness: polite in memory for a crawl run
	// by one process, the database's host slots when shared.
	slots   fetchpolicy.HostSlots
	shared  bool // workers of other processes may run the crawl too (see Join)
	joined  bool // made by Join: the stored configuration is the crawl's
	polite2 *fetchpolicy.PoliteTransport
	health  *hostHealth
	lang    *langid.Identifier
	learner *learner

	mu         sync.Mutex
	lex        *relevance.Lexicon
	threshold  float64
	calibrated bool
	sample     []relevance.Sample
	dups       relevance.NearDuplicates
	dupsSeq    int64 // fetch_seq of the last fingerprint loaded (shared crawls)
	counters   Counters
	started    time.Time
	processed  int
	queued     int // queued URLs, counted at queuedAt
	queuedAt   time.Time
}

// Summary is what a Run did.
type Summary struct {
	Name      string
	Stop      string // why the run stopped (a Stop… constant)
	Counters  Counters
	Threshold float64
	// Lexicon is the topic lexicon at the end, heaviest terms first.
	Lexicon []relevance.WeightedTerm
	Elapsed time.Duration
	// Pages is the number of URLs processed by this run.
	Pages int
}

// Why a run stopped.
const (
	StopMaxPages          = "max-pages"
	StopMaxDocs           = "max-docs"
	StopMaxTokens         = "max-tokens"
	StopMaxDuration       = "max-duration"
	StopExhausted         = "frontier-exhausted"
	StopRelevantExhausted = "relevant-frontier-exhausted"
	StopPaused            = "paused"
	StopCancelled         = "cancelled"
)

// Progress is reported after each processed URL.
type Progress struct {
	Counters Counters
	Elapsed  time.Duration
	// PagesPerSecond is the processing rate of this run.
	PagesPerSecond float64
	Frontier       int // queued URLs
	Last           string
	LastOutcome    string
}

// New checks cfg and prepares a crawl over db.
func New(db *store.DB, cfg Config) (*Crawler, error) {
	if err := cfg.checkDurations(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	s, err := ParseStrategy(cfg.Strategy)
	if err != nil {
		return nil, fmt.Errorf("crawl %s: %w", cfg.Name, err)
	}
	c := &Crawler{cfg: cfg, db: db, strategy: s, threshold: relevance.DefaultThreshold}
	if cfg.Formula != "" {
		if c.formula, err = relevance.ParseFormula(cfg.Formula); err != nil {
			return nil, fmt.Errorf("crawl %s: %w", cfg.Name, err)
		}
	}
	if c.include, err = compileAll("include", cfg.Include); err != nil {
		return nil, fmt.Errorf("crawl %s: %w", cfg.Name, err)
	}
	if c.exclude, err = compileAll("exclude", cfg.Exclude); err != nil {
		return nil, fmt.Errorf("crawl %s: %w", cfg.Name, err)
	}
	if len(cfg.Languages) > 0 {
		// Detection is among every language: restricted to the wanted
		// ones, it would find one of them in any text.
		if _, err = langid.New(cfg.Languages); err != nil {
			return nil, fmt.Errorf("crawl %s: languages: %w", cfg.Name, err)
		}
		if c.lang, err = langid.New(nil); err != nil {
			return nil, fmt.Errorf("crawl %s: languages: %w", cfg.Name, err)
		}
	}
	terms := cfg.Terms
	if len(terms) == 0 && c.formula != nil {
		terms = c.formula.Words()
	}
	c.lex = relevance.NewLexicon(terms)
	if cfg.Threshold > 0 {
		c.threshold, c.calibrated = cfg.Threshold, true
	}
	c.dups.MaxBits = cfg.NearDuplicateBits
	c.guard = cfg.Guard()
	client := &http.Client{Timeout: cfg.Timeout}
	c.robots = &fetchpolicy.Robots{Client: client, UserAgent: cfg.UserAgent}
	c.polite = &fetchpolicy.Politeness{Delay: cfg.Delay}
	c.health = newHostHealth(cfg.HostBackoff, cfg.OutageHosts, cfg.OutageWait)
	c.slots = c.polite
	c.polite2 = &fetchpolicy.PoliteTransport{Next: c.guard.Transport(), Slots: c.polite, Robots: c.robots}
	client.Transport = c.polite2
	// On PostgreSQL, crawls are shared: `gleaner worker` processes may join.
	c.shared = db.Backend() == "postgres"
	c.fetch = cfg.Fetcher
	if c.fetch == nil {
		// Every hop is checked by the seed's rule (Check: host and port
		// as allowed), the connection by the address dialed.
		c.fetch = &browser.HTTPFetcher{Guard: c.guard, Client: client, Timeout: cfg.Timeout, MaxBytes: cfg.MaxBytes + 1, UserAgent: cfg.UserAgent,
			Record: browser.RecordOptions{On: cfg.Record}}
	}
	c.learner = newLearner(db, cfg)
	return c, nil
}

// Guard is the guard against server-side request forgery of a crawl of
// cfg. A browser given as Config.Fetcher must pass it (Config.Renderer
// starts one that does): the crawler itself only sees the URLs it asks for
// and where they ended.
func (cfg Config) Guard() fetchpolicy.TargetGuard {
	return fetchpolicy.TargetGuard{Allowed: cfg.AllowHosts}
}

// Renderer starts the Chromium a crawl of cfg renders with
// (browser.NewFetcher): the crawl's timeout, user agent and size bound
// (8 MiB of HTML by default), every request and connection passing the
// crawl's guard. The command line's crawl and worker and the dashboard's
// launch start theirs with it.
func (cfg Config) Renderer(chromium string, tabs int, logf func(string, ...any)) (browser.ClosingFetcher, error) {
	timeout, maxBytes := cfg.Timeout, cfg.MaxBytes
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if maxBytes <= 0 {
		maxBytes = 8 << 20
	}
	return browser.NewFetcher(cfg.Guard(), true, browser.Options{ExecPath: chromium, Tabs: tabs, PageTimeout: timeout,
		UserAgent: cfg.UserAgent, MaxHTMLBytes: int(maxBytes), Logf: logf, Record: browser.RecordOptions{On: cfg.Record}})
}

// Dataset is the dataset name under which the pages of crawl name are stored.
func Dataset(name string) string { return "crawl:" + name }

// Run crawls until a stop criterion is met, the frontier is exhausted, the
// crawl is paused or ctx is cancelled. It first takes over what a crawler of
// the same name left in flight (a page already stored is processed from the
// store, never fetched again), and at the end learns the templates of the
// sites crawled and re-extracts their pages with them.
func (c *Crawler) Run(ctx context.Context) (Summary, error) {
	cfg := c.cfg
	sum := Summary{Name: cfg.Name}
	c.started = time.Now()
	fr, err := openFrontier(ctx, c.db, cfg.Name)
	if err != nil {
		return sum, err
	}
	fr.shared = c.shared
	c.fr = fr
	row, created, leave, err := c.start(ctx)
	if err != nil {
		return sum, err
	}
	defer leave()
	if len(row.Lexicon) > 0 {
		c.lex = relevance.LexiconOf(row.Lexicon)
	}
	if row.Threshold > 0 && cfg.Threshold == 0 {
		c.threshold, c.calibrated = row.Threshold, row.Calibrated
	}
	if err := c.loadDups(ctx); err != nil {
		return sum, err
	}
	if c.counters, err = CrawlCounters(ctx, c.db, cfg.Name); err != nil {
		return sum, err
	}
	if err := c.learner.load(ctx); err != nil {
		return sum, err
	}

	// Ownership (or leases) heartbeat.
	hbCtx, hbStop := context.WithCancel(ctx)
	defer hbStop()
	go c.heartbeat(hbCtx)

	if !c.shared {
		if err := c.recover(ctx); err != nil {
			return sum, err
		}
	}
	if created || !c.joined {
		if err := c.seedFrontier(ctx); err != nil {
			return sum, err
		}
	}
	var stop string
	if c.shared {
		stop, err = c.loopShared(ctx)
	} else {
		stop, err = c.loop(ctx)
	}
	sum.Stop = stop
	if err == nil && c.finishing(ctx, stop) {
		if ferr := c.learner.finish(ctx, c); ferr != nil {
			err = ferr
		}
	}
	c.mu.Lock()
	sum.Threshold = c.threshold
	sum.Lexicon = c.lex.Terms()
	sum.Pages = c.processed
	c.mu.Unlock()
	cnt, cerr := CrawlCounters(context.WithoutCancel(ctx), c.db, cfg.Name)
	if cerr == nil {
		sum.Counters = cnt
	}
	sum.Elapsed = time.Since(c.started)
	if err == nil {
		err = cerr
	}
	return sum, err
}

// recover takes over the URLs a dead crawler left leased.
func (c *Crawler) recover(ctx context.Context) error {
	left, err := c.fr.leased(ctx)
	if err != nil {
		return fmt.Errorf("crawl %s: leased URLs: %w", c.cfg.Name, err)
	}
	for _, e := range left {
		p, err := c.db.PageByKey(ctx, Dataset(c.cfg.Name), e.URL)
		switch {
		case err == nil:
			c.cfg.Logf("resume: %s was fetched before the interruption; processing the stored page", e.URL)
			if err := c.processStored(ctx, e, p); err != nil {
				return err
			}
		case errors.Is(err, store.ErrNotFound):
			if err := c.fr.requeue(ctx, e.URL); err != nil {
				return err
			}
		default:
			return err
		}
	}
	return nil
}

func (c *Crawler) seedFrontier(ctx context.Context) error {
	var seeds []discovered
	for _, s := range c.cfg.Seeds {
		u, err := fetchpolicy.Canonicalize(nil, s)
		if err != nil {
			return fmt.Errorf("crawl %s: seed: %w", c.cfg.Name, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return fmt.Errorf("crawl %s: seed %s: scheme %q is not http or https", c.cfg.Name, s, u.Scheme)
		}
		seeds = append(seeds, discovered{URL: u.String(), Host: u.Host, Priority: c.strategy.SeedPriority(), FromRelevant: true})
	}
	return c.fr.seed(ctx, seeds, c.strategy)
}

// stopReason returns why the crawl must stop now, "" to go on; inflight
// URLs count towards MaxPages so the limit is never overshot.
func (c *Crawler) stopReason(inflight int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.cfg.limitReached(c.counters, inflight); s != "" {
		return s
	}
	if c.cfg.MaxDuration > 0 && time.Since(c.started) >= c.cfg.MaxDuration {
		return StopMaxDuration
	}
	return ""
}

// limitReached returns which of the crawl's limits on its whole frontier
// (pages, documents, words) cnt reaches, "" for none.
func (cfg Config) limitReached(cnt Counters, inflight int) string {
	switch {
	case cfg.MaxPages > 0 && cnt.Tried+inflight >= cfg.MaxPages:
		return StopMaxPages
	case cfg.MaxDocs > 0 && cnt.Validated >= cfg.MaxDocs:
		return StopMaxDocs
	case cfg.MaxTokens > 0 && cnt.Tokens >= cfg.MaxTokens:
		return StopMaxTokens
	}
	return ""
}

// loop leases URLs and runs the workers until a stop.
func (c *Crawler) loop(ctx context.Context) (string, error) {
	cfg := c.cfg
	type result struct {
		host string
		err  error
	}
	done := make(chan result)
	inflight := map[string]bool{}
	n := 0
	var firstErr error
	var lastPauseCheck time.Time
	stop := ""
	wait := func(d time.Duration) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case r := <-done:
			n--
			delete(inflight, r.host)
			if r.err != nil && firstErr == nil {
				firstErr = r.err
			}
		case <-t.C:
		case <-ctx.Done():
		}
	}
	for {
		if firstErr != nil {
			stop = "error"
			break
		}
		if ctx.Err() != nil {
			stop = StopCancelled
			break
		}
		if s := c.stopReason(n); s != "" {
			if s != StopMaxPages || n == 0 {
				stop = s
				break
			}
			wait(time.Second)
			continue
		}
		if time.Since(lastPauseCheck) > 50*time.Millisecond {
			lastPauseCheck = time.Now()
			p, err := c.fr.paused(ctx)
			if err != nil {
				firstErr = err
				continue
			}
			if p {
				stop = StopPaused
				break
			}
		}
		if n >= cfg.Workers {
			wait(time.Second)
			continue
		}
		cands, err := c.fr.candidates(ctx, 256, cfg.ExhaustRelevant)
		if err != nil {
			firstErr = err
			continue
		}
		var pick *entry
		now := time.Now()
		for i := range cands {
			h := cands[i].Host
			if !inflight[h] && c.polite.Ready(h) && c.health.ready(h, now) {
				pick = &cands[i]
				break
			}
		}
		if pick == nil {
			if len(cands) == 0 && n == 0 {
				stop = StopExhausted
				if cfg.ExhaustRelevant {
					if q, err := c.fr.count(ctx, StateQueued); err == nil && q > 0 {
						stop = StopRelevantExhausted
					}
				}
				break
			}
			wait(5 * time.Millisecond)
			continue
		}
		ok, err := c.fr.lease(ctx, pick.URL, cfg.LeaseTTL)
		if err != nil {
			firstErr = err
			continue
		}
		if !ok {
			continue
		}
		e := *pick
		inflight[e.Host] = true
		n++
		go func() {
			done <- result{e.Host, c.unleaseOnError(e, c.work(ctx, e))}
		}()
	}
	for n > 0 {
		r := <-done
		n--
		if r.err != nil && firstErr == nil {
			firstErr = r.err
		}
	}
	if firstErr != nil && !errors.Is(firstErr, context.Canceled) {
		return stop, firstErr
	}
	if ctx.Err() != nil {
		return StopCancelled, nil
	}
	return stop, nil
}

// work fetches one leased URL, stores the page and processes it.
func (c *Crawler) work(ctx context.Context, e entry) error {
	u, err := url.Parse(e.URL)
	if err != nil {
		return c.finish(ctx, e, doneRecord{Outcome: OutcomeForbidden, Detail: err.Error()})
	}
	if err := c.guard.Check(ctx, u); err != nil {
		c.cfg.Logf("refused %s: %v", e.URL, err)
		return c.finish(ctx, e, doneRecord{Outcome: OutcomeForbidden, Detail: err.Error()})
	}
	release, allowed, crawlDelay, rerr := fetchpolicy.Admit(ctx, c.slots, c.robots, u)
	if ctx.Err() != nil {
		return c.interrupted(e)
	}
	if rerr != nil {
		return c.robotsFailed(ctx, e, rerr)
	}
	if !allowed {
		return c.finish(ctx, e, doneRecord{Outcome: OutcomeRobots, Detail: "disallowed by robots.txt"})
	}
	p, ferr := c.fetchPage(ctx, e.URL)
	release(crawlDelay)
	if ctx.Err() != nil {
		return c.interrupted(e)
	}
	if handled, err := c.fetchFailed(e, ferr); handled {
		return err
	}
	if fetchpolicy.FailureOf(ferr) == browser.FailureRefused {
		// A guard refused the page or a redirect hop of it.
		return c.finish(ctx, e, doneRecord{Outcome: OutcomeForbidden, Detail: ferr.Error()})
	}
	if ferr == nil && p != nil && c.cfg.Fetcher != nil {
		// A fetcher of the caller's (a browser) follows redirects itself:
		// check where it went before keeping anything.
		hops := []string{p.FinalURL}
		for _, r := range p.Redirects {
			hops = append(hops, r.URL)
		}
		for _, h := range hops {
			if hu, err := url.Parse(h); err == nil && hu.Host != "" {
				if err := c.guard.Check(ctx, hu); err != nil {
					return c.finish(ctx, e, doneRecord{Outcome: OutcomeForbidden, Detail: "redirected: " + err.Error()})
				}
			}
		}
	}
	sp, err := capture.ToStore(e.URL, Dataset(c.cfg.Name), store.SiteFromDomain, p, ferr)
	if err != nil {
		return c.finish(ctx, e, doneRecord{Outcome: OutcomeHTTPError, Detail: err.Error()})
	}
	if err := c.db.PutPages(ctx, []*store.Page{sp}); err != nil {
		if ctx.Err() != nil {
			return c.interrupted(e)
		}
		return fmt.Errorf("store %s: %w", e.URL, err)
	}
	return c.processStored(ctx, e, sp)
}

// outageLog is logged when a general outage pauses the crawl.
const outageLog = "network outage (host %s: %v): crawl paused until a host answers, at most %v"

// fetchFailed keeps track of the hosts that cannot be reached. When the
// failure is not the page's (the fetcher itself failed, or the network is
// down) the URL is left queued and handled is true; err then stops the run
// (nil while an outage is waited out).
func (c *Crawler) fetchFailed(e entry, ferr error) (handled bool, err error) {
	var stop error
	switch fetchpolicy.FailureOf(ferr) {
	case browser.FailureNone:
		c.health.succeeded(e.Host)
	case browser.FailureFetcher:
		stop = ErrFetcherFailed
	case browser.FailureNetwork:
		switch c.health.failed(e.Host, time.Now()) {
		case outageStop:
			stop = ErrOutage
		case outageWait:
			c.cfg.Logf(outageLog, e.Host, ferr, c.cfg.OutageWait)
			return true, c.interrupted(e)
		default:
			c.cfg.Logf("host %s unreachable, suspended for a while: %v", e.Host, ferr)
		}
	}
	if stop == nil {
		return false, nil
	}
	if err := c.interrupted(e); err != nil {
		return true, err
	}
	return true, fmt.Errorf("crawl %s: %w: at %s: %w", c.cfg.Name, stop, e.URL, ferr)
}

// robotsFailed handles a URL whose host's robots.txt could not be read: an
// unreachable host is suspended and the URL tried again later, like a page
// that could not be fetched.
func (c *Crawler) robotsFailed(ctx context.Context, e entry, rerr error) error {
	if handled, err := c.fetchFailed(e, rerr); handled {
		return err
	}
	if fetchpolicy.FailureOf(rerr) != browser.FailureNetwork {
		return c.finish(ctx, e, doneRecord{Outcome: OutcomeRobots, Detail: rerr.Error()})
	}
	if e.Attempts < c.cfg.Retries {
		return c.fr.retry(context.WithoutCancel(ctx), e.URL)
	}
	return c.finish(ctx, e, doneRecord{Outcome: OutcomeHTTPError, Detail: rerr.Error()})
}

// interrupted puts a URL back in the queue after a cancellation.
func (c *Crawler) interrupted(e entry) error {
	return c.fr.requeue(context.Background(), e.URL)
}

// unleaseOnError puts e back in the queue when its work failed with err
// (a store failure, a fetcher that stopped): a URL is never left leased by
// a run that goes on or stops, whatever ended its page.
func (c *Crawler) unleaseOnError(e entry, err error) error {
	if err == nil {
		return nil
	}
	if rerr := c.interrupted(e); rerr != nil {
		return errors.Join(err, fmt.Errorf("requeue %s: %w", e.URL, rerr))
	}
	return err
}

// finish commits a URL that was not fetched.
func (c *Crawler) finish(ctx context.Context, e entry, d doneRecord) error {
	d.URL = e.URL
	d.Depth = e.Depth
	d.Strategy = c.strategy
	return c.commit(ctx, d)
}

func (c *Crawler) commit(ctx context.Context, d doneRecord) error {
	d.HostPageCap = c.cfg.HostPageCap
	err := c.fr.commit(context.WithoutCancel(ctx), d)
	if errors.Is(err, ErrLeaseLost) {
		c.cfg.Logf("%v", err)
		return nil
	}
	c.mu.Lock()
	if err == nil {
		c.processed++
		c.counters.Outcomes[d.Outcome]++
		for _, o := range fetchedOutcomes {
			if o == d.Outcome {
				c.counters.Tried++
			}
		}
		if d.Outcome == OutcomeValidated {
			c.counters.Validated++
			c.counters.Tokens += int64(d.Tokens)
		}
	}
	cnt := c.counters
	cnt.Outcomes = map[string]int{}
	for k, v := range c.counters.Outcomes {
		cnt.Outcomes[k] = v
	}
	processed := c.processed
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if c.cfg.Progress != nil {
		// Counting the queue costs a scan: at most once a second.
		c.mu.Lock()
		if time.Since(c.queuedAt) > time.Second {
			c.queued, _ = c.fr.count(ctx, StateQueued)
			c.queuedAt = time.Now()
		}
		q := c.queued
		c.mu.Unlock()
		cnt.Queued = q
		el := time.Since(c.started)
		c.cfg.Progress(Progress{Counters: cnt, Elapsed: el, PagesPerSecond: float64(processed) / math.Max(el.Seconds(), 1e-3),
			Frontier: q, Last: d.URL, LastOutcome: d.Outcome})
	}
	return nil
}
