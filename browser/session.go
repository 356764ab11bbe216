package browser

import (
	"context"
	_ "embed"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/gleaner/gleaner/browser/netidle"
	"github.com/gleaner/gleaner/browser/outlinks"
	"github.com/gleaner/gleaner/browser/pagestate"
	"github.com/gleaner/gleaner/browser/snapshot"
	"github.com/gleaner/gleaner/browser/wire"
	"github.com/gleaner/gleaner/treediff"
)

var (
	//go:embed js/init.js
	initJS string
	//go:embed js/consent.js
	consentJS string
	//go:embed js/loadmore.js
	loadMoreJS string
)

// scrollJS scrolls to the bottom and resolves two frames later, once the
// intersection observers of lazy content have been told.
const scrollJS = `new Promise(done => {
  window.scrollTo(0, (document.scrollingElement || document.documentElement).scrollHeight);
  requestAnimationFrame(() => requestAnimationFrame(() => done()));
})`

// cutGrace is how long the DOM of a page whose document tunnel was cut
// must stay unchanged before it is captured: the parser has caught up with
// what arrived.
const cutGrace = time.Second

// hardGrace is how long a page may outlive its deadline (its capture's
// last command, the tab's closing) before its tab is closed under it: a
// render returns by then.
const hardGrace = 2 * time.Second

// pollEvery is how often the waiting loop looks at a page that is busy.
const pollEvery = 100 * time.Millisecond

// sigTrap is the signal that stops a renderer whose script ran out of heap
// (V8 gives up with an immediate crash, a trap), or that failed a fatal
// check: either way, the page would do it again.
const sigTrap = 5

// memoryBlown returns the error of a tab whose renderer died of its memory
// bound, nil otherwise.
func (s *tabState) memoryBlown() error {
	// The termination status comes in its own event, shortly after the
	// crash itself.
	for wait := 0; wait < 20; wait++ {
		s.mu.Lock()
		got := s.crashStatus != ""
		s.mu.Unlock()
		if got {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.crashStatus == "oom" || (s.crashStatus == "crashed" && s.crashCode == sigTrap) {
		return fmt.Errorf("the tab's renderer stopped (%s, signal %d): out of memory at the script heap bound: %w", s.crashStatus, s.crashCode, ErrTooLarge)
	}
	return nil
}

// tabState is what the event listener of one tab learns. The listener runs
// in chromedp's read loop, so it only records, under mu.
type tabState struct {
	mu        sync.Mutex
	mainFrame cdp.FrameID
	mainReq   network.RequestID // the request of the main frame's document
	mainURL   string            // its URL (after redirects)
	net       *netidle.Tracker
	favicons  map[network.RequestID]bool // the browser's favicon requests
	status    int
	ctype     string
	redirects []Redirect
	nav       []string
	urls      map[string]bool // requested by the page (see noteURL)
	tags      map[string]bool // of the exchanges it received (see noteTag)
	requests  int
	blocked   int
	paused    []*fetch.EventRequestPaused
	refused   []string // notes of requests AllowRequest refused (at most maxRefusalNotes)
	nRefused  int
	// mainRefused is the refusal of a main-frame document request.
	mainRefused error
	// crashStatus and crashCode are Chromium's termination status of the
	// tab's renderer and its signal, when it crashed.
	crashStatus string
	crashCode   int64

	loaded    chan struct{} // closed at the main frame's load event
	crashed   chan struct{} // closed when the renderer of the tab crashed
	pausedSig chan struct{} // a request waits in paused
	dialogSig chan struct{} // a JavaScript dialog (alert, confirm...) waits
	isLoaded  bool          // loaded is closed
	crashOnce sync.Once
}

func newTabState() *tabState {
	return &tabState{
		net:       netidle.New(),
		favicons:  map[network.RequestID]bool{},
		loaded:    make(chan struct{}),
		crashed:   make(chan struct{}),
		pausedSig: make(chan struct{}, 1),
		dialogSig: make(chan struct{}, 1),
	}
}

// reset makes the state of a tab kept for its site's next page (see
// Renderer.park) fresh for that page.
func (s *tabState) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mainReq, s.mainURL, s.status, s.ctype = "", "", 0, ""
	s.net.Reset()
	clear(s.favicons)
	s.redirects, s.nav, s.requests, s.blocked = nil, nil, 0, 0
	s.refused, s.nRefused, s.mainRefused = nil, 0, nil
	s.urls = nil
	s.loaded, s.isLoaded = make(chan struct{}), false
}

// loadedCh is the channel closed at the current page's load event.
func (s *tabState) loadedCh() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loaded
}

