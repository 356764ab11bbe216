package fetchpolicy

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRobots(t *testing.T) {
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fetches.Add(1)
		if ua := r.Header.Get("User-Agent"); ua != "GleanerTest/1" && ua != "BadBot" {
			t.Errorf("robots.txt fetched with user agent %q", r.Header.Get("User-Agent"))
		}
		w.Write([]byte("User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: BadBot\nDisallow: /\n"))
	}))
	defer srv.Close()
	r := &Robots{UserAgent: "GleanerTest/1"}
	ctx := context.Background()
	tests := []struct {
		path string
		want bool
	}{
		{"/news/a.html", true},
		{"/private/x.html", false},
		{"/private", true},
		{"/", true},
	}
	for _, tt := range tests {
		u, _ := url.Parse(srv.URL + tt.path)
		ok, delay, err := r.Allowed(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if ok != tt.want {
			t.Errorf("Allowed(%s) = %v, want %v", tt.path, ok, tt.want)
		}
		if delay != 2*time.Second {
			t.Errorf("Crawl-delay = %v, want 2s", delay)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once", n)
	}

	bad := &Robots{UserAgent: "BadBot"}
	u, _ := url.Parse(srv.URL + "/news/a.html")
	if ok, _, _ := bad.Allowed(ctx, u); ok {
		t.Error("BadBot allowed")
	}
}

func TestRobotsMissingAndFailing(t *testing.T) {
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer failing.Close()
	r := &Robots{UserAgent: "GleanerTest/1"}
	ctx := context.Background()
	u, _ := url.Parse(missing.URL + "/x")
	if ok, _, err := r.Allowed(ctx, u); err != nil || !ok {
		t.Errorf("missing robots.txt: allowed=%v err=%v, want allowed", ok, err)
	}
	u, _ = url.Parse(failing.URL + "/x")
	if ok, _, _ := r.Allowed(ctx, u); ok {
		t.Error("robots.txt answering 503: allowed, want disallowed")
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	u, _ = url.Parse(closed.URL + "/x")
	if _, _, err := r.Allowed(ctx, u); err == nil {
		t.Error("unreachable host: no error")
	}
}

// TestPoliteness checks that one host is never fetched twice at once and
// that fetches are spaced by the delay, while other hosts proceed.
func TestPoliteness(t *testing.T) {
	p := &Politeness{Delay: 40 * time.Millisecond}
	ctx := context.Background()
	type span struct{ start, end time.Time }
	var mu sync.Mutex
	spans := map[string][]span{}
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		host := []string{"a", "b", "c"}[i%3]
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := p.Acquire(ctx, host)
			if err != nil {
				t.Error(err)
				return
			}
			s := span{start: time.Now()}
			time.Sleep(5 * time.Millisecond)
			s.end = time.Now()
			mu.Lock()
			spans[host] = append(spans[host], s)
			mu.Unlock()
			release(0)
		}()
	}
	wg.Wait()
	for host, ss := range spans {
		if len(ss) != 4 {
			t.Errorf("host %s: %d fetches, want 4", host, len(ss))
		}
		for i := 1; i < len(ss); i++ {
			gap := ss[i].start.Sub(ss[i-1].end)
			if gap < 40*time.Millisecond {
				t.Errorf("host %s: fetch %d started %v after the previous ended, want >= 40ms", host, i, gap)
			}
		}
	}
	// Crawl-delay longer than Delay wins.
	release, _ := p.Acquire(ctx, "d")
	release(120 * time.Millisecond)
	if p.Ready("d") {
		t.Error("host d ready right after a fetch with a 120ms crawl delay")
	}
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(cctx, "d"); err == nil {
		t.Error("Acquire did not honour the context deadline")
	}
}

// TestRedirectToAnotherHostIsPolite checks that a redirect followed inside
// one fetch waits for the target host's slot and obeys its robots.txt.
func TestRedirectToAnotherHostIsPolite(t *testing.T) {
	var mu sync.Mutex
	var hitsB []time.Time
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
			return
		}
		mu.Lock()
		hitsB = append(hitsB, time.Now())
		mu.Unlock()
		w.Write([]byte("<p>b</p>"))
	}))
	defer b.Close()
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nAllow: /\n"))
			return
		}
		http.Redirect(w, r, b.URL+r.URL.Path, http.StatusFound)
	}))
	defer a.Close()
	const delay = 300 * time.Millisecond
	client := &http.Client{}
	robots := &Robots{Client: client, UserAgent: "GleanerTest/1"}
	polite := &Politeness{Delay: delay}
	client.Transport = &PoliteTransport{Next: http.DefaultTransport, Slots: polite, Robots: robots}
	ctx := context.Background()
	get := func(raw string) error {
		u, _ := url.Parse(raw)
		release, allowed, d, err := Admit(ctx, polite, robots, u)
		if err != nil {
			return err
		}
		if !allowed {
			t.Fatalf("%s: disallowed by its own host's robots.txt", raw)
		}
		defer release(d)
		resp, err := client.Get(raw)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	if err := get(b.URL + "/direct"); err != nil {
		t.Fatal(err)
	}
	if err := get(a.URL + "/via-a"); err != nil {
		t.Fatal(err)
	}
	if len(hitsB) != 2 {
		t.Fatalf("host B served %d pages, want 2", len(hitsB))
	}
	if gap := hitsB[1].Sub(hitsB[0]); gap < delay {
		t.Errorf("redirect reached host B %v after its previous fetch, want >= %v", gap, delay)
	}
	if err := get(a.URL + "/private"); err == nil {
		t.Error("redirect to a path host B's robots.txt disallows: no error")
	}
}
