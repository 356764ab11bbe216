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
	"github.com/gleaner/gleaner/crawllearn"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/frontier"
)

// Crawler runs one focused crawl over a store. Make it with New, then call
// Run; running a crawl of the same name again resumes it.
type Crawler struct {
	cfg      Config
	db       *store.DB
	fs       *frontier.Store
	fr       queue
	crawl    *frontier.Frontier // fr itself, for what only an owner or a worker does (Leased, ExpireDead, slots, jobs)
	member   membership
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
	learner *crawllearn.Learner

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
	StopError             = "error" // a worker failed: Run returns its error
)

// Progress is reported after each processed URL.
type Progress struct {
	Counters Counters
	Elapsed  time.Duration
	// PagesPerSecond is the processing rate of this run.
	PagesPerSecond float64
	Frontier       int // queued URLs
	Last           string
	LastOutcome    Outcome
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
	if err := c.compileFilters(); err != nil {
		return nil, fmt.Errorf("crawl %s: %w", cfg.Name, err)
	}
	c.lex = relevance.NewLexicon(c.seedTerms())
	if cfg.Threshold > 0 {
		c.threshold, c.calibrated = cfg.Threshold, true
	}
	c.dups.MaxBits = cfg.NearDuplicateBits
	c.health = newHostHealth(cfg.HostBackoff, cfg.OutageHosts, cfg.OutageWait)
	c.setFetcher()
	c.learner = crawllearn.New(db, crawllearn.Options{LearnAt: cfg.LearnAt, Seed: cfg.Seed, Logf: cfg.Logf})
	return c, nil
}

// compileFilters reads the crawl's formula, its include and exclude
// expressions and its languages.
func (c *Crawler) compileFilters() error {
	var err error
	if c.cfg.Formula != "" {
		if c.formula, err = relevance.ParseFormula(c.cfg.Formula); err != nil {
			return err
		}
	}
	if c.include, err = compileAll("include", c.cfg.Include); err != nil {
		return err
	}
	if c.exclude, err = compileAll("exclude", c.cfg.Exclude); err != nil {
		return err
	}
	if len(c.cfg.Languages) == 0 {
		return nil
	}
	// Detection is among every language: restricted to the wanted ones, it
	// would find one of them in any text.
	if _, err = langid.New(c.cfg.Languages); err != nil {
		return fmt.Errorf("languages: %w", err)
	}
	if c.lang, err = langid.New(nil); err != nil {
		return fmt.Errorf("languages: %w", err)
	}
	return nil
}

// seedTerms are the terms the lexicon starts from: the crawl's, or the
// positive words of its formula.
func (c *Crawler) seedTerms() []string {
	if len(c.cfg.Terms) == 0 && c.formula != nil {
		return c.formula.Words()
	}
	return c.cfg.Terms
}

// setFetcher sets up the fetch policy of the crawl (guard, robots.txt,
// politeness in this process) and its fetcher: the configured one, or a
// plain HTTP fetcher under that policy.
func (c *Crawler) setFetcher() {
	cfg := c.cfg
	c.guard = cfg.Guard()
	client := &http.Client{Timeout: cfg.Timeout}
	c.robots = &fetchpolicy.Robots{Client: client, UserAgent: cfg.UserAgent}
	c.polite = &fetchpolicy.Politeness{Delay: cfg.Delay}
	c.slots = c.polite
	c.polite2 = &fetchpolicy.PoliteTransport{Next: c.guard.Transport(), Slots: c.polite, Robots: c.robots}
	client.Transport = c.polite2
	c.fetch = cfg.Fetcher
	if c.fetch == nil {
		// Every hop is checked by the seed's rule (Check: host and port
		// as allowed), the connection by the address dialed.
		c.fetch = &browser.HTTPFetcher{Guard: c.guard, Client: client, Timeout: cfg.Timeout, MaxBytes: cfg.MaxBytes + 1, UserAgent: cfg.UserAgent,
			Record: cfg.RecordOptions()}
	}
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
		UserAgent: cfg.UserAgent, MaxHTMLBytes: int(maxBytes), Logf: logf, Record: cfg.RecordOptions()})
}

// RecordOptions are what the crawl's fetcher records (Config.Record).
func (cfg Config) RecordOptions() browser.RecordOptions {
	return browser.RecordOptions{On: cfg.Record, Media: cfg.Record && cfg.RecordMedia, Secrets: cfg.Record && cfg.RecordSecrets}
}

// Dataset is the dataset name under which the pages of crawl name are stored.
func Dataset(name string) string { return "crawl:" + name }