// listen follows the tab's events (chromedp.ListenTarget).
func (s *tabState) listen(ev any) {
	now := time.Now()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		s.requestSent(ev, now)
	case *network.EventResponseReceived:
		s.responseReceived(ev)
	case *network.EventLoadingFinished:
		s.done(ev.RequestID, now)
	case *network.EventLoadingFailed:
		s.loadingFailed(ev, now)
	case *page.EventLoadEventFired:
		s.loadFired()
	case *page.EventNavigatedWithinDocument:
		s.mu.Lock()
		if ev.FrameID == s.mainFrame {
			s.nav = append(s.nav, ev.URL)
		}
		s.mu.Unlock()
	case *page.EventJavascriptDialogOpening:
		wake(s.dialogSig)
	case *inspector.EventTargetCrashed:
		s.crashOnce.Do(func() { close(s.crashed) })
	case *target.EventTargetCrashed:
		s.mu.Lock()
		if cdp.FrameID(ev.TargetID) == s.mainFrame {
			s.crashStatus, s.crashCode = ev.Status, ev.ErrorCode
		}
		s.mu.Unlock()
	case *fetch.EventRequestPaused:
		s.mu.Lock()
		s.paused = append(s.paused, ev)
		s.mu.Unlock()
		wake(s.pausedSig)
	}
}

// wake wakes the waiter on sig, if none is already woken.
func wake(sig chan struct{}) {
	select {
	case sig <- struct{}{}:
	default:
	}
}

// requestSent notes a request of the page: its main document's hops, its
// URL, when the network was busy.
func (s *tabState) requestSent(ev *network.EventRequestWillBeSent, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev.RedirectResponse != nil {
		s.noteTag(ev.RedirectResponse.Headers)
		if ev.RequestID == s.mainReq {
			s.redirects = append(s.redirects, Redirect{URL: ev.RedirectResponse.URL, Status: int(ev.RedirectResponse.Status)})
		}
	} else {
		s.requests++
	}
	s.noteMainRequest(ev)
	if ev.Request != nil {
		s.noteURL(ev.Request.URL)
	}
	if ev.Type == network.ResourceTypeOther && ev.Request != nil && strings.HasSuffix(ev.Request.URL, "/favicon.ico") {
		s.favicons[ev.RequestID] = true
	}
	s.net.Started(string(ev.RequestID), ev.RedirectResponse != nil, now)
}

// noteMainRequest follows the main frame's document request, a
// navigation of the page itself included (caller holds s.mu).
func (s *tabState) noteMainRequest(ev *network.EventRequestWillBeSent) {
	if ev.Type == network.ResourceTypeDocument && s.mainFrame != "" && ev.FrameID == s.mainFrame && ev.RequestID != s.mainReq {
		if s.mainReq != "" && s.mainURL != "" {
			// The page navigated itself (script, meta refresh): a
			// client-side hop, with the status its document had.
			s.redirects = append(s.redirects, Redirect{URL: s.mainURL, Status: s.status})
		}
		s.mainReq = ev.RequestID
	}
	if ev.RequestID == s.mainReq && ev.Request != nil {
		s.mainURL = ev.Request.URL
	}
}

// responseReceived notes the main document's status and type, and a
// refusal the proxy answered.
func (s *tabState) responseReceived(ev *network.EventResponseReceived) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev.Response != nil {
		s.noteTag(ev.Response.Headers)
	}
	if ev.RequestID == s.mainReq && ev.Response != nil {
		s.status = int(ev.Response.Status)
		s.ctype = ev.Response.MimeType
	}
	if why := proxyRefusal(ev.Response); why != "" {
		s.noteRefused(ev.Response.URL, why, ev.RequestID == s.mainReq)
	}
}

// loadingFailed counts a request blocked by URL pattern, and ends it.
func (s *tabState) loadingFailed(ev *network.EventLoadingFailed, now time.Time) {
	if ev.BlockedReason == network.BlockedReasonInspector {
		s.mu.Lock()
		if !s.favicons[ev.RequestID] { // the browser's own request, not the page's
			s.blocked++ // by URL pattern (Network.setBlockedURLs)
		}
		s.mu.Unlock()
	}
	s.done(ev.RequestID, now)
}

// loadFired notes the page's load event, once.
func (s *tabState) loadFired() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.isLoaded {
		s.isLoaded = true
		close(s.loaded)
	}
}

// done notes the end of the request id.
func (s *tabState) done(id network.RequestID, now time.Time) {
	s.net.Done(string(id), now)
}

// maxRefusalNotes bounds the refusals listed in Page.Notes.
const maxRefusalNotes = 20

// maxChecks bounds the AllowRequest calls running at once for one tab.
const maxChecks = 8

// interceptLoop answers every request the Fetch domain paused: it fails
// those of a blocked resource type and those allow refuses, and lets the
// others go on. Chrome pauses every redirect hop again, so hops are checked
// too. Without allow, Fetch.enable was given only the blocked types.
func (s *tabState) interceptLoop(ctx context.Context, block []string, allow func(context.Context, *url.URL) error) {
	blocked := map[network.ResourceType]bool{}
	for _, t := range block {
		blocked[network.ResourceType(t)] = true
	}
	sem := make(chan struct{}, maxChecks)
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.pausedSig:
		}
		s.mu.Lock()
		evs := s.paused
		s.paused = nil
		s.mu.Unlock()
		for _, ev := range evs {
			if allow == nil || blocked[ev.ResourceType] {
				s.mu.Lock()
				s.blocked++
				s.mu.Unlock()
				if _, err := chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient}); err != nil && ctx.Err() != nil {
					return
				}
				continue
			}
			// The check may resolve a host name: it runs beside the loop
			// so one slow lookup does not hold the page's other requests.
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			go func() {
				defer func() { <-sem }()
				s.check(ctx, ev, allow)
			}()
		}
	}
}

