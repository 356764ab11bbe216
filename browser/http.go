package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gleaner/gleaner/browser/outlinks"
	"github.com/gleaner/gleaner/browser/wire"
	"github.com/gleaner/gleaner/netguard"
	"github.com/gleaner/gleaner/treediff"
)

// HTTPFetcher fetches pages with a plain HTTP GET: no scripts run. It is the
// Fetcher for static pages and tests. The zero value is usable, and
// guarded: it reaches public addresses only (see Guard).
type HTTPFetcher struct {
	// Guard is the policy the URL, every redirect hop and every connection
	// pass (server-side request forgery); the zero Guard allows public
	// addresses only. With Client set, Guard checks the URL and the hops,
	// and the client's transport makes the connections: give it
	// Guard.Transport().
	Guard netguard.Policy
	// Unguarded turns the guard off (no check, no guarded dialer): only
	// for tests of pages served on loopback.
	Unguarded bool
	// Client is the HTTP client (default: a client with Timeout whose
	// connections pass Guard's dialer).
	Client *http.Client
	// Timeout bounds one fetch, redirects and body included (default 30s).
	Timeout time.Duration
	// MaxBytes caps the body (default 16 MiB); a longer one is cut and the
	// page marked Partial.
	MaxBytes int64
	// MaxRedirects (default 10).
	MaxRedirects int
	// UserAgent is sent when set.
	UserAgent string
	// AllowRequest, when set, is asked about the URL and about every
	// redirect hop before it is requested, as Options.AllowRequest: a hop it
	// refuses is never requested and Fetch fails with [ErrRefused]. Nil
	// takes Guard.Check (nothing when Unguarded).
	AllowRequest func(ctx context.Context, u *url.URL) error
	// Record keeps the page's HTTP exchanges as served (Page.Exchanges),
	// redirect hops included; see RecordOptions. Set it before the first
	// Fetch.
	Record RecordOptions

	once      sync.Once
	transport http.RoundTripper // of the default client: Guard's dialer
	recOnce   sync.Once
	rec       *wire.Recorder // of Record, across fetches (its total bound)
}

// ErrNotHTML is wrapped by the error for a response that is not an HTML or
// text document.
var ErrNotHTML = errors.New("not an HTML document")

// Fetch GETs rawURL. An HTTP error status is not an error: it is in
// Page.Status (with the error page as HTML).
func (f *HTTPFetcher) Fetch(ctx context.Context, rawURL string) (*Page, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("fetch %q: not an absolute http(s) URL", rawURL)
	}
	lim := f.limits()
	ctx, cancel := context.WithTimeout(ctx, lim.timeout)
	defer cancel()
	p := &Page{URL: rawURL, FetchedAt: time.Now(), Attempts: 1, Requests: 1}
	if err := f.allow(ctx, u); err != nil {
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	client := http.Client{Timeout: lim.timeout, Transport: f.defaultTransport()}
	if f.Client != nil {
		client = *f.Client
	}
	rt := f.recordingClient(&client)
	client.CheckRedirect = f.checkRedirect(p, lim.redirects)
	resp, err := f.get(ctx, &client, rawURL)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := readHTML(resp, p, rawURL, lim.bytes)
	if err != nil {
		return nil, err
	}
	if rt != nil {
		var note string
		if p.Exchanges, note = rt.Exchanges(); note != "" {
			p.Notes = append(p.Notes, note)
		}
	}
	return finishPlain(p, body, resp.Header.Get("Content-Type"))
}

// fetchLimits are the bounds of one plain fetch.
type fetchLimits struct {
	timeout   time.Duration
	bytes     int64
	redirects int
}

// limits are f's bounds, defaults filled in.
func (f *HTTPFetcher) limits() fetchLimits {
	lim := fetchLimits{timeout: f.Timeout, bytes: f.MaxBytes, redirects: f.MaxRedirects}
	if lim.timeout <= 0 {
		lim.timeout = 30 * time.Second
	}
	if lim.bytes <= 0 {
		lim.bytes = 16 << 20
	}
	if lim.redirects <= 0 {
		lim.redirects = 10
	}
	return lim
}

