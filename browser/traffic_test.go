package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// loopbackDialer connects to loopback addresses only; every other address
// it is asked for is recorded and refused, never connected to.
type loopbackDialer struct {
	mu      sync.Mutex
	outside []string
}

func (d *loopbackDialer) dial(ctx context.Context, network, address string) (net.Conn, error) {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !ap.Addr().IsLoopback() {
		d.mu.Lock()
		d.outside = append(d.outside, address)
		d.mu.Unlock()
		return nil, fmt.Errorf("test dialer: %s is not loopback: %w", address, ErrRefused)
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, address)
}

func (d *loopbackDialer) seen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.outside...)
}

// TestBrowserOwnTrafficNeverReachesTheGuard renders fixture pages through
// the proxy with a dialer that records any address off loopback: Chromium's
// own traffic (update, account and safe-browsing hosts, which it calls
// despite its flags) is refused by the proxy before any dial, so the guard
// never sees a request that no page made, and nothing leaves the machine.
func TestBrowserOwnTrafficNeverReachesTheGuard(t *testing.T) {
	w := fixtureWeb(t)
	d := &loopbackDialer{}
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second, Dial: d.dial})
	herald, pulse := fixtureSite(t, w, "herald"), fixtureSite(t, w, "pulse")
	for _, u := range []string{w.ArticleURL(herald.Articles[0]), w.ArticleURL(pulse.Articles[0]), herald.URL("/")} {
		if p := mustFetch(t, r, u); p.Status != http.StatusOK {
			t.Errorf("%s: status %d", u, p.Status)
		}
	}
	time.Sleep(time.Second) // the browser's background calls come in their own time
	if out := d.seen(); len(out) > 0 {
		t.Errorf("the guard was asked to dial off loopback: %q", out)
	}
	t.Logf("requests of the browser's own services refused by the proxy: %d", r.proxy.Services())
}

// TestHTTPSTunnelBounded: a never-ending HTTPS page, which the proxy can
// only relay as TLS, is cut at the tunnel's byte bound: the page comes back
// with its start, marked partial, long before its deadline, and the
// browser never holds more than the bound of it.
func TestHTTPSTunnelBounded(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		// A comment that never ends: cheap to parse, so the browser
		// reads as fast as the server sends.
		fmt.Fprint(w, "<html><head><title>Stream</title></head><body><p>start of the secure stream</p><!--")
		chunk := []byte(strings.Repeat("x", 64<<10))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	d := &loopbackDialer{}
	o := Options{Tabs: 1, PageTimeout: 30 * time.Second, Retries: -1, Dial: d.dial, MaxResponseBytes: 256 << 10,
		Wait: WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}}
	o.extraFlags = []chromedp.ExecAllocatorOption{chromedp.Flag("ignore-certificate-errors", true)} // the test server's own certificate
	r := newRenderer(t, o)
	p, err := r.Fetch(context.Background(), srv.URL+"/stream")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Partial || !strings.Contains(p.HTML, "start of the secure stream") {
		t.Errorf("partial %v (%s), has its start %v; html %.300q notes %q", p.Partial, p.PartialReason, strings.Contains(p.HTML, "start of the secure stream"), p.HTML, p.Notes)
	}
	if len(p.HTML) > 1<<20+1<<16 {
		t.Errorf("%d bytes of HTML, over the tunnel's bound", len(p.HTML))
	}
	// The page's own time, from which its deadline counts (a page that
	// waited for it would take 25 s: PageTimeout less the capture's
	// reserve), not the test's, which includes starting Chromium (15.6 s
	// of 22.9 on a loaded machine).
	if p.Elapsed > 20*time.Second {
		t.Errorf("took %v: not cut, waited for the deadline (%s, %q, %d bytes)", p.Elapsed, p.PartialReason, p.Notes, len(p.HTML))
	}
}