// check asks allow about one paused request and fails or continues it.
func (s *tabState) check(ctx context.Context, ev *fetch.EventRequestPaused, allow func(context.Context, *url.URL) error) {
	var err error
	raw := ""
	if ev.Request != nil {
		raw = ev.Request.URL
	}
	u, perr := url.Parse(raw)
	if perr != nil {
		err = fmt.Errorf("bad URL: %w", perr)
	} else {
		err = allow(ctx, u)
	}
	if err == nil {
		chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		return
	}
	s.mu.Lock()
	s.noteRefused(raw, err.Error(), ev.ResourceType == network.ResourceTypeDocument && ev.FrameID == s.mainFrame)
	s.mu.Unlock()
	chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAccessDenied})
}

// noteRefused records a refused request (main: the main frame's document);
// s.mu is held.
func (s *tabState) noteRefused(raw, why string, main bool) {
	s.nRefused++
	if len(s.refused) < maxRefusalNotes {
		s.refused = append(s.refused, fmt.Sprintf("refused: %s: %s", raw, why))
	}
	if main {
		s.mainRefused = fmt.Errorf("%s: %s", raw, why)
	}
}

// proxyRefusal is the reason the renderer's proxy gave for refusing the
// request of resp, "" when it did not refuse it.
func proxyRefusal(resp *network.Response) string {
	if resp == nil {
		return ""
	}
	for k, v := range resp.Headers {
		if strings.EqualFold(k, wire.RefusedHeader) {
			return fmt.Sprint(v)
		}
	}
	return ""
}

// phases times the steps of one page for its notes.
type phases struct {
	last  time.Time
	parts []string
}

func (ph *phases) mark(name string) {
	now := time.Now()
	ph.parts = append(ph.parts, fmt.Sprintf("%s %.2fs", name, now.Sub(ph.last).Seconds()))
	ph.last = now
}

// dialogLoop accepts every JavaScript dialog (alert, confirm, prompt,
// beforeunload): an open dialog blocks the page's scripts and so every
// evaluation of the waiting loop.
func (s *tabState) dialogLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.dialogSig:
		}
		if _, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil && ctx.Err() != nil {
			return
		}
	}
}

// tab is a browser tab ready to navigate: its own browser context (or its
// site's), the event listener, the page hooks and resource blocking.
type tab struct {
	ctx    context.Context
	cancel context.CancelFunc
	st     *tabState
	site   string // of its browser context; "" for an isolated tab
}

func (t *tab) usable() bool {
	if t.ctx.Err() != nil {
		return false
	}
	select {
	case <-t.st.crashed:
		return false
	default:
		return true
	}
}

// openTab opens a tab of inst in the browser context of u's site, or in a
// context of its own when u is nil.
func (r *Renderer) openTab(inst *instance, u *url.URL) (*tab, error) {
	st := newTabState()
	copts, release, err := inst.browserContext(u)
	if err != nil {
		return nil, err
	}
	copts = append(copts, chromedp.WithListener(st.listen))
	tabCtx, cancelTab := chromedp.NewContext(inst.Ctx, copts...)
	var once sync.Once
	cancel := func() { cancelTab(); once.Do(release) }
	opened := false
	defer func() {
		if !opened {
			cancel()
		}
	}()
	guard := time.AfterFunc(30*time.Second, cancel) // a tab that does not open
	defer guard.Stop()
	if err := chromedp.Do(tabCtx); err != nil {
		return nil, err
	}
	c := chromedp.FromContext(tabCtx)
	st.mu.Lock()
	st.mainFrame = cdp.FrameID(c.Target.TargetID)
	st.mu.Unlock()
	if detached, err := chromedp.Detached(tabCtx); err == nil {
		go func() {
			select {
			case <-detached:
				st.crashOnce.Do(func() { close(st.crashed) })
			case <-tabCtx.Done():
			}
		}()
	}
	go st.dialogLoop(tabCtx)
	if _, err := chromedp.Call(tabCtx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: initJS}); err != nil {
		return nil, fmt.Errorf("install page hooks: %w", err)
	}
	if err := r.blockResources(tabCtx, st); err != nil {
		return nil, err
	}
	if err := r.recordUncached(tabCtx); err != nil {
		return nil, err
	}
	opened = true
	return &tab{ctx: tabCtx, cancel: cancel, st: st, site: siteKey(u)}, nil
}

// park keeps t, whose page is captured, for the next page of its site:
// that page then reuses the tab and its renderer process (a same-site
// navigation stays in it) instead of a new tab and a new process, which
// cost about as much CPU as rendering a page. At most Options.Tabs tabs
// are kept, the oldest closed first; a retiring browser keeps none.
func (r *Renderer) park(inst *instance, t *tab) {
	if !t.usable() {
		t.cancel()
		return
	}
	inst.mu.Lock()
	if inst.retire {
		inst.mu.Unlock()
		t.cancel()
		return
	}
	inst.idle = append(inst.idle, t)
	var drop *tab
	if len(inst.idle) > r.opt.Tabs {
		drop = inst.idle[0]
		inst.idle = inst.idle[1:]
	}
	inst.mu.Unlock()
	if drop != nil {
		drop.cancel()
	}
}

