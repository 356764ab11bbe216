package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gleaner/gleaner/netguard"
)

// Resource types that Options.Block can name (Chrome's network resource
// types).
const (
	Image      = "Image"
	Media      = "Media"
	Font       = "Font"
	Stylesheet = "Stylesheet"
)

// DefaultBlock is the resource blocking of a zero Options: what a text
// extractor never needs.
var DefaultBlock = []string{Image, Media, Font}

// Options configure a [Renderer]. The zero value is usable: every zero field
// takes the default written beside it.
type Options struct {
	// ExecPath is the Chromium binary. Default: $GLEANER_CHROMIUM, else the
	// first of chromium, chromium-browser, google-chrome found on PATH, else
	// /usr/bin/chromium.
	ExecPath string
	// Tabs is how many pages render at once in the one browser (default 2).
	Tabs int
	// PageTimeout is the hard cap on one page, waiting and capture included
	// (default 30s). A page that has not settled by then is captured as it
	// is and marked Partial; only the tab is closed, never the browser.
	PageTimeout time.Duration
	// Retries is how many times a page is tried again after the browser or
	// its tab crashed (default 1; negative: none).
	Retries int
	// RetireAfter restarts the browser after this many pages (default 500).
	RetireAfter int
	// MaxMemory restarts the browser when its process tree's proportional
	// set size (PSS: resident memory with shared pages split between the
	// processes, so not counted once per renderer) exceeds this many bytes
	// after a page, read at most every 2 seconds (default 2 GiB).
	MaxMemory int64
	// MaxRendererMemory bounds the resident memory of one renderer
	// process while pages run (default 512 MiB): it is read every 100 ms,
	// and a renderer over it is killed at once; the page of its tab is
	// returned partial (ReasonTooLarge, the document as the proxy
	// received it) or fails with ErrTooLarge, and is not tried again. It
	// bounds what --max-old-space-size does not: typed arrays, the DOM of
	// a huge document. Negative: not watched (benchmarks).
	MaxRendererMemory int64
	// Isolate gives every page a fresh browser context of its own (no
	// cookie, storage or cache carried over from another page). By default
	// the pages of a site (host) share one context, kept while the browser
	// runs (at most maxSiteContexts of them, the least recently used
	// closed first): a context made and disposed per page cost about a
	// third of Chromium's CPU per page.
	Isolate bool
	// ShareCookies is the default now (see Isolate); it is kept so that
	// older callers still compile, and has no effect.
	ShareCookies bool
	// Block lists resource types the browser must not download (default
	// DefaultBlock; none of images, media and fonts when Record.Media asks
	// to keep them). NoBlock turns blocking off.
	Block   []string
	NoBlock bool
	// Guard is the policy every request and connection of the browser
	// passes (server-side request forgery): the page's URL is checked by
	// it, and every connection is made by its dialer through the
	// renderer's proxy (see Dial). The zero Guard allows public addresses
	// only: a renderer reaches loopback or a private network only where
	// Guard.Allowed names it, or when Unguarded.
	Guard netguard.Policy
	// Unguarded turns the guard off: pages may make the browser reach any
	// address, loopback, private networks and cloud metadata included.
	// Only for tests whose pages are served on loopback and that must not
	// go through the proxy; never for pages of the web.
	Unguarded bool
	// AllowRequest, when set, is asked about every request the browser is
	// about to send: the page's document, its redirect hops, subresources,
	// scripts' fetches, frames. A request it returns an error for is never
	// sent (failed as access denied) and is listed in Page.Notes; a refused
	// main document makes Fetch fail with [ErrRefused]. It guards against
	// server-side request forgery through the pages a crawler renders. It
	// runs for many requests at once, so it must be safe for concurrent use.
	// Nil takes Guard.Check, unless Unguarded or Dial was given. With Dial set, only the page's own URL is
	// asked about: the proxy's dialer decides on every connection, so
	// pausing each request for a second check (a CDP round trip each) is
	// not done.
	AllowRequest func(ctx context.Context, u *url.URL) error
	// Dial, when set, makes every connection the browser opens: its
	// traffic then goes through a proxy of the renderer's on a loopback
	// listener (nothing bypasses it, loopback included), which dials with
	// it. Documents, subresources, workers' requests, WebSockets and
	// prefetches alike pass it, and it sees the address actually connected
	// to, whatever name the page used: the guard against server-side
	// request forgery that fetch interception (AllowRequest) cannot be. A
	// connection it refuses with an error wrapping [ErrRefused] is answered
	// as refused (Page.Notes; a refused document fails Fetch with
	// ErrRefused). Nil takes Guard's dialer (no proxy when Unguarded).
	Dial DialFunc
	// Record keeps the page's HTTP exchanges as served (Page.Exchanges),
	// through the proxy; see RecordOptions.
	Record RecordOptions
	// Screenshot asks for a JPEG of the whole page.
	Screenshot bool
	// Width and Height are the window size (default 1280x900).
	Width, Height int
	// UserAgent overrides the browser's user agent.
	UserAgent string
	// MaxHTMLBytes caps the serialized DOM (default 16 MiB); a longer one is
	// cut and the page marked Partial.
	MaxHTMLBytes int
	// MaxResponseBytes bounds each response body the browser receives,
	// counted decoded (default 32 MiB), when its traffic goes through the
	// proxy (Dial): a longer one, an endless stream or a compression bomb,
	// is cut there, and a page whose document was cut is marked Partial.
	// HTTPS, which the proxy cannot read, is bounded per tunnel: at most
	// four times this many bytes, as sent (compressed), come down one
	// tunnel; a page whose document's tunnel was cut is marked Partial.
	MaxResponseBytes int64
	// Wait tunes how the renderer decides a page is ready.
	Wait WaitOptions
	// Logf, when set, receives the renderer's diagnostics (restarts,
	// retries, crashes).
	Logf func(format string, args ...any)

	// extraFlags are added to Chromium's command line (tests: accepting
	// the certificate of a TLS test server).
	extraFlags []chromedp.ExecAllocatorOption
}

