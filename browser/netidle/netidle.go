// Package netidle tells when a page's network has gone quiet: it follows
// the page's requests in flight, learns the longest pause the page takes
// between the steps of a request chain (response, script, next request),
// and says how much longer the network must stay as it is to count as
// idle.
package netidle

import (
	"sync"
	"time"
)

// Tracker follows the requests of one page. It is safe for concurrent use.
type Tracker struct {
	mu        sync.Mutex
	inflight  map[string]time.Time // request id -> when it started
	lastNet   time.Time            // last request start or end
	lastStart time.Time            // last request start
	idleAt    time.Time            // when the last request in flight ended (zero: not measured)
	maxGap    time.Duration
	done      chan struct{} // a request ended
}

// New returns a Tracker of a page whose network is quiet from now.
func New() *Tracker {
	return &Tracker{inflight: map[string]time.Time{}, lastNet: time.Now(), done: make(chan struct{}, 1)}
}

// Reset makes t fresh for the next page of a tab.
func (t *Tracker) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	clear(t.inflight)
	t.lastNet, t.lastStart, t.idleAt, t.maxGap = time.Now(), time.Time{}, time.Time{}, 0
}

// Started notes the request id started at now; redirect is true for a new
// hop of a request already in flight.
func (t *Tracker) Started(id string, redirect bool, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !redirect && len(t.inflight) == 0 && !t.idleAt.IsZero() {
		// A request the page started after its network went idle: the
		// pause is how long this page thinks between the steps of a
		// chain (response, script, next request).
		t.maxGap = max(t.maxGap, now.Sub(t.idleAt))
		t.idleAt = time.Time{}
	}
	t.inflight[id] = now
	t.lastNet, t.lastStart = now, now
}

// Done notes the end (finished or failed) of the request id at now, and
// wakes the waiter on Ends.
func (t *Tracker) Done(id string, now time.Time) {
	t.mu.Lock()
	if _, ok := t.inflight[id]; ok {
		delete(t.inflight, id)
		if len(t.inflight) == 0 {
			t.idleAt = now
		}
	}
	t.lastNet = now
	t.mu.Unlock()
	select {
	case t.done <- struct{}{}:
	default:
	}
}

// Ends receives when a request ended since the last receive.
func (t *Tracker) Ends() <-chan struct{} { return t.done }

// Acting forgets the idle moment before an action of ours (a scroll, a
// click): the requests it starts measure our pause, not the page's. It
// returns when the action starts, from which what it brings is waited
// for: the requests it starts can be noted before the action's own call
// returns (they come first on the browser's wire), so a time taken after
// that call would not count them as started since.
func (t *Tracker) Acting() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.idleAt = time.Time{}
	return time.Now()
}

// Window is the settle window of the page: twice the longest pause it took
// between a request chain's steps (gaps longer than most are not a chain),
// at least settle and at most most.
func (t *Tracker) Window(settle, most time.Duration) time.Duration {
	t.mu.Lock()
	g := t.maxGap
	t.mu.Unlock()
	if g > most {
		g = 0
	}
	return min(max(2*g, settle), most)
}

// Left is how much longer the network must stay as it is to count as
// idle, counting from since: 0 when it is idle; busy when a request
// (younger than long) is in flight. With lenient, a page that started no
// request since then is idle at once (the caller still waits for the DOM
// to be quiet). Requests started before ignoreBefore (when the page's
// content region settled; zero: none) do not count: they are not what an
// action of ours brought.
func (t *Tracker) Left(now, since time.Time, window, long time.Duration, lenient bool, ignoreBefore time.Time) (left time.Duration, busy bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, started := range t.inflight {
		if now.Sub(started) < long && !started.Before(ignoreBefore) {
			return window, true
		}
	}
	if lenient && t.lastStart.Before(since) {
		return 0, false
	}
	last := t.lastNet
	if since.After(last) {
		last = since
	}
	return max(window-now.Sub(last), 0), false
}
