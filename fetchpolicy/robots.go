package fetchpolicy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
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
	if e.err != nil && FailureOf(e.err) == browser.FailureNetwork {
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
