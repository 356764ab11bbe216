package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser/chromeproc"
)

// treePeak samples the memory of r's browser process tree every 50 ms
// until stop is called, which returns the highest RSS (summed over the
// processes) and PSS seen.
func treePeak(r *Renderer) (stop func() (rss, pss int64)) {
	var peakRSS, peakPSS int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if pid := r.BrowserPID(); pid != 0 {
				rss, pss := chromeproc.TreeMem(pid)
				peakRSS, peakPSS = max(peakRSS, rss), max(peakPSS, pss)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() (int64, int64) {
		close(done)
		wg.Wait()
		return peakRSS, peakPSS
	}
}

// TestMemoryBoundDuringPage: at the default bounds, a page whose script
// fills typed arrays (3 GiB of them, which --max-old-space-size does not
// bound) and a gzip bomb keep the browser's whole process tree under
// 1 GiB: the renderer over its bound is killed while the page runs, and
// the page is returned partial as too large (or fails as too large) and is
// not tried again.
func TestMemoryBoundDuringPage(t *testing.T) {
	var typedHits atomic.Int64
	bombs := hostilePages(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/small", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Small</title></head><body><p>a small page</p></body></html>`)
	})
	mux.HandleFunc("/typed", func(w http.ResponseWriter, r *http.Request) {
		typedHits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Typed</title></head><body><p>typed arrays ahead</p><script>
const keep = [];
for (let i = 0; i < 192; i++) { const a = new Uint8Array(16 << 20); a.fill(1); keep.push(a); }
</script></body></html>`)
	})
	typed := httptest.NewServer(mux)
	t.Cleanup(typed.Close)
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 20 * time.Second, Wait: WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}})
	stop := treePeak(r)
	mustFetch(t, r, bombs.URL+"/busy") // the browser runs: its baseline is in the peaks
	rss, pss := stop()
	t.Logf("baseline (a page whose script never yields): whole-tree peak RSS %d MiB, PSS %d MiB", rss>>20, pss>>20)
	for _, tc := range []struct{ name, url string }{
		{"typed-array loop", typed.URL + "/typed"},
		{"gzip bomb", bombs.URL + "/bomb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stop := treePeak(r)
			p, err := r.Fetch(context.Background(), tc.url)
			rss, pss := stop()
			outcome := "complete"
			switch {
			case err != nil:
				outcome = "error: " + err.Error()
			case p.Partial:
				outcome = "partial: " + p.PartialReason
			}
			t.Logf("%s: whole-tree peak RSS %d MiB, PSS %d MiB; %s", tc.name, rss>>20, pss>>20, outcome)
			// PSS: what the tree costs (RSS summed over its processes
			// counts the pages they share once per process).
			if pss > 1<<30 {
				t.Errorf("whole-tree peak PSS %d MiB, over 1 GiB", pss>>20)
			}
			if err != nil && !errors.Is(err, ErrTooLarge) {
				t.Errorf("fetch: %v", err)
			}
			if err == nil && !p.Partial {
				t.Errorf("stored as complete")
			}
		})
	}
	if n := typedHits.Load(); n != 1 {
		t.Errorf("the typed-array page was requested %d times: retried", n)
	}
}