// checkRedirect is the client's redirect policy: at most max hops, each
// allowed (f.allow), noted in p.
func (f *HTTPFetcher) checkRedirect(p *Page, max int) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > max {
			return fmt.Errorf("%w: more than %d", ErrTooManyRedirects, max)
		}
		if err := f.allow(req.Context(), req.URL); err != nil {
			return fmt.Errorf("redirect: %w", err)
		}
		prev := via[len(via)-1]
		status := 0
		if req.Response != nil {
			status = req.Response.StatusCode
		}
		p.Redirects = append(p.Redirects, Redirect{URL: prev.URL.String(), Status: status})
		return nil
	}
}

// get sends the GET of rawURL with client.
func (f *HTTPFetcher) get(ctx context.Context, client *http.Client, rawURL string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	if f.UserAgent != "" {
		req.Header.Set("User-Agent", f.UserAgent)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	return resp, nil
}

// readHTML notes resp's status, final URL and type in p and reads its body
// up to maxBytes (p marked partial past it); a body that is not HTML or
// text is an error wrapping ErrNotHTML.
func readHTML(resp *http.Response, p *Page, rawURL string, maxBytes int64) ([]byte, error) {
	p.Status = resp.StatusCode
	p.FinalURL = resp.Request.URL.String()
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	p.ContentType = mt
	if mt != "" && mt != "text/html" && mt != "application/xhtml+xml" && !strings.HasPrefix(mt, "text/") {
		return nil, fmt.Errorf("fetch %s: %w (Content-Type %q)", rawURL, ErrNotHTML, ct)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch %s: read body: %w", rawURL, err)
	}
	if int64(len(body)) > maxBytes {
		body = body[:maxBytes]
		p.Partial, p.PartialReason = true, Reason{Kind: ReasonBodyCut, Bound: maxBytes}.String()
	}
	return body, nil
}

// finishPlain decodes body (of Content-Type ct) into p's HTML, title and
// links.
func finishPlain(p *Page, body []byte, ct string) (*Page, error) {
	text, _, err := treediff.Decode(body, ct)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", p.URL, err)
	}
	p.HTML = text
	p.Title = htmlTitle(text, p.FinalURL)
	p.Links = outlinks.Find(text, p.FinalURL, nil)
	p.Elapsed = time.Since(p.FetchedAt)
	return p, nil
}

// defaultTransport is the transport of the client made when Client is
// nil: one per fetcher (its connections are reused), dialing with Guard's
// dialer unless Unguarded.
func (f *HTTPFetcher) defaultTransport() http.RoundTripper {
	f.once.Do(func() {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil
		if !f.Unguarded {
			t.DialContext = guardedDial(f.Guard)
		}
		f.transport = t
	})
	return f.transport
}

// allow asks f.AllowRequest (by default Guard.Check) about u.
func (f *HTTPFetcher) allow(ctx context.Context, u *url.URL) error {
	check := f.AllowRequest
	if check == nil && !f.Unguarded {
		check = f.Guard.Check
	}
	if check == nil {
		return nil
	}
	if err := check(ctx, u); err != nil {
		return fmt.Errorf("%w: %w", ErrRefused, err)
	}
	return nil
}

// FetchPage fetches rawURL as Fetch does: a plain GET has no use for what
// PageOptions tell a renderer.
func (f *HTTPFetcher) FetchPage(ctx context.Context, rawURL string, _ PageOptions) (*Page, error) {
	return f.Fetch(ctx, rawURL)
}

// Close releases the idle connections of the default client.
func (f *HTTPFetcher) Close() error {
	if t, ok := f.defaultTransport().(*http.Transport); ok {
		t.CloseIdleConnections()
	}
	if f.rec != nil {
		f.rec.CloseIdleConnections()
	}
	return nil
}

// htmlTitle is the text of the page's first <title>.
func htmlTitle(html, name string) string {
	t, err := treediff.Parse(name, []byte(html), treediff.ParseOptions{})
	if err != nil {
		return ""
	}
	return treediff.Title(t)
}