// Run crawls until a stop criterion is met, the frontier is exhausted, the
// crawl is paused or ctx is cancelled. It first takes over what a crawler of
// the same name left in flight (a page already stored is processed from the
// store, never fetched again), and at the end learns the templates of the
// sites crawled and re-extracts their pages with them.
func (c *Crawler) Run(ctx context.Context) (Summary, error) {
	sum := Summary{Name: c.cfg.Name}
	c.started = time.Now()
	row, created, err := c.start(ctx)
	if err != nil {
		return sum, err
	}
	defer c.member.leave(ctx)
	if err := c.resume(ctx, row); err != nil {
		return sum, err
	}
	// Ownership (or leases) heartbeat.
	hbCtx, hbStop := context.WithCancel(ctx)
	defer hbStop()
	go c.heartbeat(hbCtx)
	if err := c.prepare(ctx, created); err != nil {
		return sum, err
	}
	stop, err := c.loop(ctx)
	if err == nil && c.finishing(ctx, stop) {
		err = c.finishLearning(ctx)
	}
	return c.summary(ctx, stop, err)
}

// resume takes up what the crawl's row and frontier keep: the calibrated
// lexicon and threshold, the fingerprints of the pages kept, the counters.
func (c *Crawler) resume(ctx context.Context, row *frontier.CrawlRow) error {
	if len(row.Lexicon) > 0 {
		c.lex = relevance.LexiconOf(row.Lexicon)
	}
	if row.Threshold > 0 && c.cfg.Threshold == 0 {
		c.threshold, c.calibrated = row.Threshold, row.Calibrated
	}
	if err := c.loadDups(ctx); err != nil {
		return err
	}
	var err error
	c.counters, err = c.fs.Counters(ctx, c.cfg.Name)
	return err
}

// finishLearning brings the templates of the crawled sites up to date and
// extracts the crawl's kept pages again with them (crawllearn's Finish).
func (c *Crawler) finishLearning(ctx context.Context) error {
	ids, err := c.crawl.KeptPages(ctx)
	if err != nil {
		return err
	}
	return c.learner.Finish(ctx, ids)
}

// prepare readies the frontier before the loop: what a dead run left
// leased is taken over (membership.recover); a new crawl, or one started
// rather than joined, is seeded.
func (c *Crawler) prepare(ctx context.Context, created bool) error {
	if err := c.member.recover(ctx); err != nil {
		return err
	}
	if created || !c.joined {
		return c.seedFrontier(ctx)
	}
	return nil
}

// summary is what the run did, its error err or that of reading the
// final counters.
func (c *Crawler) summary(ctx context.Context, stop string, err error) (Summary, error) {
	sum := Summary{Name: c.cfg.Name, Stop: stop}
	c.mu.Lock()
	sum.Threshold = c.threshold
	sum.Lexicon = c.lex.Terms()
	sum.Pages = c.processed
	c.mu.Unlock()
	cnt, cerr := c.fs.Counters(context.WithoutCancel(ctx), c.cfg.Name)
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
	left, err := c.crawl.Leased(ctx)
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
			if err := c.fr.Requeue(ctx, e.URL, false); err != nil {
				return err
			}
		default:
			return err
		}
	}
	return nil
}