// unpark returns a kept tab of site made fresh, or nil.
func (inst *instance) unpark(site string) *tab {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	for i, t := range inst.idle {
		if t.site != site {
			continue
		}
		inst.idle = append(inst.idle[:i], inst.idle[i+1:]...)
		if !t.usable() {
			t.cancel()
			return nil
		}
		t.st.reset()
		return t
	}
	return nil
}

// closeIdle closes the tabs kept for reuse.
func (inst *instance) closeIdle() {
	inst.mu.Lock()
	idle := inst.idle
	inst.idle = nil
	inst.mu.Unlock()
	for _, t := range idle {
		t.cancel()
	}
}

// blockResources sets up the tab's resource blocking and request checks in
// the cheapest way that is still complete. Blocked types are refused first
// by URL pattern (Network.setBlockedURLs: no round trip at all); the Fetch
// domain then pauses only what needs a decision: the requests of a blocked
// type no pattern caught, and, when the browser has no proxy to decide on
// its connections, every request for AllowRequest. With the proxy
// (Options.Dial) the dialer decides on every connection, so requests are
// not paused for AllowRequest (pausing each one cost a CDP round trip per
// request and most of a page's CPU); the page's own URL is still checked
// before its tab is taken.
func (r *Renderer) blockResources(ctx context.Context, st *tabState) error {
	if pats := blockPatterns(r.opt.Block); len(pats) > 0 {
		if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: pats}); err != nil {
			return fmt.Errorf("block resources by URL: %w", err)
		}
	}
	allow := r.opt.AllowRequest
	if r.opt.Dial != nil {
		allow = nil
	}
	var pats []*fetch.RequestPattern
	if allow != nil {
		pats = []*fetch.RequestPattern{{URLPattern: "*"}} // the request stage is the default
	} else {
		for _, t := range r.opt.Block {
			pats = append(pats, &fetch.RequestPattern{URLPattern: "*", ResourceType: network.ResourceType(t)})
		}
	}
	if len(pats) == 0 {
		return nil
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: pats}); err != nil {
		return fmt.Errorf("enable resource blocking: %w", err)
	}
	go st.interceptLoop(ctx, r.opt.Block, allow)
	return nil
}

// blockedExtensions are the file extensions of the resource types Block
// names, refused by URL pattern before any request is made.
var blockedExtensions = map[string][]string{
	Image: {"png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "ico", "bmp", "tif", "tiff", "apng", "jxl", "heic"},
	Media: {"mp4", "webm", "ogg", "ogv", "oga", "mp3", "m4a", "m4v", "wav", "flac", "aac", "mov", "m3u8", "mpd"},
	Font:  {"woff", "woff2", "ttf", "otf", "eot"},
}

// blockPatterns are the URL patterns (URLPattern syntax) of the
// extensions of the types in block, with and without a query string, in
// lower and upper case.
func blockPatterns(block []string) []*network.BlockPattern {
	var out []*network.BlockPattern
	for _, t := range block {
		for _, ext := range blockedExtensions[t] {
			for _, e := range []string{ext, strings.ToUpper(ext)} {
				out = append(out, &network.BlockPattern{URLPattern: "*://*:*/*." + e, Block: true},
					&network.BlockPattern{URLPattern: "*://*:*/*." + e + "?*", Block: true})
			}
		}
	}
	return out
}

// takeTab returns a tab for u. With isolated pages (Options.Isolate) it takes the spare tab
// opened in advance (opening a tab costs a few round trips and a browser
// context: 0.2-0.5 s) and starts opening the next spare.
func (r *Renderer) takeTab(inst *instance, u *url.URL) (*tab, error) {
	if !r.opt.Isolate {
		if t := inst.unpark(siteKey(u)); t != nil {
			return t, nil
		}
		return r.openTab(inst, u)
	}
	var t *tab
	select {
	case t = <-inst.spare:
		if !t.usable() {
			t.cancel()
			t = nil
		}
	default:
	}
	if t == nil {
		var err error
		if t, err = r.openTab(inst, nil); err != nil {
			return nil, err
		}
	}
	inst.mu.Lock()
	retiring := inst.retire
	inst.mu.Unlock()
	if !retiring && inst.warming.CompareAndSwap(false, true) {
		go func() {
			defer inst.warming.Store(false)
			nt, err := r.openTab(inst, nil)
			if err != nil {
				return
			}
			select {
			case inst.spare <- nt:
			default:
				nt.cancel()
			}
		}()
	}
	return t, nil
}

// render renders u in a new tab of inst.
func (r *Renderer) render(ctx context.Context, inst *instance, u *url.URL, po PageOptions) (*Page, error) {
	start := time.Now()
	deadline, waitUntil := r.deadlines(ctx, start)
	if allow := r.opt.AllowRequest; allow != nil {
		// Refused at once: no tab is spent on it.
		if err := allow(ctx, u); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrRefused, err)
		}
	}
	t, err := r.takeTab(inst, u)
	if err != nil {
		if inst.Ctx.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("open tab: %w: %w", errCrashed, err)
		}
		return nil, fmt.Errorf("open tab: %w", err)
	}
	st := t.st
	keep := false
	defer func() {
		if keep {
			r.park(inst, t)
		} else {
			t.cancel()
		}
	}()
	tabCtx, cancelCrash := crashCancels(t.ctx, st)
	defer cancelCrash()
	fail := func(step string, err error) error { return r.failure(ctx, inst, st, start, step, err) }
	defer context.AfterFunc(ctx, t.cancel)()
	// The tab's own life is bound to its context; this closes it (never the
	// browser) if the page outlives its deadline.
	hard := time.AfterFunc(time.Until(deadline)+hardGrace, t.cancel)
	defer hard.Stop()
	sctx, cancelS := context.WithDeadline(tabCtx, deadline)
	defer cancelS()
	if browserErr, err := r.navigate(sctx, st, u); browserErr {
		return nil, fail("navigate", err)
	} else if err != nil {
		return nil, err
	}
	p := &Page{URL: u.String(), Rendered: true, FetchedAt: start}
	defer r.claimExchanges(st, p)
	ph := &phases{last: start}
	ph.mark("navigate")
	wctx, cancelW := context.WithDeadline(tabCtx, waitUntil)
	rw := newRegionWatch(po, max(r.opt.Wait.Settle, r.opt.Wait.DOMQuiet))
	r.settle(wctx, st, p, ph, rw)
	cancelW()
	p.Notes = append(p.Notes, rw.Notes()...)
	if err := tabAlive(inst, st); err != nil {
		return nil, fail("wait", err)
	}
	if err := r.capture(sctx, st, p); err != nil {
		if kept := r.keptPage(inst, st, p, err); kept != nil {
			return kept, nil
		}
		return nil, fail("capture", err)
	}
	r.markCut(st, p)
	ph.mark("capture")
	p.Notes = append(p.Notes, "time: "+strings.Join(ph.parts, ", "))
	p.Elapsed = time.Since(start)
	keep = !r.opt.Isolate && !p.Partial && ctx.Err() == nil && time.Now().Before(deadline)
	return p, nil
}

