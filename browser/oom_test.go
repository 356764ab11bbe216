package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestMemoryBlownTabNotRetried: a page whose script allocates without end
// kills its renderer at the heap bound; the fetch fails as too large
// (ErrTooLarge), and is not tried again (the server sees it once), while a
// page after it renders in the same browser.
func TestMemoryBlownTabNotRetried(t *testing.T) {
	var hits atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/hog", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body><p>hog</p><script>const keep = []; for (;;) keep.push(new Array(1 << 20).fill(Math.random()));</script></body></html>`)
	})
	mux.HandleFunc("/fine", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body><p>fine page</p></body></html>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 20 * time.Second, Retries: 2, MaxMemory: 512 << 20,
		Wait: WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}})
	p, err := r.Fetch(context.Background(), srv.URL+"/hog")
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("page over its memory bound: page %v, err %v; want ErrTooLarge", p != nil, err)
	}
	if Classify(err) != FailureTooLarge {
		t.Errorf("classified %q", Classify(err))
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("the page was requested %d times, want once (no retry)", n)
	}
	mustFetch(t, r, srv.URL+"/fine")
}
