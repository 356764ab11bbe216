package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/gleaner/gleaner/browser/chromeproc"
	"github.com/gleaner/gleaner/browser/wire"
)

// Renderer renders pages in one headless Chromium with a bounded number of
// tabs. It is safe for concurrent use; Close it to stop the browser.
type Renderer struct {
	opt   Options
	sem   chan struct{}
	proxy *wire.Proxy // nil without Options.Dial or Options.Record

	mu       sync.Mutex
	cur      *instance
	closed   bool
	retiring sync.WaitGroup // instances retired but not yet stopped

	pages, retries, started, crashes atomic.Int64
	peakRSS, peakPSS                 atomic.Int64
}

// Stats are counters of a Renderer's life.
type Stats struct {
	Pages    int64 // pages returned (partial ones included)
	Retries  int64 // attempts repeated after a crash
	Restarts int64 // browsers started after the first
	Crashes  int64 // browsers or tabs found dead
	// PeakRSS and PeakPSS are the highest sampled memory of the browser's
	// process tree in bytes: RSS summed over the processes (shared pages
	// counted in each), and PSS (shared pages split, the real cost).
	PeakRSS, PeakPSS int64
}

// instance is one Chromium process.
type instance struct {
	id int
	// Browser is the process: its Ctx is Done when the browser dies.
	*chromeproc.Browser

	mu     sync.Mutex
	active int  // pages in progress
	retire bool // stop once active drops to 0
	sites  map[string]*siteContext
	pages  int
	memAt  time.Time // memory last read
	idle   []*tab    // tabs kept for their site's next page (Renderer.park)
	// memKills are the renderers killed over their memory bound (the
	// latest maxMemKills), see watchMemory.
	memKills []memKill

	spare   chan *tab   // a tab opened in advance (isolated pages only)
	warming atomic.Bool // a spare tab is being opened
}

// New checks the options and returns a Renderer. The browser starts with the
// first page. It touches no other process: a program calls SweepStale
// itself for the leftovers of earlier ones.
func New(opt Options) (*Renderer, error) {
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	r := &Renderer{opt: o, sem: make(chan struct{}, o.Tabs)}
	if o.Dial != nil || o.Record.On {
		if r.proxy, err = wire.Start(o.Dial, o.MaxResponseBytes, o.MaxHTMLBytes); err != nil {
			return nil, err
		}
		if o.Record.On {
			if err := r.proxy.Record(o.Record); err != nil {
				r.proxy.Close()
				return nil, err
			}
		}
	}
	return r, nil
}

// SweepStale kills the Chromium processes and removes the user data
// directories that programs of this package left when they died without
// cleaning up (SIGKILL, OOM): those of processes gone. A program calls it
// once, when it starts (the gleaner command does); New does not, as
// killing processes is no side effect of making a renderer.
func SweepStale() { chromeproc.SweepStale() }

// ErrClosed is returned by Fetch after Close.
var ErrClosed = errors.New("browser: renderer closed")

// ErrRefused is wrapped by the error of Fetch when Options.AllowRequest
// refused the page's document (or a redirect hop of it), and by a dialer's
// refusal (Options.Dial): one value with the proxy's (wire.ErrRefused).
var ErrRefused = wire.ErrRefused

// DialFunc connects to a network address, as net.Dialer.DialContext does
// (wire.DialFunc). A connection it refuses (rather than fails to make)
// must be refused with an error wrapping [ErrRefused].
type DialFunc = wire.DialFunc

// errCrashed marks an attempt that failed because the browser or its tab
// died; such attempts are retried.
var errCrashed = errors.New("browser or tab crashed")

// Fetch renders rawURL and captures it. The page's own deadline is
// Options.PageTimeout; ctx can cut it shorter. An HTTP error status is not
// an error: it is in Page.Status.
func (r *Renderer) Fetch(ctx context.Context, rawURL string) (*Page, error) {
	return r.FetchPage(ctx, rawURL, PageOptions{})
}

// FetchPage renders rawURL as Fetch does, with what the caller knows of
// the page (see PageOptions).
func (r *Renderer) FetchPage(ctx context.Context, rawURL string, po PageOptions) (*Page, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "file") || (u.Scheme != "file" && u.Host == "") {
		return nil, fmt.Errorf("render %q: not an absolute http(s) URL", rawURL)
	}
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("render %s: %w", rawURL, ctx.Err())
	}
	defer func() { <-r.sem }()

	var lastErr error
	for attempt := 1; attempt <= r.opt.Retries+1; attempt++ {
		p, again, err := r.attempt(ctx, u, po, attempt)
		if err == nil {
			return p, nil
		}
		lastErr = err
		if !again {
			break
		}
	}
	return nil, fmt.Errorf("render %s: %w", rawURL, lastErr)
}

