package main

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

// TestWorkerCommand: two "gleaner worker --crawl" runs share one crawl
// created beforehand (SQLite here; PostgreSQL with processes in the crawler
// package's TestPostgresWorkersKilled): the budget holds over both, and no
// page is requested twice.
func TestWorkerCommand(t *testing.T) {
	ctx := context.Background()
	srv, err := fixtures.Start(ctx, fixtures.Options{Seed: 2, Slow: -1, CrawlDelay: -1, Articles: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "w.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := crawler.Config{Name: "both", Terms: []string{"energy", "solar", "wind"}, MaxPages: 16, Delay: 5 * time.Millisecond,
		Timeout: 3 * time.Second, LearnAt: -1, Workers: 2, Exclude: []string{`/live/ticker`, `/archive/full`}}
	for _, s := range srv.Sites {
		cfg.Seeds = append(cfg.Seeds, s.Base+"/")
		u, _ := url.Parse(s.Base)
		cfg.AllowHosts = append(cfg.AllowHosts, u.Host)
	}
	if err := crawler.Create(ctx, st, cfg); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, out, errs := runGleaner("worker", "--db", path, "--crawl", "both", "--plain"); code != 0 || !strings.Contains(out, "worker of crawl both") {
				t.Errorf("worker %d: exit %d\n%s\n%s", i, code, out, errs)
			}
		}()
	}
	wg.Wait()
	cnt, err := crawler.CrawlCounters(ctx, st, "both")
	if err != nil {
		t.Fatal(err)
	}
	if cnt.Tried != cfg.MaxPages || cnt.Leased != 0 {
		t.Errorf("%s; want %d tried, none leased", cnt, cfg.MaxPages)
	}
	seen := map[string]bool{}
	for _, h := range srv.Hits() {
		k := h.Site + h.Path
		if h.Path != "/robots.txt" && seen[k] {
			t.Errorf("%s requested twice", k)
		}
		seen[k] = true
	}
}

// TestWorkerErrors: a crawl that does not exist, bad flags.
func TestWorkerErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"worker", "--db", db, "--crawl", "nope", "--plain"}, 1, `no crawl named "nope"`},
		{[]string{"worker", "--db", db, "--workers", "-1"}, 2, "must not be negative"},
		{[]string{"worker", "--db", db, "extra"}, 2, "takes no argument"},
	}
	for _, tt := range tests {
		code, _, errs := runGleaner(tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, errs, tt.code, tt.want)
		}
	}
}
