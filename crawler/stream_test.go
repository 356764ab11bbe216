package crawler

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
)

// streamServer serves an HTML page that never ends (paragraphs as fast as
// the client reads them, until it goes away) at /stream and a page whose
// script fills 3 GiB of typed arrays at /typed (counted in typed), both
// linked from /.
func streamServer(t *testing.T, typed *atomic.Int64) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Home</title></head><body><p>wind farms and the wind</p><a href="/stream">live</a><a href="/typed">typed</a></body></html>`)
	})
	mux.HandleFunc("/typed", func(w http.ResponseWriter, r *http.Request) {
		typed.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Typed</title></head><body><p>wind and typed arrays</p><script>
const keep = [];
for (let i = 0; i < 192; i++) { const a = new Uint8Array(16 << 20); a.fill(1); keep.push(a); }
</script></body></html>`)
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

// TestEndlessStreamNotLeftLeased: a rendered crawl whose pages are an
// endless stream, cut by its size bound, and a script filling typed
// arrays, killed at the renderer's memory bound, ends: both URLs are done
// as too large, the typed arrays' page was requested once (not retried),
// none is left leased.
func TestEndlessStreamNotLeftLeased(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages in Chromium")
	}
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("Chromium is needed (scripts/setup.sh installs it): %v", err)
	}
	var typed atomic.Int64
	srv := streamServer(t, &typed)
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
	if cnt.Leased != 0 || sum.Stop != StopExhausted || cnt.Outcomes[OutcomeSize] != 2 || typed.Load() != 1 {
		t.Errorf("stop %s after %v, %d leased, counters %s, typed arrays' page requested %d times; want exhausted, none leased, both pages too large, once",
			sum.Stop, took, cnt.Leased, cnt, typed.Load())
	}
}
