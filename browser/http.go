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

	"github.com/gleaner/gleaner/treediff"
)

// HTTPFetcher fetches pages with a plain HTTP GET: no scripts run. It is the
// Fetcher for static pages and tests. The zero value is usable.
type HTTPFetcher struct {
	// Client is the HTTP client (default: a client with Timeout).
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
	// refuses is never requested and Fetch fails with [ErrRefused].
	AllowRequest func(ctx context.Context, u *url.URL) error
	// Record keeps the page's HTTP exchanges as served (Page.Exchanges),
	// redirect hops included; see RecordOptions. Set it before the first
	// Fetch.
	Record RecordOptions

	recOnce sync.Once
	rec     *recorder // of Record, across fetches (its total bound)
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
	timeout, maxBytes, maxRedirects := f.Timeout, f.MaxBytes, f.MaxRedirects
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if maxBytes <= 0 {
		maxBytes = 16 << 20
	}
	if maxRedirects <= 0 {
		maxRedirects = 10
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	p := &Page{URL: rawURL, FetchedAt: start, Attempts: 1, Requests: 1}

	client := http.Client{Timeout: timeout}
	if f.Client != nil {
		client = *f.Client
	}
	if err := f.allow(ctx, u); err != nil {
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	rt := f.recordingClient(&client)
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return fmt.Errorf("%w: more than %d", ErrTooManyRedirects, maxRedirects)
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
	defer resp.Body.Close()
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
		p.Partial, p.PartialReason = true, fmt.Sprintf("body cut at %d bytes", maxBytes)
	}
	if rt != nil {
		var note string
		if p.Exchanges, note = rt.exchanges(); note != "" {
			p.Notes = append(p.Notes, note)
		}
	}
	text, _, err := treediff.Decode(body, ct)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	p.HTML = text
	p.Title = htmlTitle(text, p.FinalURL)
	p.Links = pageLinks(text, p.FinalURL, nil)
	p.Elapsed = time.Since(start)
	return p, nil
}

// allow asks f.AllowRequest about u.
func (f *HTTPFetcher) allow(ctx context.Context, u *url.URL) error {
	if f.AllowRequest == nil {
		return nil
	}
	if err := f.AllowRequest(ctx, u); err != nil {
		return fmt.Errorf("%w: %w", ErrRefused, err)
	}
	return nil
}

// htmlTitle is the text of the page's first <title>.
func htmlTitle(html, name string) string {
	t, err := treediff.Parse(name, []byte(html), treediff.ParseOptions{})
	if err != nil {
		return ""
	}
	for _, n := range t.Nodes {
		if n.Kind == treediff.Element && n.Label == "title" {
			return strings.Join(strings.Fields(n.Text()), " ")
		}
	}
	return ""
}
