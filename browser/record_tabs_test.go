package browser

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRecordTwoTabsSameURL loads one URL in two tabs at once (the server
// answers neither before both requests are in), each answer different:
// each page gets the exchange of the answer it rendered, and only that.
// Before, exchanges were claimed by URL and time, so the first page to
// finish took both and the other none.
func TestRecordTwoTabsSameURL(t *testing.T) {
	var mu sync.Mutex
	n := 0
	both := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/same" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		n++
		me := n
		if n == 2 {
			close(both)
		}
		mu.Unlock()
		select { // both requests in flight at once
		case <-both:
		case <-time.After(10 * time.Second):
		}
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!doctype html><html><body><p>answer %d of the server</p></body></html>", me)
	}))
	defer srv.Close()
	r := newRenderer(t, Options{Tabs: 2, PageTimeout: 20 * time.Second, Record: RecordOptions{On: true}})
	pages := make([]*Page, 2)
	var wg sync.WaitGroup
	for i := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := r.Fetch(context.Background(), srv.URL+"/same")
			if err != nil {
				t.Error(err)
				return
			}
			pages[i] = p
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if n != 2 {
		t.Fatalf("the server answered %d requests, want 2", n)
	}
	for i, p := range pages {
		var own []string
		for _, x := range p.Exchanges {
			if x.URL == srv.URL+"/same" {
				own = append(own, string(x.Payload))
			}
		}
		start := strings.Index(p.HTML, "answer ")
		if start < 0 {
			t.Fatalf("page %d: %s", i, p.HTML)
		}
		shown := p.HTML[start : start+len("answer 1")]
		if len(own) != 1 || !bytes.Contains([]byte(own[0]), []byte(shown)) {
			t.Errorf("page %d shows %q; its exchanges of the URL: %q", i, shown, own)
		}
	}
}