// deadlines are the page's deadline (PageTimeout from start, or ctx's if
// sooner) and the end of its wait: part of the budget is kept for the
// capture, so a page that never settles still returns by its deadline.
func (r *Renderer) deadlines(ctx context.Context, start time.Time) (deadline, waitUntil time.Time) {
	deadline = start.Add(r.opt.PageTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	reserve := min(deadline.Sub(start)/5, 5*time.Second)
	return deadline, deadline.Add(-reserve)
}

// crashCancels is a context of the tab's that a crash of its renderer
// cancels: a crashed renderer answers nothing, so commands in flight
// would wait for their deadline.
func crashCancels(tabCtx context.Context, st *tabState) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(tabCtx)
	go func() {
		select {
		case <-st.crashed:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// tabAlive is an error when the tab or its browser crashed.
func tabAlive(inst *instance, st *tabState) error {
	select {
	case <-st.crashed:
		return fmt.Errorf("tab crashed")
	default:
	}
	return inst.Ctx.Err()
}

// navigate opens u in the tab. Its error is final (a refusal, a network
// error, a download), or, with browserErr, the browser's own, for
// failure to judge.
func (r *Renderer) navigate(sctx context.Context, st *tabState, u *url.URL) (browserErr bool, err error) {
	nav, err := chromedp.Call(sctx, page.Navigate, page.NavigateParams{URL: u.String()})
	st.mu.Lock()
	refused := st.mainRefused
	st.mu.Unlock()
	switch {
	case refused != nil:
		return false, fmt.Errorf("navigate: %w: %w", ErrRefused, refused)
	case err != nil:
		return true, err
	case nav.ErrorText != "":
		if err := r.tunnelRefusal(u); err != nil {
			return false, fmt.Errorf("navigate: %w: %w", ErrRefused, err)
		}
		return false, newNetError(nav.ErrorText)
	case nav.IsDownload:
		return false, fmt.Errorf("navigate: the URL is a download, not a page")
	}
	return false, nil
}

// failure is the error of a render of inst's tab st started at start that
// failed at step: too large when its renderer was killed over its memory
// bound, crashed (retried), the caller's context's end, or err.
func (r *Renderer) failure(ctx context.Context, inst *instance, st *tabState, start time.Time, step string, err error) error {
	crashed := inst.Ctx.Err() != nil
	select {
	case <-st.crashed:
		crashed = true
	default:
	}
	switch {
	case crashed && ctx.Err() == nil:
		if k, ok := inst.memKilledSince(start); ok {
			st.mu.Lock()
			tl := &tooLargeError{kill: k, bound: r.opt.MaxRendererMemory, mainURL: st.mainURL, status: st.status, contentType: st.ctype}
			st.mu.Unlock()
			return fmt.Errorf("%s: %w", step, tl) // not retried: it would blow it again
		}
		if blown := st.memoryBlown(); blown != nil {
			return fmt.Errorf("%s: %w", step, blown) // not retried: it would blow it again
		}
		return fmt.Errorf("%s: %w: %w", step, errCrashed, err)
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", step, ctx.Err())
	}
	return fmt.Errorf("%s: %w", step, err)
}

// tunnelRefusal is the proxy's refusal of a tunnel to u's host, if any.
func (r *Renderer) tunnelRefusal(u *url.URL) error {
	if r.proxy == nil || u.Scheme != "https" {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = "443"
	}
	return r.proxy.Refusal(net.JoinHostPort(u.Hostname(), port))
}

// keptPage returns p filled from the document as the proxy received it,
// marked partial, when the tab could not be captured but did not crash (a
// script that never yields, a document still streaming at the deadline);
// nil when there is nothing kept.
func (r *Renderer) keptPage(inst *instance, st *tabState, p *Page, err error) *Page {
	if r.proxy == nil || inst.Ctx.Err() != nil {
		return nil
	}
	select {
	case <-st.crashed:
		return nil
	default:
	}
	st.mu.Lock()
	main, status, ctype := st.mainURL, st.status, st.ctype
	st.mu.Unlock()
	body, cut, ok := r.proxy.Doc(main)
	if !ok || len(body) == 0 {
		return nil
	}
	text, _, derr := treediff.Decode(body, ctype)
	if derr != nil {
		return nil
	}
	p.HTML, p.FinalURL, p.Status, p.ContentType = text, main, status, ctype
	p.Title, p.Links = htmlTitle(text, main), outlinks.Find(text, main, nil)
	// Whatever made p partial before, it is now the document as received.
	p.Partial, p.PartialReason = true, Reason{Kind: ReasonNotCaptured, Detail: fmt.Sprint(err), Bound: r.cutBound(cut)}.String()
	p.Elapsed = time.Since(p.FetchedAt)
	return p
}

// tunnelCut says why the page's document is cut when the proxy cut the TLS
// tunnel to its host since t; ok is false when it did not.
func (r *Renderer) tunnelCut(st *tabState, t time.Time) (why Reason, ok bool) {
	if r.proxy == nil {
		return Reason{}, false
	}
	st.mu.Lock()
	main := st.mainURL
	st.mu.Unlock()
	u, err := url.Parse(main)
	if err != nil || u.Scheme != "https" {
		return Reason{}, false
	}
	port := u.Port()
	if port == "" {
		port = "443"
	}
	if !r.proxy.CutSince(net.JoinHostPort(u.Hostname(), port), t) {
		return Reason{}, false
	}
	return Reason{Kind: ReasonTunnelCut, Detail: u.Host, Bound: r.proxy.TunnelBound()}, true
}

// markCut marks p partial when the proxy cut its document at its bound.
func (r *Renderer) markCut(st *tabState, p *Page) {
	if r.proxy == nil {
		return
	}
	st.mu.Lock()
	main := st.mainURL
	st.mu.Unlock()
	if _, cut, ok := r.proxy.Doc(main); ok && cut {
		markPartial(p, Reason{Kind: ReasonDocumentCut, Bound: r.opt.MaxResponseBytes})
	}
	if why, ok := r.tunnelCut(st, p.FetchedAt); ok {
		markPartial(p, why)
	}
}

// settle waits for the page's real content: load event, then quiet network
// and DOM, consent dismissal, the scroll loop and "load more" clicks. With
// a content region to watch (rw), the wait for the load event and a quiet
// network ends as soon as the region has settled (see PageOptions); the
// scroll loop and the clicks then wait only for what they bring. It marks
// p partial when ctx ends first.
func (r *Renderer) settle(ctx context.Context, st *tabState, p *Page, ph *phases, rw *pagestate.Watch) {
	w := r.opt.Wait
	defer ph.mark("wait")
	early, ok := r.waitLoad(ctx, st, p, rw)
	if !ok {
		return
	}
	ph.mark("load")
	ps := pagestate.State{}
	if early != nil {
		ps = *early
	} else if ps, ok = r.quiet(ctx, st, time.Now(), false, rw); !ok {
		markPartial(p, deadline("network or DOM still busy"))
		return
	}
	if rw.Settled() {
		ph.mark("region")
	} else {
		ph.mark("quiet")
	}
	if !w.KeepConsent {
		r.dismissConsent(ctx, st, p)
		ph.mark("consent")
	}
	steps, clicks, ok := r.loadAll(ctx, st, p, rw, ps)
	if !ok {
		return
	}
	ph.mark("scroll+more")
	if steps > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("scroll: %d steps", steps))
	}
	if clicks > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("load-more: %d clicks", clicks))
	}
	if !w.KeepConsent && !p.Partial {
		r.dismissConsent(ctx, st, p) // banners that appear late
	}
	chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
}

