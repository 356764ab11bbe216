package crawler

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/fetchpolicy"
	"golang.org/x/net/dns/dnsmessage"
)

// rebindingResolver is a resolver of the test's own: a DNS server on
// loopback that answers the first A question with first and every later
// one with then (DNS rebinding), and AAAA questions with nothing.
func rebindingResolver(t *testing.T, first, then netip.Addr) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	var asked atomic.Int64
	go func() {
		buf := make([]byte, 512)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if b, ok := answer(buf[:n], func() netip.Addr {
				if asked.Add(1) == 1 {
					return first
				}
				return then
			}); ok {
				pc.WriteTo(b, from)
			}
		}
	}()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

// answer packs the reply to one DNS question.
func answer(q []byte, next func() netip.Addr) ([]byte, bool) {
	var p dnsmessage.Parser
	h, err := p.Start(q)
	if err != nil {
		return nil, false
	}
	question, err := p.Question()
	if err != nil {
		return nil, false
	}
	m := dnsmessage.Message{Header: dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true},
		Questions: []dnsmessage.Question{question}}
	if question.Type == dnsmessage.TypeA {
		m.Answers = []dnsmessage.Resource{{
			Header: dnsmessage.ResourceHeader{Name: question.Name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET},
			Body:   &dnsmessage.AResource{A: next().As4()},
		}}
	}
	b, err := m.Pack()
	return b, err == nil
}

// watchDials returns a Decide hook for a guard that records its dial
// decisions and stops any connection it allowed off loopback, so none
// leaves the machine, and the function listing the decisions.
func watchDials() (func(address string, decision error) error, func() []string) {
	var mu sync.Mutex
	var seen []string
	decide := func(address string, decision error) error {
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s %v", address, decision))
		mu.Unlock()
		if ap, err := netip.ParseAddrPort(address); decision == nil && (err != nil || !ap.Addr().IsLoopback()) {
			return fmt.Errorf("test: not connecting to %s", address)
		}
		return decision
	}
	return decide, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// publicTestAddr is a public address the resolver names first; the test
// never connects to it (watchDials).
var publicTestAddr = netip.MustParseAddr("93.184.216.34")

// TestDialerDecidesOnDialedAddress: with DNS rebinding the guard's check
// of a URL sees a public address, and its dialer the loopback address it
// would really connect to: the dial is refused.
func TestDialerDecidesOnDialedAddress(t *testing.T) {
	var hits atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer target.Close()
	port := target.Listener.Addr().(*net.TCPAddr).Port
	decide, _ := watchDials()
	g := fetchpolicy.TargetGuard{Resolver: rebindingResolver(t, publicTestAddr, netip.MustParseAddr("127.0.0.1")), Decide: decide}
	u, _ := url.Parse(fmt.Sprintf("http://rebind.test:%d/", port))
	ctx := context.Background()
	if err := g.Check(ctx, u); err != nil {
		t.Fatalf("check with the public answer: %v", err)
	}
	c := &http.Client{Transport: g.Transport(), Timeout: 5 * time.Second}
	_, err := c.Get(u.String())
	if !errors.Is(err, fetchpolicy.ErrForbiddenTarget) || hits.Load() != 0 {
		t.Errorf("get after rebinding: err %v, %d requests reached loopback", err, hits.Load())
	}
}

// TestBrowserDNSRebinding: a page on an allowed port loads an image from
// rebind.localhost on a port not allowed. The guard's resolver first says
// the name is public; Chromium on its own would then connect to loopback
// (it resolves *.localhost itself). Through the guarded proxy the name is
// resolved again by the guard's dialer, which refuses loopback.
func TestBrowserDNSRebinding(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a page in Chromium")
	}
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("Chromium is needed (scripts/setup.sh installs it): %v", err)
	}
	var hits atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer target.Close()
	port := target.Listener.Addr().(*net.TCPAddr).Port
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Rebind</title></head><body><p>front</p><img src="http://rebind.localhost:%d/img"></body></html>`, port)
	}))
	defer front.Close()
	decide, dials := watchDials()
	g := fetchpolicy.TargetGuard{Allowed: []string{front.Listener.Addr().String()},
		Resolver: rebindingResolver(t, publicTestAddr, netip.MustParseAddr("127.0.0.1")), Decide: decide}
	opt := browser.Options{Tabs: 1, PageTimeout: 15 * time.Second, NoBlock: true, Wait: browser.WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}}
	r, err := browser.NewFetcher(g, true, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Fetch(context.Background(), front.URL+"/"); err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the rebound name reached loopback: %d requests; dial decisions %q", n, dials())
	}
}