func (c *Crawler) seedFrontier(ctx context.Context) error {
	var seeds []frontier.Link
	for _, s := range c.cfg.Seeds {
		u, err := fetchpolicy.Canonicalize(nil, s)
		if err != nil {
			return fmt.Errorf("crawl %s: seed: %w", c.cfg.Name, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return fmt.Errorf("crawl %s: seed %s: scheme %q is not http or https", c.cfg.Name, s, u.Scheme)
		}
		seeds = append(seeds, frontier.Link{URL: u.String(), Host: u.Host, Priority: c.strategy.SeedPriority(), FromRelevant: true})
	}
	return c.fr.Seed(ctx, seeds, c.strategy.Merge)
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

// work fetches one leased URL, stores the page and processes it.
func (c *Crawler) work(ctx context.Context, e frontier.Entry) error {
	u, err := url.Parse(e.URL)
	if err != nil {
		return c.finish(ctx, e, frontier.Record{Outcome: OutcomeForbidden, Detail: err.Error()})
	}
	if err := c.guard.Check(ctx, u); err != nil {
		c.cfg.Logf("refused %s: %v", e.URL, err)
		return c.finish(ctx, e, frontier.Record{Outcome: OutcomeForbidden, Detail: err.Error()})
	}
	p, ferr, done, err := c.fetchAdmitted(ctx, e, u)
	if done {
		return err
	}
	if handled, err := c.fetchFailed(e, ferr); handled {
		return err
	}
	if fetchpolicy.FailureOf(ferr) == browser.FailureRefused {
		// A guard refused the page or a redirect hop of it.
		return c.finish(ctx, e, frontier.Record{Outcome: OutcomeForbidden, Detail: ferr.Error()})
	}
	if err := c.checkRedirects(ctx, p, ferr); err != nil {
		return c.finish(ctx, e, frontier.Record{Outcome: OutcomeForbidden, Detail: "redirected: " + err.Error()})
	}
	return c.store(ctx, e, p, ferr)
}

// fetchAdmitted fetches u within its host's politeness slot when its
// robots.txt allows. done is true when the URL was dealt with already
// (interrupted, refused by robots.txt, or its robots.txt failed): err is
// then the work's result.
func (c *Crawler) fetchAdmitted(ctx context.Context, e frontier.Entry, u *url.URL) (p *browser.Page, ferr error, done bool, err error) {
	release, allowed, crawlDelay, rerr := fetchpolicy.Admit(ctx, c.slots, c.robots, u)
	switch {
	case ctx.Err() != nil:
		return nil, nil, true, c.interrupted(e)
	case rerr != nil:
		return nil, nil, true, c.robotsFailed(ctx, e, rerr)
	case !allowed:
		return nil, nil, true, c.finish(ctx, e, frontier.Record{Outcome: OutcomeRobots, Detail: "disallowed by robots.txt"})
	}
	p, ferr = c.fetchPage(ctx, e.URL)
	release(crawlDelay)
	if ctx.Err() != nil {
		return nil, nil, true, c.interrupted(e)
	}
	return p, ferr, false, nil
}

// checkRedirects checks where a fetcher of the caller's (a browser), which
// follows redirects itself, went before anything is kept: the guard's
// refusal of a hop, nil when all are allowed.
func (c *Crawler) checkRedirects(ctx context.Context, p *browser.Page, ferr error) error {
	if ferr != nil || p == nil || c.cfg.Fetcher == nil {
		return nil
	}
	hops := []string{p.FinalURL}
	for _, r := range p.Redirects {
		hops = append(hops, r.URL)
	}
	for _, h := range hops {
		if hu, err := url.Parse(h); err == nil && hu.Host != "" {
			if err := c.guard.Check(ctx, hu); err != nil {
				return err
			}
		}
	}
	return nil
}

// store stores a fetched page (or its failure) and processes it.
func (c *Crawler) store(ctx context.Context, e frontier.Entry, p *browser.Page, ferr error) error {
	sp, err := capture.ToStore(e.URL, Dataset(c.cfg.Name), store.SiteFromDomain, p, ferr)
	if err != nil {
		return c.finish(ctx, e, frontier.Record{Outcome: OutcomeHTTPError, Detail: err.Error()})
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
func (c *Crawler) fetchFailed(e frontier.Entry, ferr error) (handled bool, err error) {
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
func (c *Crawler) robotsFailed(ctx context.Context, e frontier.Entry, rerr error) error {
	if handled, err := c.fetchFailed(e, rerr); handled {
		return err
	}
	if fetchpolicy.FailureOf(rerr) != browser.FailureNetwork {
		return c.finish(ctx, e, frontier.Record{Outcome: OutcomeRobots, Detail: rerr.Error()})
	}
	if e.Attempts < c.cfg.Retries {
		return c.fr.Requeue(context.WithoutCancel(ctx), e.URL, true)
	}
	return c.finish(ctx, e, frontier.Record{Outcome: OutcomeHTTPError, Detail: rerr.Error()})
}

// interrupted puts a URL back in the queue after a cancellation.
func (c *Crawler) interrupted(e frontier.Entry) error {
	return c.fr.Requeue(context.Background(), e.URL, false)
}

// unleaseOnError puts e back in the queue when its work failed with err
// (a store failure, a fetcher that stopped): a URL is never left leased by
// a run that goes on or stops, whatever ended its page.
func (c *Crawler) unleaseOnError(e frontier.Entry, err error) error {
	if err == nil {
		return nil
	}
	if rerr := c.interrupted(e); rerr != nil {
		return errors.Join(err, fmt.Errorf("requeue %s: %w", e.URL, rerr))
	}
	return err
}

// finish commits a URL that was not fetched.
func (c *Crawler) finish(ctx context.Context, e frontier.Entry, d frontier.Record) error {
	d.URL = e.URL
	d.Depth = e.Depth
	d.Merge = c.strategy.Merge
	return c.commit(ctx, d)
}

func (c *Crawler) commit(ctx context.Context, d frontier.Record) error {
	d.HostPageCap = c.cfg.HostPageCap
	err := c.fr.Commit(context.WithoutCancel(ctx), d)
	if errors.Is(err, ErrLeaseLost) {
		c.cfg.Logf("%v", err)
		return nil
	}
	c.mu.Lock()
	if err == nil {
		c.processed++
		c.counters.Add(d.Outcome, d.Tokens)
	}
	cnt := c.counters.Clone()
	processed := c.processed
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if c.cfg.Progress != nil {
		// Counting the queue costs a scan: at most once a second.
		c.mu.Lock()
		if time.Since(c.queuedAt) > time.Second {
			c.queued, _ = c.fr.Count(ctx, StateQueued)
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