// markPartial marks p partial for reason, unless it already is.
func markPartial(p *Page, reason Reason) {
	if !p.Partial {
		p.Partial, p.PartialReason = true, reason.String()
	}
}

// deadline is the reason of a page still busy (doing what) at its
// deadline.
func deadline(what string) Reason { return Reason{Kind: ReasonDeadline, Detail: what} }

// cutBound is the bound a document the proxy kept was cut at (cut), 0 when
// it was not cut.
func (r *Renderer) cutBound(cut bool) int64 {
	if cut {
		return r.opt.MaxResponseBytes
	}
	return 0
}

// waitLoad waits for the page's load event, or for its content region to
// settle first (the page's state then returned); ok is false when the
// page is done waiting for (its tab crashed, the deadline passed: p
// marked partial, its TLS tunnel was cut).
func (r *Renderer) waitLoad(ctx context.Context, st *tabState, p *Page, rw *pagestate.Watch) (early *pagestate.State, ok bool) {
	loaded := st.loadedCh()
	for {
		select {
		case <-loaded:
			return nil, true
		case <-st.crashed:
			return nil, false
		case <-ctx.Done():
			markPartial(p, deadline("the load event had not fired"))
			return nil, false
		case <-time.After(pollEvery):
			if ps, ok := r.regionSettled(ctx, rw); ok {
				return &ps, true
			}
			// A document whose TLS tunnel the proxy cut never loads:
			// what came of it is captured now.
			if why, cut := r.tunnelCut(st, p.FetchedAt); cut {
				markPartial(p, why)
				r.waitCutParsed(ctx, st, loaded, rw)
				return nil, false
			}
		}
	}
}

