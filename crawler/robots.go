package crawler

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/temoto/robotstxt"
)

// maxRobotsBytes caps a robots.txt body, as Google does (500 KiB).
const maxRobotsBytes = 500 << 10

// Robots fetches, caches and applies the robots.txt of each host
// (github.com/temoto/robotstxt parses them: Google's rules, Crawl-delay,
// wildcards). A host whose robots.txt is missing (4xx) allows everything; one
// whose robots.txt fails (5xx, network error) is disallowed until retried,
// as Google's specification says.
type Robots struct {
	Client    *http.Client
	UserAgent string

	mu    sync.Mutex
	hosts map[string]*robotsEntry
}

type robotsEntry struct {
	once sync.Once
	data *robotstxt.RobotsData
	err  error
}

// Rules returns the robots.txt of u's host, fetching it once per scheme and
// host.
func (r *Robots) Rules(ctx context.Context, u *url.URL) (*robotstxt.RobotsData, error) {
	key := u.Scheme + "://" + u.Host
	r.mu.Lock()
	if r.hosts == nil {
		r.hosts = map[string]*robotsEntry{}
	}
	e := r.hosts[key]
	if e == nil {
		e = &robotsEntry{}
		r.hosts[key] = e
	}
	r.mu.Unlock()
	e.once.Do(func() { e.data, e.err = r.fetch(ctx, key) })
	if e.err != nil && failureOf(e.err) == browser.FailureNetwork {
		// The host could not be reached: ask again next time.
		r.mu.Lock()
		if r.hosts[key] == e {
			delete(r.hosts, key)
		}
		r.mu.Unlock()
	}
	return e.data, e.err
}

// Cached reports whether the robots.txt of u's host was fetched already (so
// that Rules and Allowed will not request it).
func (r *Robots) Cached(u *url.URL) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.hosts[u.Scheme+"://"+u.Host]
	return ok
}

// Allowed reports whether u may be fetched, and the host's Crawl-delay (0
// when none is given).
func (r *Robots) Allowed(ctx context.Context, u *url.URL) (bool, time.Duration, error) {
	data, err := r.Rules(ctx, u)
	if err != nil {
		return false, 0, err
	}
	p := u.EscapedPath()
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return data.TestAgent(p, r.UserAgent), data.FindGroup(r.UserAgent).CrawlDelay, nil
}

func (r *Robots) fetch(ctx context.Context, base string) (*robotstxt.RobotsData, error) {
	client := r.Client
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/robots.txt", nil)
	if err != nil {
		return nil, fmt.Errorf("robots.txt of %s: %w", base, err)
	}
	if r.UserAgent != "" {
		req.Header.Set("User-Agent", r.UserAgent)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("robots.txt of %s: %w", base, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRobotsBytes))
	if err != nil {
		return nil, fmt.Errorf("robots.txt of %s: read: %w", base, err)
	}
	data, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
	if err != nil {
		return nil, fmt.Errorf("robots.txt of %s: status %d: %w", base, resp.StatusCode, err)
	}
	return data, nil
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
		p.mu.Lock()
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
			p.mu.Unlock()
			return func(crawlDelay time.Duration) { p.release(host, crawlDelay) }, nil
		}
		wake := s.wake
		wait := time.Duration(0)
		if !s.busy {
			wait = s.next.Sub(now)
		}
		p.mu.Unlock()
		var timer *time.Timer
		var tick <-chan time.Time
		if wait > 0 {
			timer = time.NewTimer(wait)
			tick = timer.C
		}
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-wake:
		case <-tick:
		}
		if timer != nil {
			timer.Stop()
		}
		if err != nil {
			return nil, err
		}
	}
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

// admit reserves u's host in p and reads its robots.txt within that slot (a
// robots.txt fetch is a fetch of the host like any other). When the answer
// is not allowed or err is set, the slot is already released; otherwise the
// caller fetches u and then calls release(crawlDelay).
func admit(ctx context.Context, p hostSlots, r *Robots, u *url.URL) (release func(time.Duration), allowed bool, crawlDelay time.Duration, err error) {
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

// politeTransport holds redirects to another host to that host's rules: the
// HTTP client follows redirects within one fetch, and without this the
// target host would be fetched outside its politeness slot and its
// robots.txt. A redirect within the fetched host is already covered by the
// slot the fetch holds.
type politeTransport struct {
	next   http.RoundTripper
	polite hostSlots
	robots *Robots
}

func (t *politeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	first := req
	for first.Response != nil && first.Response.Request != nil {
		first = first.Response.Request
	}
	if first == req || strings.EqualFold(first.URL.Host, req.URL.Host) {
		return t.next.RoundTrip(req)
	}
	release, allowed, delay, err := admit(req.Context(), t.polite, t.robots, req.URL)
	if err != nil {
		return nil, fmt.Errorf("redirect to %s: %w", req.URL, err)
	}
	if !allowed {
		return nil, fmt.Errorf("redirect to %s: disallowed by robots.txt", req.URL)
	}
	resp, err := t.next.RoundTrip(req)
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
