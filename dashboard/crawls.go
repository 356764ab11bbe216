package dashboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/store"
)

// Crawl states as the dashboard knows them.
const (
	stateRunning  = "running"
	statePausing  = "pausing"
	stateStopping = "stopping"
	stateStopped  = "stopped"
	stateFailed   = "failed"
	stateIdle     = "idle" // in the store, not running in this dashboard
)

const (
	maxLogLines = 500
	maxSamples  = 400
)

// sample is one point of a crawl's progress chart.
type sample struct {
	At        time.Duration
	Tried     int
	Validated int
}

// crawlRun is a crawl launched by this dashboard.
type crawlRun struct {
	cfg    crawler.Config
	render bool
	tabs   int
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	state   string
	stop    string // why the last run stopped
	err     error
	logs    []string
	logSeq  int // lines ever logged; logs holds the last ones
	samples []sample
	last    crawler.Progress
	started time.Time
}

func (c *crawlRun) logf(format string, args ...any) {
	line := time.Now().UTC().Format("15:04:05 ") + fmt.Sprintf(format, args...)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.logs = append(c.logs, line)
	if len(c.logs) > maxLogLines {
		c.logs = c.logs[len(c.logs)-maxLogLines:]
	}
	c.logSeq++
}

func (c *crawlRun) progress(p crawler.Progress) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = p
	at := time.Since(c.started)
	if n := len(c.samples); n > 0 && at-c.samples[n-1].At < 200*time.Millisecond {
		c.samples[n-1] = sample{At: at, Tried: p.Counters.Tried, Validated: p.Counters.Validated}
		return
	}
	c.samples = append(c.samples, sample{At: at, Tried: p.Counters.Tried, Validated: p.Counters.Validated})
	if len(c.samples) > maxSamples {
		c.samples = thin(c.samples)
	}
}

// thin keeps every other sample, and the last.
func thin(s []sample) []sample {
	out := s[:0]
	for i := range s {
		if i%2 == 0 || i == len(s)-1 {
			out = append(out, s[i])
		}
	}
	return out
}

// logsSince returns the lines logged after the first seq ones, and the new
// count.
func (c *crawlRun) logsSince(seq int) ([]string, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.logSeq - seq
	if n <= 0 {
		return nil, c.logSeq
	}
	n = min(n, len(c.logs))
	return append([]string(nil), c.logs[len(c.logs)-n:]...), c.logSeq
}

// snapshot is a crawl's state for a view.
type snapshot struct {
	State          string
	Stop           string
	Err            string
	PagesPerSecond float64
	Frontier       int
	Samples        []sample
	Render         bool
}

func (c *crawlRun) snapshot() snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := snapshot{State: c.state, Stop: c.stop, PagesPerSecond: c.last.PagesPerSecond, Frontier: c.last.Frontier,
		Samples: append([]sample(nil), c.samples...), Render: c.render}
	if c.err != nil {
		s.Err = c.err.Error()
	}
	return s
}

// crawlManager runs the crawls launched from the dashboard.
type crawlManager struct {
	db  *store.DB
	opt Options
	mu  sync.Mutex
	run map[string]*crawlRun
}

func newCrawlManager(db *store.DB, opt Options) *crawlManager {
	return &crawlManager{db: db, opt: opt, run: map[string]*crawlRun{}}
}

func (m *crawlManager) get(name string) *crawlRun {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.run[name]
}

// errBusy is returned when a crawl of that name is running here.
var errBusy = errors.New("is running")