// attempt renders u once (attempt of them): the page, counted, or whether
// another attempt may render it (a crashed tab) and the error.
func (r *Renderer) attempt(ctx context.Context, u *url.URL, po PageOptions, attempt int) (*Page, bool, error) {
	inst, err := r.acquire()
	if err != nil {
		return nil, false, err
	}
	p, err := r.render(ctx, inst, u, po)
	r.release(inst, err)
	var tl *tooLargeError
	if errors.As(err, &tl) {
		if kept := r.tooLargePage(u, tl); kept != nil {
			p, err = kept, nil
		}
	}
	if err == nil {
		p.Attempts = attempt
		r.pages.Add(1)
		return p, false, nil
	}
	if !errors.Is(err, errCrashed) || ctx.Err() != nil {
		return nil, false, err
	}
	r.crashes.Add(1)
	// The retry gets a fresh browser context for the site: opening a
	// tab where a renderer was just killed can wait on the dead
	// process (seen once in CI: the retry's tab did not open in 30 s).
	inst.forgetSite(siteKey(u))
	if attempt <= r.opt.Retries {
		r.retries.Add(1)
		r.logf("browser: %s: %v; retrying", u, err)
	}
	return nil, true, err
}

// Stats returns the counters so far.
func (r *Renderer) Stats() Stats {
	return Stats{
		Pages: r.pages.Load(), Retries: r.retries.Load(), Restarts: max(r.started.Load()-1, 0),
		Crashes: r.crashes.Load(), PeakRSS: r.peakRSS.Load(), PeakPSS: r.peakPSS.Load(),
	}
}

// BrowserPID returns the pid of the running browser, or 0 when none runs.
// Tests use it to kill the browser.
func (r *Renderer) BrowserPID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur == nil || r.cur.Ctx.Err() != nil {
		return 0
	}
	return r.cur.PID
}

// Memory returns the memory of the running browser's process tree in bytes
// (zeros when none runs): RSS summed over its processes and PSS (see
// Stats), and records them in the peaks.
func (r *Renderer) Memory() (rss, pss int64) {
	pid := r.BrowserPID()
	if pid == 0 {
		return 0, 0
	}
	rss, pss = chromeproc.TreeMem(pid)
	r.notePeak(rss, pss)
	return rss, pss
}

func (r *Renderer) notePeak(rss, pss int64) {
	for _, c := range []struct {
		peak *atomic.Int64
		v    int64
	}{{&r.peakRSS, rss}, {&r.peakPSS, pss}} {
		for {
			old := c.peak.Load()
			if c.v <= old || c.peak.CompareAndSwap(old, c.v) {
				break
			}
		}
	}
}

// Close stops the browser (waiting for pages in progress to end) and removes
// its user data directory. Fetch fails with ErrClosed afterwards.
func (r *Renderer) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	inst := r.cur
	r.cur = nil
	r.mu.Unlock()
	if inst != nil {
		r.retireInstance(inst)
	}
	r.retiring.Wait()
	if r.proxy != nil {
		r.proxy.Close()
	}
	return nil
}

func (r *Renderer) logf(format string, args ...any) {
	if r.opt.Logf != nil {
		r.opt.Logf(format, args...)
	}
}

// acquire returns the running browser, starting one when none runs or the
// current one died or is being retired, and counts a page on it.
func (r *Renderer) acquire() (*instance, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if r.cur != nil && r.cur.Ctx.Err() != nil {
		r.logf("browser: chromium %d died; starting a new one", r.cur.PID)
		old := r.cur
		r.cur = nil
		r.retireInstance(old)
	}
	if r.cur == nil {
		inst, err := r.start()
		if err != nil {
			return nil, err
		}
		r.cur = inst
	}
	inst := r.cur
	inst.mu.Lock()
	inst.active++
	inst.pages++
	full := inst.pages >= r.opt.RetireAfter
	inst.mu.Unlock()
	if full {
		// Later pages go to a new browser; this one stops after its last page.
		r.logf("browser: retiring chromium %d after %d pages", inst.PID, r.opt.RetireAfter)
		r.cur = nil
		r.retireInstance(inst)
	}
	return inst, nil
}

// release ends a page on inst, retiring inst when it is over the memory
// limit or died.
func (r *Renderer) release(inst *instance, err error) {
	var pss int64
	if inst.Ctx.Err() == nil && inst.memDue() {
		var rss int64
		rss, pss = chromeproc.TreeMem(inst.PID)
		r.notePeak(rss, pss)
	}
	inst.mu.Lock()
	inst.active--
	stop := inst.retire && inst.active == 0
	inst.mu.Unlock()
	if stop {
		r.stop(inst)
		return
	}
	if pss > r.opt.MaxMemory || inst.Ctx.Err() != nil {
		r.mu.Lock()
		if r.cur == inst {
			if pss > r.opt.MaxMemory {
				r.logf("browser: retiring chromium %d at %d MiB PSS", inst.PID, pss>>20)
			}
			r.cur = nil
			r.retireInstance(inst)
		}
		r.mu.Unlock()
	}
}

