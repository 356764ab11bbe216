package fetchpolicy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// HostSlots is where a fetcher reserves a host before fetching from it:
// Politeness in memory, or a crawl's slots in its database when the crawl
// is shared between processes.
type HostSlots interface {
	// Acquire waits until host may be fetched and reserves it; release
	// ends the fetch, with the host's Crawl-delay (0 for none).
	Acquire(ctx context.Context, host string) (release func(crawlDelay time.Duration), err error)
	// Ready reports whether host could be acquired now without waiting.
	Ready(host string) bool
}

// Politeness spaces the fetches of each host: one fetch of a host at a time,
// and at least Delay (or the host's Crawl-delay, if longer) between the end
// of one fetch and the start of the next.
type Politeness struct {
	Delay time.Duration

	mu    sync.Mutex
	hosts map[string]*hostSlot
}

type hostSlot struct {
	busy bool
	next time.Time
	wake chan struct{} // closed and replaced when the slot is released
}

// Acquire waits until host may be fetched and reserves it. The returned
// release must be called when the fetch is over, with the host's Crawl-delay
// (0 for none).
func (p *Politeness) Acquire(ctx context.Context, host string) (release func(crawlDelay time.Duration), err error) {
	for {
		wake, wait, ok := p.take(host)
		if ok {
			return func(crawlDelay time.Duration) { p.release(host, crawlDelay) }, nil
		}
		if err := sleepUntil(ctx, wake, wait); err != nil {
			return nil, err
		}
	}
}

// take reserves host when it is free and its delay has passed (ok);
// otherwise it returns what to wait for: wake, closed when the slot is
// released, and, when the slot is free, how long its delay still runs (0
// when busy).
func (p *Politeness) take(host string) (wake <-chan struct{}, wait time.Duration, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hosts == nil {
		p.hosts = map[string]*hostSlot{}
	}
	s := p.hosts[host]
	if s == nil {
		s = &hostSlot{wake: make(chan struct{})}
		p.hosts[host] = s
	}
	now := time.Now()
	if !s.busy && !now.Before(s.next) {
		s.busy = true
		return nil, 0, true
	}
	if !s.busy {
		wait = s.next.Sub(now)
	}
	return s.wake, wait, false
}

// sleepUntil waits for wake to be closed or, when wait is positive, for
// wait to pass; ctx's error when it ends first.
func sleepUntil(ctx context.Context, wake <-chan struct{}, wait time.Duration) error {
	var tick <-chan time.Time
	if wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		tick = timer.C
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-wake:
	case <-tick:
	}
	return nil
}

// Ready reports whether host could be acquired now without waiting.
func (p *Politeness) Ready(host string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.hosts[host]
	return s == nil || (!s.busy && !time.Now().Before(s.next))
}

func (p *Politeness) release(host string, crawlDelay time.Duration) {
	d := p.Delay
	if crawlDelay > d {
		d = crawlDelay
	}
	p.mu.Lock()
	s := p.hosts[host]
	s.busy = false
	s.next = time.Now().Add(d)
	close(s.wake)
	s.wake = make(chan struct{})
	p.mu.Unlock()
}

// Admit reserves u's host in p and reads its robots.txt within that slot (a
// robots.txt fetch is a fetch of the host like any other). When the answer
// is not allowed or err is set, the slot is already released; otherwise the
// caller fetches u and then calls release(crawlDelay).
func Admit(ctx context.Context, p HostSlots, r *Robots, u *url.URL) (release func(time.Duration), allowed bool, crawlDelay time.Duration, err error) {
	release, err = p.Acquire(ctx, u.Host)
	if err != nil {
		return nil, false, 0, err
	}
	cached := r.Cached(u)
	allowed, crawlDelay, rerr := r.Allowed(ctx, u)
	if !cached {
		release(crawlDelay)
		if release, err = p.Acquire(ctx, u.Host); err != nil {
			return nil, false, 0, err
		}
	}
	if rerr != nil || !allowed {
		release(crawlDelay)
		return nil, false, crawlDelay, rerr
	}
	return release, true, crawlDelay, nil
}

// PoliteTransport holds redirects to another host to that host's rules: the
// HTTP client follows redirects within one fetch, and without this the
// target host would be fetched outside its politeness slot and its
// robots.txt. A redirect within the fetched host is already covered by the
// slot the fetch holds.
type PoliteTransport struct {
	// Next makes the requests (the guard's transport).
	Next http.RoundTripper
	// Slots are the hosts' politeness slots a redirect's target waits for.
	Slots HostSlots
	// Robots are the robots.txt rules a redirect's target obeys.
	Robots *Robots
}

// RoundTrip follows one request, admitting a redirect to another host
// first (see PoliteTransport).
func (t *PoliteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	first := req
	for first.Response != nil && first.Response.Request != nil {
		first = first.Response.Request
	}
	if first == req || strings.EqualFold(first.URL.Host, req.URL.Host) {
		return t.Next.RoundTrip(req)
	}
	release, allowed, delay, err := Admit(req.Context(), t.Slots, t.Robots, req.URL)
	if err != nil {
		return nil, fmt.Errorf("redirect to %s: %w", req.URL, err)
	}
	if !allowed {
		return nil, fmt.Errorf("redirect to %s: disallowed by robots.txt", req.URL)
	}
	resp, err := t.Next.RoundTrip(req)
	if err != nil {
		release(delay)
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: func() { release(delay) }}
	return resp, nil
}

// releasingBody frees a politeness slot when the response body is closed.
type releasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}
