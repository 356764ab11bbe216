package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/store"
)

// slowPageServer serves a home page of tens of thousands of short
// paragraphs: under the crawl's size bound, but long to extract (tens of
// seconds); served counts its requests.
func slowPageServer(t *testing.T, served *atomic.Int64) *httptest.Server {
	var b strings.Builder
	b.WriteString("<html><head><title>Ticker</title></head><body><h1>Live wind ticker</h1>")
	for i := range 40000 {
		fmt.Fprintf(&b, "<p>wind %d</p>\n", i)
	}
	b.WriteString("</body></html>")
	page := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		served.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestSIGTERMEndsCrawl: a crawl process busy with a page long to extract
// is sent SIGTERM; it exits within a few seconds, and leaves no URL
// leased (the page is queued again for the next run).
func TestSIGTERMEndsCrawl(t *testing.T) {
	var served atomic.Int64
	srv := slowPageServer(t, &served)
	db := filepath.Join(t.TempDir(), "g.db")
	args, _ := json.Marshal([]string{"crawl", "--db", db, "--plain", "--name", "term", "--terms", "wind", "--quiet", "--learn-at", "-1",
		"--allow-host", srv.Listener.Addr().String(), srv.URL + "/"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GLEANER_MAIN_ARGS="+string(args))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); served.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if served.Load() == 0 {
		cmd.Process.Kill()
		t.Fatalf("the page was never fetched: %s", out.String())
	}
	time.Sleep(time.Second) // extraction under way
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("no exit 60 s after SIGTERM: %s", out.String())
	}
	took := time.Since(start)
	t.Logf("exited %v after SIGTERM", took)
	if took > 5*time.Second {
		t.Errorf("the crawl took %v to exit after SIGTERM, want a few seconds", took)
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cnt, err := crawler.CrawlCounters(context.Background(), st, "term")
	if err != nil {
		t.Fatal(err)
	}
	if cnt.Leased != 0 {
		t.Errorf("%d URLs left leased after SIGTERM: %s", cnt.Leased, cnt)
	}
}
