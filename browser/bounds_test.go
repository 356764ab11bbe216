package browser

import (
	"compress/gzip"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// hostilePages serves a gzip bomb (a small body that decodes to 1 GiB), an
// endless stream and a page whose script never yields.
func hostilePages(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		z, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
		defer z.Close()
		fmt.Fprint(z, "<html><head><title>Bomb</title></head><body><p>start of the bomb</p><p>")
		zeros := make([]byte, 1<<20)
		for i := range zeros {
			zeros[i] = '0'
		}
		for range 1024 {
			if _, err := z.Write(zeros); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>Stream</title></head><body><p>start of the stream</p>")
		for i := 0; r.Context().Err() == nil; i++ {
			if _, err := fmt.Fprintf(w, "<p>line %d %s</p>\n", i, strings.Repeat("x", 1000)); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(time.Millisecond)
		}
	})
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Busy</title></head><body><p>before the loop</p><script>setTimeout(() => { for (;;) {} }, 50);</script></body></html>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestHostilePagesBounded: through the proxy a gzip bomb and an endless
// stream are cut at the response bound and a page whose script never
// yields is kept as its document arrived: each is returned with what came,
// marked partial, instead of failing at the deadline.
func TestHostilePagesBounded(t *testing.T) {
	srv := hostilePages(t)
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 4 * time.Second, Retries: -1, Dial: dial, MaxResponseBytes: 2 << 20,
		Wait: WaitOptions{ScrollSteps: -1, LoadMoreClicks: -1}})
	tests := []struct{ path, want string }{
		{"/bomb", "start of the bomb"},
		{"/stream", "start of the stream"},
		{"/busy", "before the loop"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, err := r.Fetch(context.Background(), srv.URL+tt.path)
			if err != nil {
				t.Fatalf("fetch: %v", err)
			}
			if !p.Partial || !strings.Contains(p.HTML, tt.want) {
				t.Errorf("partial %v (%s), HTML has %q: %v", p.Partial, p.PartialReason, tt.want, strings.Contains(p.HTML, tt.want))
			}
			if len(p.HTML) > 4<<20 {
				t.Errorf("%d bytes of HTML, over the bound", len(p.HTML))
			}
		})
	}
}
