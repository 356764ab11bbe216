package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// forbiddenPort is a server that counts the requests reaching it: a port
// no fetcher of the test may reach.
func forbiddenPort(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><p>secret</p></body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestZeroValueGuarded: a renderer and a plain fetcher made of zero
// options reach public addresses only: a page on loopback is refused
// (ErrRefused) and its server sees no request.
func TestZeroValueGuarded(t *testing.T) {
	needChromium(t)
	srv, hits := forbiddenPort(t)
	r, err := New(Options{Tabs: 1, PageTimeout: 15 * time.Second, Wait: WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	for _, tc := range []struct {
		name string
		f    Fetcher
	}{{"renderer", r}, {"plain", &HTTPFetcher{}}} {
		t.Run(tc.name, func(t *testing.T) {
			before := hits.Load()
			p, err := tc.f.Fetch(context.Background(), srv.URL+"/admin")
			if !errors.Is(err, ErrRefused) {
				t.Errorf("zero value fetched loopback: page %v, err %v; want ErrRefused", p != nil, err)
			}
			if n := hits.Load() - before; n != 0 {
				t.Errorf("%d requests reached loopback", n)
			}
		})
	}
}

// TestUnguardedIsExplicit: the loud option lets a fixture test reach
// loopback, and a guard that allows the page's own host:port lets the page
// through but not a redirect from it to another loopback port.
func TestUnguardedIsExplicit(t *testing.T) {
	srv, hits := forbiddenPort(t)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, srv.URL+"/secret", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><p>front page</p></body></html>")
	}))
	t.Cleanup(front.Close)
	ctx := context.Background()
	if p, err := (&HTTPFetcher{Unguarded: true}).Fetch(ctx, srv.URL+"/"); err != nil || !strings.Contains(p.HTML, "secret") {
		t.Fatalf("unguarded fetch of loopback: %v", err)
	}
	hits.Store(0)
	f, err := NewFetcher(guardPolicy(front), false, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if p, err := f.Fetch(ctx, front.URL+"/"); err != nil || !strings.Contains(p.HTML, "front page") {
		t.Fatalf("allowed page: %v", err)
	}
	if _, err := f.Fetch(ctx, front.URL+"/away"); !errors.Is(err, ErrRefused) {
		t.Errorf("redirect to a port not allowed: err %v, want ErrRefused", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the port not allowed", n)
	}
}