// memEvery is how often the browser's memory is read after a page: reading
// it walks /proc of every Chromium process (46 ms a page when done after
// each), and one page cannot grow far past the bound in between (a
// script's heap is bounded by --max-old-space-size, responses by the
// proxy, each renderer by watchMemory).
const memEvery = 2 * time.Second

// memDue reports whether the memory of inst is to be read now, and if so
// counts it as read.
func (inst *instance) memDue() bool {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	if now := time.Now(); now.Sub(inst.memAt) >= memEvery {
		inst.memAt = now
		return true
	}
	return false
}

// retireInstance marks inst to stop once its pages are done (at once when it
// has none).
func (r *Renderer) retireInstance(inst *instance) {
	inst.mu.Lock()
	if inst.retire {
		inst.mu.Unlock()
		return
	}
	inst.retire = true
	idle := inst.active == 0
	inst.mu.Unlock()
	r.retiring.Add(1)
	if idle {
		go r.stop(inst)
	}
}

// stop closes the browser gracefully for a short while, then kills its whole
// process tree and removes its directory.
func (r *Renderer) stop(inst *instance) {
	defer r.retiring.Done()
	inst.closeIdle()
	inst.Stop(3 * time.Second)
}

// start launches a browser.
func (r *Renderer) start() (*instance, error) {
	o := r.opt
	c := chromeproc.Config{ExecPath: o.ExecPath, Width: o.Width, Height: o.Height, UserAgent: o.UserAgent, MaxMemory: o.MaxMemory, Extra: o.extraFlags}
	if r.proxy != nil {
		c.ProxyAddr, c.ProxySPKI = r.proxy.Addr(), r.proxy.SPKI()
	}
	proc, err := chromeproc.Launch(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBrowserStart, err)
	}
	n := r.started.Add(1)
	inst := &instance{id: int(n), Browser: proc, sites: map[string]*siteContext{}, spare: make(chan *tab, 1)}
	if inst.PID != 0 && o.MaxRendererMemory > 0 {
		go r.watchMemory(inst)
	}
	return inst, nil
}

// siteKey names the site of u for its shared browser context: the host
// without "www."; "" for nil.
func siteKey(u *url.URL) string {
	if u == nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// maxSiteContexts bounds the browser contexts kept for sites: a crawl
// over many hosts must not keep one per host for the browser's life.
const maxSiteContexts = 16

// siteContext is the browser context the pages of one site share.
type siteContext struct {
	id     cdp.BrowserContextID
	active int // tabs open in it
	last   time.Time
	// forgotten: no longer the site's context (see forgetSite); disposed
	// once its last tab is closed.
	forgotten bool
}

// browserContext returns the context options of a new tab for u, a fresh
// isolated browser context when u is nil, and the function to call when
// the tab is closed.
func (inst *instance) browserContext(u *url.URL) ([]chromedp.ContextOption, func(), error) {
	if u == nil {
		return []chromedp.ContextOption{chromedp.WithNewBrowserContext()}, func() {}, nil
	}
	site := siteKey(u)
	inst.mu.Lock()
	defer inst.mu.Unlock()
	sc, ok := inst.sites[site]
	if !ok {
		res, err := chromedp.CallBrowser(inst.Ctx, target.CreateBrowserContext, target.CreateBrowserContextParams{})
		if err != nil {
			return nil, nil, fmt.Errorf("create browser context for %s: %w", site, err)
		}
		sc = &siteContext{id: res.BrowserContextID}
		inst.sites[site] = sc
		inst.evictSites()
	}
	sc.active++
	sc.last = time.Now()
	done := func() {
		inst.mu.Lock()
		sc.active--
		dispose := sc.forgotten && sc.active == 0
		inst.mu.Unlock()
		if dispose {
			inst.disposeContext(sc.id)
		}
	}
	return []chromedp.ContextOption{chromedp.WithExistingBrowserContext(sc.id)}, done, nil
}

// evictSites disposes of the least recently used idle site contexts beyond
// maxSiteContexts; inst.mu is held.
func (inst *instance) evictSites() {
	for len(inst.sites) > maxSiteContexts {
		var oldest string
		for name, sc := range inst.sites {
			if sc.active == 0 && (oldest == "" || sc.last.Before(inst.sites[oldest].last)) {
				oldest = name
			}
		}
		if oldest == "" {
			return // all in use
		}
		id := inst.sites[oldest].id
		delete(inst.sites, oldest)
		inst.disposeContext(id)
	}
}

// forgetSite makes the next tab of site open in a new browser context; the
// current one is disposed once its last tab is closed.
func (inst *instance) forgetSite(site string) {
	inst.mu.Lock()
	sc, ok := inst.sites[site]
	if ok {
		delete(inst.sites, site)
		sc.forgotten = true
	}
	dispose := ok && sc.active == 0
	inst.mu.Unlock()
	if dispose {
		inst.disposeContext(sc.id)
	}
}

func (inst *instance) disposeContext(id cdp.BrowserContextID) {
	go chromedp.CallBrowser(inst.Ctx, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: id})
}
