package crawler

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
)

// streamServer serves an HTML page that never ends (paragraphs as fast as
// the client reads them, until it goes away) at /stream, linked from /.
func streamServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Home</title></head><body><p>wind farms and the wind</p><a href="/stream">live</a></body></html>`)
	})
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>Stream</title></head><body><p>start of the wind stream</p>")
		for i := 0; r.Context().Err() == nil; i++ {
			if _, err := fmt.Fprintf(w, "<p>wind line %d %s</p>\n", i, strings.Repeat("wind x ", 8000)); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/robots.txt", http.NotFound)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestEndlessStreamNotLeftLeased: a rendered crawl whose page is an
// endless stream, cut by its size bound, ends: the page's URL is done
// (too large), none is left leased, and the run returns within its
// budget.
func TestEndlessStreamNotLeftLeased(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages in Chromium")
	}
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("Chromium is needed (scripts/setup.sh installs it): %v", err)
	}
	srv := streamServer(t)
	cfg := Config{Name: "stream", Seeds: []string{srv.URL + "/"}, Terms: []string{"wind"}, AllowHosts: []string{srv.Listener.Addr().String()},
		Delay: -1, LearnAt: -1}
	r, err := cfg.Renderer("", 1, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg.Fetcher = r
	db := tempDB(t)
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	start := time.Now()
	sum, err := c.Run(ctx)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("run: %v after %v", err, took)
	}
	cnt, err := CrawlCounters(context.Background(), db, "stream")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stop %s after %v; %s", sum.Stop, took, cnt)
	if cnt.Leased != 0 || sum.Stop != StopExhausted || cnt.Outcomes[OutcomeSize] != 1 {
		t.Errorf("stop %s after %v, %d leased, counters %s; want exhausted, none leased, the stream too large", sum.Stop, took, cnt.Leased, cnt)
	}
}
