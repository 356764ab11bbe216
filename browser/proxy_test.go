package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// dialLog is a dialer for Options.Dial that connects only to one allowed
// loopback address and refuses (and logs) every other.
type dialLog struct {
	allowed string
	mu      sync.Mutex
	refused []string
}

func (d *dialLog) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if addr != d.allowed {
		d.mu.Lock()
		d.refused = append(d.refused, addr)
		d.mu.Unlock()
		return nil, fmt.Errorf("%w: test dialer: %s is not allowed", ErrRefused, addr)
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

func (d *dialLog) refusals() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.refused...)
}

// hostilePage is a page (testdata/hostile.html, a format with the
// forbidden target's http URL and ws URL) whose WebSocket, dedicated and
// shared workers, service worker, prefetch, speculation rules,
// window.open, frame through a redirect, and fetch() all try to reach the
// target. The entry-point test of cmd/gleaner renders it too.
func hostilePage(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/hostile.html")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestProxyGuardsEveryConnection renders a page whose WebSocket, workers,
// service worker, prefetches, pop-up and frame try to reach a loopback port the dialer does
// not allow: through the renderer's proxy, none reaches it (its request log
// stays empty) and each try is a refusal of the dialer; a document on that
// port fails with ErrRefused.
func TestProxyGuardsEveryConnection(t *testing.T) {
	var mu sync.Mutex
	var reached []string
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reached = append(reached, r.URL.Path)
		mu.Unlock()
		fmt.Fprint(w, "secret")
	}))
	defer target.Close()
	targetAddr := strings.TrimPrefix(target.URL, "http://")
	page := hostilePage(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, page, target.URL, "ws://"+targetAddr)
	})
	mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/framed", http.StatusFound)
	})
	script := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprintf(w, body, target.URL)
		}
	}
	mux.HandleFunc("/worker.js", script(`fetch('%s/worker').catch(() => {});`))
	mux.HandleFunc("/sw.js", script(`self.addEventListener('install', e => e.waitUntil(fetch('%s/service-worker').catch(() => {})));`))
	front := httptest.NewServer(mux)
	defer front.Close()

	d := &dialLog{allowed: strings.TrimPrefix(front.URL, "http://")}
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second, Dial: d.dial, Wait: WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}})
	p := mustFetch(t, r, front.URL+"/page")
	if !strings.Contains(p.HTML, "rendered by script") {
		t.Errorf("page did not render: %q", p.HTML)
	}
	if _, err := r.Fetch(context.Background(), target.URL+"/admin"); !errors.Is(err, ErrRefused) {
		t.Errorf("document on the port not allowed: err = %v, want ErrRefused", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reached) > 0 {
		t.Errorf("the port not allowed received %q", reached)
	}
	var refused []string
	for _, a := range d.refusals() {
		if a == targetAddr {
			refused = append(refused, a)
			continue
		}
		// Anything else the dialer saw: the browser's own service traffic
		// is refused by the proxy before it (see
		// TestBrowserOwnTrafficNeverReachesTheGuard), so this stays in
		// sight.
		t.Logf("the browser dialed %s, neither the page's server nor its target", a)
	}
	if len(refused) < 3 {
		t.Errorf("%d refused dials of the target (%q): the page's tries did not all pass the dialer", len(refused), refused)
	}
}