// launch starts crawl cfg in the background.
func (m *crawlManager) launch(cfg crawler.Config, render bool, tabs int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old := m.run[cfg.Name]; old != nil && !old.finished() {
		return fmt.Errorf("crawl %s %w", cfg.Name, errBusy)
	}
	cr := &crawlRun{cfg: cfg, render: render, tabs: tabs, state: stateRunning, done: make(chan struct{}), started: time.Now(), samples: []sample{{}}}
	if old := m.run[cfg.Name]; old != nil {
		cr.logs, cr.logSeq = old.logs, old.logSeq
	}
	cfg.Logf, cfg.Progress = cr.logf, cr.progress
	var closer io.Closer
	if render {
		r, err := m.renderer(cfg, tabs, cr.logf)
		if err != nil {
			return err
		}
		cfg.Fetcher, closer = r, r
		if cfg.Workers == 0 {
			cfg.Workers = tabs
		}
	}
	c, err := crawler.New(m.db, cfg)
	if err != nil {
		if closer != nil {
			closer.Close()
		}
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	cr.cancel = cancel
	m.run[cfg.Name] = cr
	cr.logf("crawl %s launched: %d seeds, strategy %s, %s", cfg.Name, len(cfg.Seeds), orDefault(cfg.Strategy, "opic"), map[bool]string{true: "rendered", false: "plain HTTP"}[render])
	go cr.execute(ctx, c, closer)
	return nil
}

// renderer starts Chromium for a render-mode crawl, every request and
// connection of it passing the crawl's guard, as the command line does (one
// constructor: crawler.Config.Renderer).
func (m *crawlManager) renderer(cfg crawler.Config, tabs int, logf func(string, ...any)) (browser.ClosingFetcher, error) {
	r, err := cfg.Renderer(m.opt.Chromium, tabs, logf)
	if err != nil {
		return nil, fmt.Errorf("render mode: %w", err)
	}
	return r, nil
}

func (cr *crawlRun) execute(ctx context.Context, c *crawler.Crawler, closer io.Closer) {
	defer close(cr.done)
	sum, err := c.Run(ctx)
	if closer != nil {
		closer.Close()
	}
	cr.logf("crawl %s stopped: %s after %v; %s", cr.cfg.Name, orDefault(sum.Stop, "error"), sum.Elapsed.Round(time.Millisecond), sum.Counters)
	if err != nil {
		cr.logf("error: %v", err)
	}
	cr.mu.Lock()
	defer cr.mu.Unlock()
	cr.stop, cr.err, cr.state = sum.Stop, err, stateStopped
	if err != nil {
		cr.state = stateFailed
	}
}

func (cr *crawlRun) finished() bool {
	select {
	case <-cr.done:
		return true
	default:
		return false
	}
}

func (cr *crawlRun) setState(s string) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.state == stateRunning || cr.state == statePausing {
		cr.state = s
	}
}

// control pauses, resumes or stops crawl name.
func (m *crawlManager) control(ctx context.Context, name, action string) error {
	cr := m.get(name)
	switch action {
	case "pause":
		if err := crawler.Pause(ctx, m.db, name); err != nil {
			return err
		}
		if cr != nil {
			cr.setState(statePausing)
			cr.logf("pause asked: the crawl stops after the pages in flight")
		}
		return nil
	case "resume":
		return m.resume(ctx, name, cr)
	case "stop":
		if cr == nil || cr.finished() {
			return fmt.Errorf("crawl %s is not running in this dashboard", name)
		}
		cr.setState(stateStopping)
		cr.logf("stop asked")
		cr.cancel()
		return nil
	}
	return fmt.Errorf("unknown action %q (want pause, resume or stop)", action)
}

// resume clears the paused flag and, for a crawl launched here that is not
// running, runs it again.
func (m *crawlManager) resume(ctx context.Context, name string, cr *crawlRun) error {
	if err := crawler.Resume(ctx, m.db, name); err != nil {
		return err
	}
	if cr == nil {
		return nil // launched elsewhere: its own command reruns it
	}
	if !cr.finished() {
		<-cr.done // a pause in progress: wait for the pages in flight
	}
	return m.launch(cr.cfg, cr.render, cr.tabs)
}

// names lists the crawls of the store and those launched here.
func (m *crawlManager) names(ctx context.Context) ([]string, error) {
	names, err := crawler.Crawls(ctx, m.db)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	m.mu.Lock()
	for n := range m.run {
		if !seen[n] {
			names = append(names, n)
		}
	}
	m.mu.Unlock()
	sort.Strings(names)
	return names, nil
}

// stopAll cancels every running crawl and waits for them.
func (m *crawlManager) stopAll() error {
	m.mu.Lock()
	runs := make([]*crawlRun, 0, len(m.run))
	for _, cr := range m.run {
		runs = append(runs, cr)
	}
	m.mu.Unlock()
	for _, cr := range runs {
		cr.cancel()
		<-cr.done
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