// waitCutParsed waits, after the proxy cut a document's TLS tunnel, until
// what arrived of it is parsed: its DOM has not changed for cutGrace (the
// load event never comes to a cut document), the load event, or ctx's end.
// A fixed pause is not enough: on a busy machine the parser catches up late.
func (r *Renderer) waitCutParsed(ctx context.Context, st *tabState, loaded <-chan struct{}, rw *pagestate.Watch) {
	since := time.Now()
	for {
		sleep := pollEvery
		if ps, err := chromedp.Run(ctx, chromedp.Evaluate[pagestate.State](rw.Call())); err == nil {
			quiet := min(time.Duration(ps.Quiet*float64(time.Millisecond)), time.Since(since))
			if quiet >= cutGrace {
				return
			}
			sleep = min(max(cutGrace-quiet, minSleep), pollEvery)
		}
		select {
		case <-loaded:
			return
		case <-st.crashed:
			return
		case <-ctx.Done():
			return
		case <-time.After(sleep):
		}
	}
}

// loadAll scrolls the page and clicks its "load more" control, each time
// until it brings nothing more or its bound, from the page's state ps; ok
// is false when the deadline passed while scrolling (p marked partial).
func (r *Renderer) loadAll(ctx context.Context, st *tabState, p *Page, rw *pagestate.Watch, ps pagestate.State) (steps, clicks int, ok bool) {
	w := r.opt.Wait
	for {
		if ps, steps, ok = r.scroll(ctx, st, p, rw, ps, steps); !ok {
			return steps, clicks, false
		}
		if w.LoadMoreClicks < 0 || clicks >= w.LoadMoreClicks {
			return steps, clicks, true
		}
		acted := st.net.Acting()
		label, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf("(%s)(%s)", loadMoreJS, strconv.Quote(w.LoadMoreSelector))))
		if err != nil || label == "" {
			return steps, clicks, true
		}
		clicks++
		if ps, ok = r.quiet(ctx, st, acted, true, rw); !ok {
			markPartial(p, deadline("still loading after a load-more click"))
			return steps, clicks, true
		}
	}
}

// scroll scrolls the page a step at a time while it grows (a page no
// taller than the window has nothing below it to load), up to
// Wait.ScrollSteps in all (steps made so far); ok is false when the
// deadline passed (p marked partial).
func (r *Renderer) scroll(ctx context.Context, st *tabState, p *Page, rw *pagestate.Watch, ps pagestate.State, steps int) (pagestate.State, int, bool) {
	w := r.opt.Wait
	for w.ScrollSteps > 0 && steps < w.ScrollSteps && ps.Height > ps.Viewport+1 {
		h0 := ps.Height
		acted := st.net.Acting()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](scrollJS, chromedp.EvalAwaitPromise)); err != nil {
			break
		}
		steps++
		var ok bool
		if ps, ok = r.quiet(ctx, st, acted, true, rw); !ok {
			p.Notes = append(p.Notes, fmt.Sprintf("scroll: %d steps", steps))
			markPartial(p, deadline("still loading while scrolling"))
			return ps, steps, false
		}
		if ps.Height <= h0 {
			break
		}
	}
	return ps, steps, true
}

