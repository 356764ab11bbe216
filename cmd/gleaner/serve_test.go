package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestServeRefusesBadCalls(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.db")
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"serve", "--db", db, "--addr", "0.0.0.0:8080"}, 2, "not loopback"},
		{[]string{"serve", "--db", db, "--addr", "10.1.2.3:8080", "--public"}, 2, "token"},
		{[]string{"serve", "--db", db, "--addr", "10.1.2.3:8080", "--public", "--token", "short"}, 2, "16 characters"},
		{[]string{"serve", "--db", db, "--addr", "nonsense"}, 2, "host:port"},
		{[]string{"serve", "--db", db, "extra"}, 2, "unexpected arguments"},
		{[]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, 1, "database"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.err) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errb.String(), c.code, c.err)
		}
	}
}

// TestServeCommand serves the dashboard of a store made by "gleaner crawl
// --fixtures": / answers with the crawls page listing the crawl; without
// --addr the dashboard listens on loopback.
func TestServeCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	var out, errb bytes.Buffer
	crawl := []string{"crawl", "--db", db, "--fixtures", "--fixtures-addr", "127.0.0.1:0", "--plain", "--delay", "1ms", "--timeout", "2s", "--max-pages", "8", "--quiet"}
	if code := run(context.Background(), crawl, &out, &errb); code != 0 {
		t.Fatalf("crawl: exit %d: %s", code, errb.String())
	}
	base := startServe(t, "--db", db, "--addr", "127.0.0.1:0")
	resp, err := http.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"<h1>Crawls</h1>", `href="/crawls/fixtures"`, `name="csrf"`} {
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET /: %d, lacks %q", resp.StatusCode, want)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("CSP %q", csp)
	}
	if def := startServe(t, "--db", db); def != "http://127.0.0.1:8080/" && def != "in use" {
		t.Errorf("default address: %s", def)
	}
}

var servingLine = regexp.MustCompile(`dashboard on (http://\S+)`)

// startServe runs gleaner serve until the test ends and returns the URL it
// prints ("in use" when its port is taken by another program).
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, append([]string{"serve"}, args...), &out, &errb) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 && !strings.Contains(errb.String(), "address already in use") {
			t.Errorf("serve %v: exit %d: %s", args, code, errb.String())
		}
	})
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := servingLine.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		if strings.Contains(errb.String(), "127.0.0.1:8080: bind: address already in use") {
			return "in use"
		}
	}
	t.Fatalf("serve %v printed no address: %q %q", args, out.String(), errb.String())
	return ""
}
