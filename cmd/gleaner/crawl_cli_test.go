package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/crawler"
)

// TestHelpExitsZero: -h prints a command's usage and exits 0, on every
// command (the shared dispatcher decides).
func TestHelpExitsZero(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{name, "-h"}, {name, "--help"}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				if code, _, errs := runGleaner(args...); code != 0 || strings.Contains(errs, "gleaner "+name+": ") {
					t.Errorf("exit %d, stderr %q", code, errs)
				}
			})
		}
	}
	for _, args := range [][]string{{"crawl", "status", "-h"}, {"crawl", "pause", "-h"}} {
		if code, _, _ := runGleaner(args...); code != 0 {
			t.Errorf("%v: exit %d, want 0", args, code)
		}
	}
}

// TestParseInterspersed: flags after positional arguments are flags;
// after "--" everything is positional.
func TestParseInterspersed(t *testing.T) {
	tests := []struct {
		args      []string
		wantPos   []string
		wantLimit int
	}{
		{[]string{"a", "--limit", "3", "b"}, []string{"a", "b"}, 3},
		{[]string{"--limit", "2", "a"}, []string{"a"}, 2},
		{[]string{"a", "--", "--limit", "5"}, []string{"a", "--limit", "5"}, 0},
		{nil, nil, 0},
	}
	for _, tt := range tests {
		fs := newFlagSet("t", os.Stderr)
		limit := fs.Int("limit", 0, "")
		pos, err := parseInterspersed(fs, tt.args)
		if err != nil || strings.Join(pos, " ") != strings.Join(tt.wantPos, " ") || *limit != tt.wantLimit {
			t.Errorf("%q: positional %q, limit %d, err %v; want %q, %d", tt.args, pos, *limit, err, tt.wantPos, tt.wantLimit)
		}
	}
}

// windServer serves an on-topic article (wind) at every path but
// robots.txt, calling hook first on each request when it is set.
func windServer(t *testing.T, hook func(*http.Request)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if hook != nil {
			hook(r)
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><title>Wind</title></head><body><article><p>The wind farm on the coast delivered its first power to the grid this week, the operator said on Monday.</p></article></body></html>`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCrawlCommandExitCodes: bad input and crawls that fetched nothing, or
// did not finish, exit non-zero; flags after the seed URLs are flags.
func TestCrawlCommandExitCodes(t *testing.T) {
	interrupted, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	page := windServer(t, func(r *http.Request) {
		if r.URL.Path == "/interrupt" {
			interrupt() // the signal comes while the page is fetched
			time.Sleep(100 * time.Millisecond)
		}
	})
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	tests := []struct {
		name string
		ctx  context.Context
		args []string
		code int
		want string // in stdout or stderr
	}{
		{"flags after the seed", context.Background(), []string{"crawl", "--db", db, "--plain", "--terms", "wind", page.URL + "/", "--allow-host", hostOf(page.URL), "--name", "after", "--delay", "1ms", "--learn-at", "-1"}, 0, "crawl after: 1 seeds"},
		{"status of an unknown crawl", context.Background(), []string{"crawl", "status", "--db", db, "--name", "unknown"}, 1, `no crawl named "unknown"`},
		{"negative timeout", context.Background(), []string{"crawl", "--db", db, "--plain", "--terms", "wind", "--timeout", "-1s", page.URL + "/"}, 2, "must not be negative"},
		{"every seed forbidden", context.Background(), []string{"crawl", "--db", db, "--plain", "--terms", "wind", "--name", "forbidden", page.URL + "/"}, 1, "refused by the guard"},
		{"interrupted", interrupted, []string{"crawl", "--db", db, "--plain", "--terms", "wind", "--name", "cut", "--allow-host", hostOf(page.URL), page.URL + "/interrupt"}, 1, "interrupted"},
		{"render negative timeout", context.Background(), []string{"render", "--db", db, "--plain", "--timeout", "-1s", page.URL + "/"}, 2, "must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb strings.Builder
			code := run(tt.ctx, tt.args, &out, &errb)
			if code != tt.code || !strings.Contains(out.String()+errb.String(), tt.want) {
				t.Errorf("exit %d, want %d with %q\nstdout %s\nstderr %s", code, tt.code, tt.want, out.String(), errb.String())
			}
		})
	}
}

// TestCrawlConfigDurations: a JSON configuration takes durations as
// strings ("30s"), as YAML does, and still as nanoseconds.
func TestCrawlConfigDurations(t *testing.T) {
	tests := []struct {
		json string
		want time.Duration
	}{
		{`{"name": "j", "timeout": "30s"}`, 30 * time.Second},
		{`{"name": "j", "timeout": "1m30s"}`, 90 * time.Second},
		{`{"name": "j", "timeout": 2000000000}`, 2 * time.Second},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "c.json")
		os.WriteFile(path, []byte(tt.json), 0o644)
		cfg, err := crawler.LoadConfig(path)
		if err != nil || cfg.Timeout != tt.want {
			t.Errorf("%s: timeout %v, err %v; want %v", tt.json, cfg.Timeout, err, tt.want)
		}
	}
	for _, bad := range []string{`{"name": "j", "timeout": "soon"}`, `{"name": "j", "unknown": 1}`, `{"name": `} {
		path := filepath.Join(t.TempDir(), "c.json")
		os.WriteFile(path, []byte(bad), 0o644)
		if _, err := crawler.LoadConfig(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err %v, want one naming the file", bad, err)
		}
	}
}

// TestReadOnlyDatabase: crawl status and export work on a database that
// cannot be written (made immutable with chattr, which binds root too).
func TestReadOnlyDatabase(t *testing.T) {
	page := windServer(t, nil)
	dir := filepath.Join(t.TempDir(), "ro")
	db := filepath.Join(dir, "c.db")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runGleaner("crawl", "--db", db, "--plain", "--terms", "wind", "--name", "ro", "--quiet", "--learn-at", "-1", "--allow-host", hostOf(page.URL), page.URL+"/"); code != 0 {
		t.Fatalf("crawl: exit %d: %s", code, errs)
	}
	if out, err := exec.Command("chattr", "+i", db, dir).CombinedOutput(); err != nil {
		t.Skipf("cannot make the database read-only here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", db, dir).Run() })
	for _, args := range [][]string{
		{"crawl", "status", "--db", db},
		{"crawl", "status", "--db", db, "--name", "ro"},
		{"export", "--db", db, "--format", "jsonl", "--out", filepath.Join(t.TempDir(), "out")},
	} {
		if code, out, errs := runGleaner(args...); code != 0 {
			t.Errorf("%v: exit %d\nstdout %s\nstderr %s", args, code, out, errs)
		}
	}
}