// quiet waits until the page is ready: no request in flight that is not a
// long poll, no short timer pending (js/init.js), and neither the network
// nor the DOM changed for the page's settle window (tabState.window), both
// counted from since at the earliest. It sleeps just as long as the
// windows still need, or until a request ends. ok is false when ctx ended
// first. After an action (a scroll, a click: afterAction), a page that
// starts no request within the DOM window needs no network window: that
// makes the scroll step that finds nothing more cost one window. With a
// content region to watch (rw), it also returns, ok, as soon as the region
// has settled (rw.settled); once it has, requests started before that
// (analytics, ads, long polls still in flight) no longer hold the page.
func (r *Renderer) quiet(ctx context.Context, st *tabState, since time.Time, afterAction bool, rw *pagestate.Watch) (pagestate.State, bool) {
	var ps pagestate.State
	for {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[pagestate.State](rw.Call()))
		sleep := pollEvery
		if err == nil {
			ps = got
			var done bool
			if done, sleep = r.quietLook(st, ps, since, afterAction, rw); done {
				return ps, true
			}
		}
		select {
		case <-ctx.Done():
			return ps, false
		case <-st.crashed:
			return ps, false
		case <-st.net.Ends():
		case <-time.After(sleep):
		}
	}
}

// quietLook judges one look at the page (ps) for quiet: whether the page
// (or its content region) is quiet, else how long to wait before the next
// look.
func (r *Renderer) quietLook(st *tabState, ps pagestate.State, since time.Time, afterAction bool, rw *pagestate.Watch) (bool, time.Duration) {
	w := r.opt.Wait
	now := time.Now()
	var regionLeft time.Duration
	if !rw.Settled() {
		var settled bool
		if settled, regionLeft = rw.Observe(ps); settled {
			return true, 0
		}
	}
	win := st.net.Window(w.Settle, w.NetworkIdle)
	domWin := max(win, w.DOMQuiet)
	domQuiet := min(time.Duration(ps.Quiet*float64(time.Millisecond)), now.Sub(since))
	netLeft, busy := st.net.Left(now, since, win, w.LongRequest, afterAction, rw.SettledAt())
	domLeft := max(domWin-domQuiet, 0)
	if !busy && ps.Timers == 0 && netLeft == 0 && domLeft == 0 {
		return true, 0
	}
	sleep := pollEvery
	if !busy && ps.Timers == 0 {
		sleep = min(max(netLeft, domLeft, minSleep), pollEvery)
	}
	if regionLeft > 0 {
		sleep = min(sleep, max(regionLeft, minSleep))
	}
	return false, sleep
}

// regionSettled looks at the page once and reports whether its content
// region (rw) has settled, with the page's state.
func (r *Renderer) regionSettled(ctx context.Context, rw *pagestate.Watch) (pagestate.State, bool) {
	if rw == nil {
		return pagestate.State{}, false
	}
	ps, err := chromedp.Run(ctx, chromedp.Evaluate[pagestate.State](rw.Call()))
	if err != nil {
		return ps, false
	}
	settled, _ := rw.Observe(ps)
	return ps, settled
}

// minSleep is the shortest pause between two looks at the page.
const minSleep = 10 * time.Millisecond

// dismissConsent clicks the accept button of consent overlays, and removes
// the ones still there.
func (r *Renderer) dismissConsent(ctx context.Context, st *tabState, p *Page) {
	did, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf("(%s)(false)", consentJS)))
	if err != nil || len(did) == 0 {
		return
	}
	for _, d := range did {
		if strings.HasPrefix(d, "clicked") {
			p.Notes = append(p.Notes, "consent: "+d)
		}
	}
	// No wait here: what the page does not remove itself is removed now, and
	// requests the click started hold the scroll loop's waits.
	removed, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf("(%s)(true)", consentJS)))
	if err == nil {
		for _, d := range removed {
			p.Notes = append(p.Notes, "consent: "+d)
		}
	}
}

// capture fills p from the tab: network facts, a DOM snapshot with layout,
// links and the optional screenshot.
func (r *Renderer) capture(ctx context.Context, st *tabState, p *Page) error {
	doc, err := snapshot.Capture(ctx, r.opt.MaxHTMLBytes)
	if err != nil {
		return err
	}
	p.HTML, p.Layout, p.Frames, p.Title = doc.HTML, doc.Layout, doc.Frames, doc.Title
	p.FinalURL = doc.URL
	if doc.Truncated {
		p.Partial = true
		if p.PartialReason == "" {
			p.PartialReason = Reason{Kind: ReasonHTMLCut, Bound: int64(r.opt.MaxHTMLBytes)}.String()
		}
	}
	st.mu.Lock()
	p.Status, p.ContentType = st.status, st.ctype
	p.Redirects = append([]Redirect(nil), st.redirects...)
	p.Requests, p.Blocked = st.requests, st.blocked
	p.Notes = append(p.Notes, st.refused...)
	if more := st.nRefused - len(st.refused); more > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("refused: %d more requests", more))
	}
	nav := append([]string(nil), st.nav...)
	st.mu.Unlock()
	if p.FinalURL == "" {
		p.FinalURL = p.URL
	}
	// URLs pushed with the history API (the hook also sees replaceState
	// calls that Chrome reports no event for).
	if more, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(window.__gleaner && window.__gleaner.nav) || []`)); err == nil {
		nav = append(nav, more...)
	}
	p.Links = outlinks.Find(p.HTML, p.FinalURL, nav)
	if r.opt.Screenshot {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(70))
		if err != nil {
			return fmt.Errorf("screenshot: %w", err)
		}
		p.Screenshot = shot
	}
	return nil
}