// WaitOptions tune the waiting for a page's real content. Every step runs
// under the page's hard cap.
type WaitOptions struct {
	// Settle is the shortest time the network and the DOM must stay
	// unchanged, with no request in flight and no short timer pending,
	// before a page counts as ready (default 100ms). The window grows with
	// what the page shows: twice the longest pause it took between a
	// response and its next request, up to NetworkIdle.
	Settle time.Duration
	// NetworkIdle is the longest settle window (default 500ms): a pause
	// longer than it is not a step of a request chain.
	NetworkIdle time.Duration
	// LongRequest: a request in flight for longer than this is taken for a
	// long poll or stream and no longer holds the page (default 5s).
	LongRequest time.Duration
	// DOMQuiet, when set, is the least time the DOM must not change (a
	// MutationObserver on child lists and text) before it counts as
	// settled; by default the settle window.
	DOMQuiet time.Duration
	// ScrollSteps bounds the scroll loop for lazy and infinite content
	// (default 10; negative: no scrolling). The loop stops earlier when the
	// page height no longer grows.
	ScrollSteps int
	// LoadMoreSelector names the "load more" control; empty uses a heuristic
	// on common button texts in several languages.
	LoadMoreSelector string
	// LoadMoreClicks bounds the clicks on "load more" (default 5; negative:
	// never click).
	LoadMoreClicks int
	// KeepConsent leaves cookie-consent overlays alone.
	KeepConsent bool
}

func (o Options) withDefaults() (Options, error) {
	if o.ExecPath == "" {
		p, err := FindChromium()
		if err != nil {
			return o, err
		}
		o.ExecPath = p
	}
	o.guard()
	o.runDefaults()
	o.boundDefaults()
	o.Wait = o.Wait.withDefaults()
	return o, nil
}

// orDefault sets *v to d when it is zero or negative.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// runDefaults fills how the browser runs: tabs, time per page, retries,
// retirement, blocked resources, window size.
func (o *Options) runDefaults() {
	orDefault(&o.Tabs, 2)
	orDefault(&o.PageTimeout, 30*time.Second)
	if o.Retries == 0 {
		o.Retries = 1
	} else if o.Retries < 0 {
		o.Retries = 0
	}
	orDefault(&o.RetireAfter, 500)
	if o.Block == nil {
		o.Block = defaultBlock(o.Record)
	}
	if o.NoBlock {
		o.Block = nil
	}
	orDefault(&o.Width, 1280)
	orDefault(&o.Height, 900)
}

// defaultBlock is what a renderer blocks when its caller names nothing:
// DefaultBlock, less the images, media and fonts that recording them
// (RecordOptions.Media) asks the browser to download.
func defaultBlock(rec RecordOptions) []string {
	if !rec.On || !rec.Media {
		return DefaultBlock
	}
	out := []string{}
	for _, b := range DefaultBlock {
		if b != Image && b != Media && b != Font {
			out = append(out, b)
		}
	}
	return out
}

// boundDefaults fills the memory and size bounds.
func (o *Options) boundDefaults() {
	orDefault(&o.MaxMemory, 2<<30)
	if o.MaxRendererMemory == 0 {
		o.MaxRendererMemory = 512 << 20
	}
	orDefault(&o.MaxHTMLBytes, 16<<20)
	orDefault(&o.MaxResponseBytes, 32<<20)
}

// withDefaults fills the waiting defaults; Settle is at most NetworkIdle.
func (w WaitOptions) withDefaults() WaitOptions {
	orDefault(&w.NetworkIdle, 500*time.Millisecond)
	orDefault(&w.LongRequest, 5*time.Second)
	orDefault(&w.Settle, 100*time.Millisecond)
	w.Settle = min(w.Settle, w.NetworkIdle)
	if w.ScrollSteps == 0 {
		w.ScrollSteps = 10
	}
	if w.LoadMoreClicks == 0 {
		w.LoadMoreClicks = 5
	}
	return w
}

// guard fills Dial, and AllowRequest unless set, from Guard, unless
// Unguarded or the caller's Dial decides.
func (o *Options) guard() {
	if o.Unguarded {
		return
	}
	if o.Dial != nil {
		return // the caller's dialer decides on every connection
	}
	o.Dial = guardedDial(o.Guard)
	if o.AllowRequest == nil {
		o.AllowRequest = o.Guard.Check
	}
}

// guardedDial is policy's dialer as a DialFunc: a connection the policy
// refuses is refused with ErrRefused (the proxy's and the plain fetcher's
// sign of a refusal).
func guardedDial(policy netguard.Policy) DialFunc {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d := policy.Dialer(ctx)
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, address)
		if errors.Is(err, netguard.ErrForbidden) && !errors.Is(err, ErrRefused) {
			err = fmt.Errorf("%w: %w", ErrRefused, err)
		}
		return c, err
	}
}

// FindChromium returns the Chromium binary to use: $GLEANER_CHROMIUM, else
// the first of chromium, chromium-browser, google-chrome on PATH, else
// /usr/bin/chromium. It fails when none exists, saying how to install one.
func FindChromium() (string, error) {
	if p := os.Getenv("GLEANER_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("GLEANER_CHROMIUM=%s: %w", p, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	return "", fmt.Errorf("no Chromium found (set GLEANER_CHROMIUM, or run scripts/setup.sh to install Debian's chromium)")
}
