package crawler

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
)

// dropper is a loopback listener that accepts connections and closes them
// at once (a host that cannot be reached), logging when each came.
type dropper struct {
	ln    net.Listener
	mu    sync.Mutex
	times []time.Time
}

func newDropper(t *testing.T) *dropper {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &dropper{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d.mu.Lock()
			d.times = append(d.times, time.Now())
			d.mu.Unlock()
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return d
}

// serve ends the outage: the dropper's address answers HTTP from now on (a
// small page; no robots.txt).
func (d *dropper) serve(t *testing.T) {
	t.Helper()
	addr := d.ln.Addr().String()
	d.ln.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<html><head><title>Back</title></head><body><p>The energy grid is back.</p></body></html>"))
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
}

func (d *dropper) accepts() []time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]time.Time(nil), d.times...)
}

// frontierStates counts a crawl's URLs by state.
func frontierStates(t *testing.T, c *Crawler) (queued, done int) {
	t.Helper()
	ctx := context.Background()
	q, err := c.fr.Count(ctx, StateQueued)
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.fr.Count(ctx, StateDone)
	if err != nil {
		t.Fatal(err)
	}
	return q, d
}

// TestFetcherFailureLeavesURLsQueued: a failure of the fetcher itself (a
// browser that cannot start) or of the whole network stops the crawl with
// an error and leaves every URL queued; a rerun that works fetches them.
func TestFetcherFailureLeavesURLsQueued(t *testing.T) {
	web := fixtureWeb(t)
	badBrowser, err := browser.New(browser.Options{ExecPath: "/nonexistent/chromium"})
	if err != nil {
		t.Fatal(err)
	}
	defer badBrowser.Close()
	tests := []struct {
		name string
		edit func(t *testing.T, cfg *Config)
		want error
	}{
		{"browser cannot start", func(t *testing.T, cfg *Config) { cfg.Fetcher = badBrowser }, ErrFetcherFailed},
		{"network down", func(t *testing.T, cfg *Config) {
			cfg.Seeds, cfg.AllowHosts = nil, nil
			for range 4 {
				addr := newDropper(t).ln.Addr().String()
				cfg.Seeds = append(cfg.Seeds, "http://"+addr+"/")
				cfg.AllowHosts = append(cfg.AllowHosts, addr)
			}
			cfg.Workers = 1
			cfg.OutageWait = time.Nanosecond // stop at once
		}, ErrOutage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := tempDB(t)
			cfg := fixtureConfig(web, "down")
			cfg.LearnAt = -1
			tt.edit(t, &cfg)
			c, err := New(db, cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Run(context.Background())
			if !errors.Is(err, tt.want) {
				t.Fatalf("run error %v, want %v", err, tt.want)
			}
			if q, d := frontierStates(t, c); q != len(cfg.Seeds) || d != 0 {
				t.Errorf("%d URLs queued and %d done, want all %d queued: %q", q, d, len(cfg.Seeds), outcomeDetails(t, db, "down", OutcomeRobots))
			}
		})
	}

	// The URLs left by the browser that could not start are fetched by a
	// rerun with a working fetcher.
	db := tempDB(t)
	cfg := fixtureConfig(web, "rerun")
	cfg.LearnAt, cfg.Fetcher = -1, badBrowser
	c, _ := New(db, cfg)
	c.Run(context.Background())
	cfg.Fetcher, cfg.MaxPages = nil, len(cfg.Seeds)
	c, err = New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil || sum.Counters.Tried != len(cfg.Seeds) {
		t.Errorf("rerun: %v, %s", err, sum.Counters)
	}
}

// TestOutageWaitedOut: when every host stops answering, the crawl pauses
// (URLs queued, attempts untouched) and resumes by itself when the network
// comes back, without an error and without counting a page as failed.
func TestOutageWaitedOut(t *testing.T) {
	var drops []*dropper
	cfg := Config{Name: "outage", Terms: []string{"energy"}, Workers: 1, Delay: -1,
		Timeout: 2 * time.Second, HostBackoff: 20 * time.Millisecond, OutageWait: time.Minute, LearnAt: -1}
	for range 3 {
		d := newDropper(t)
		drops = append(drops, d)
		addr := d.ln.Addr().String()
		cfg.Seeds = append(cfg.Seeds, "http://"+addr+"/")
		cfg.AllowHosts = append(cfg.AllowHosts, addr)
	}
	var logged sync.Map
	cfg.Logf = func(format string, args ...any) { logged.Store(format, true) }
	c, err := New(tempDB(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := c.Run(context.Background()); done <- err }()

	waitFor(t, func() bool { _, ok := logged.Load(outageLog); return ok })
	for _, d := range drops {
		d.serve(t)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v, want the crawl to resume by itself", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the crawl did not resume after the network came back")
	}
	if q, d := frontierStates(t, c); q != 0 || d != len(cfg.Seeds) {
		t.Errorf("%d queued, %d done; want all %d done", q, d, len(cfg.Seeds))
	}
	if bad := outcomeDetails(t, c.db, "outage", OutcomeHTTPError); len(bad) > 0 {
		t.Errorf("pages counted as failed during the outage: %q", bad)
	}
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within a minute")
}

// TestUnreachableHostSuspended: a host that cannot be reached is left alone
// for a backoff that doubles, while the others are crawled, and its URL is
// given up (http-error) only after its retries.
func TestUnreachableHostSuspended(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><title>Wind</title></head><body><article><p>The wind farm on the coast delivered its first power to the grid this week.</p></article></body></html>`))
	}))
	defer ok.Close()
	down := newDropper(t)
	okURL, _ := url.Parse(ok.URL)
	backoff := 150 * time.Millisecond
	cfg := Config{Name: "suspend", Terms: []string{"wind"}, Delay: -1, LearnAt: -1, Retries: 2, HostBackoff: backoff,
		Seeds:      []string{"http://" + down.ln.Addr().String() + "/", ok.URL + "/"},
		AllowHosts: []string{okURL.Host, down.ln.Addr().String()}}
	c, err := New(tempDB(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	at := down.accepts()
	if len(at) != 3 {
		t.Fatalf("the unreachable host was tried %d times, want 3 (1 + 2 retries)", len(at))
	}
	for i, want := range []time.Duration{backoff, 2 * backoff} {
		if gap := at[i+1].Sub(at[i]); gap < want {
			t.Errorf("try %d came %v after the previous one, want at least %v", i+2, gap, want)
		}
	}
	if sum.Counters.Outcomes[OutcomeHTTPError] != 1 || sum.Counters.Tried != 2 {
		t.Errorf("counters %s, want the reachable page fetched and the other an http-error", sum.Counters)
	}
}
