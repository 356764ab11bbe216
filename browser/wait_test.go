package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestReadiness: how the renderer judges a page ready. A body a timer
// fetches 400 ms after the page is waited for (the timer holds the page
// although no request is in flight yet); a page that polls its server
// without end (every 700 ms) from timers re-armed in the responses still
// settles, not at its deadline; a page no taller than the window is not
// scrolled.
func TestReadiness(t *testing.T) {
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!DOCTYPE html><html><head><title>T</title></head><body>%s</body></html>", body)
		}
	}
	mux.HandleFunc("/late", page(`<div id="b"></div><script>
setTimeout(() => fetch('/data').then(r => r.text()).then(t => { document.getElementById('b').textContent = t; }), 400);
</script>`))
	mux.HandleFunc("/poll", page(`<p>Polling page.</p><div id="n"></div><script>
const poll = () => fetch('/data').then(r => r.text()).then(t => { document.getElementById('n').textContent = t + ' ' + Date.now(); setTimeout(poll, 700); });
poll();
</script>`))
	mux.HandleFunc("/short", page(`<p>A page shorter than the window.</p>`))
	mux.HandleFunc("/data", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "Body made by the late timer.")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	r := sharedRenderer(t)

	p := mustFetch(t, r, srv.URL+"/late")
	if !strings.Contains(p.HTML, "Body made by the late timer.") {
		t.Errorf("/late: the body the timer fetched is missing (notes %q)", p.Notes)
	}
	start := time.Now()
	p = mustFetch(t, r, srv.URL+"/poll")
	if p.Partial || time.Since(start) > 10*time.Second {
		t.Errorf("/poll: partial %v (%s) after %v: a poller held the page to its deadline", p.Partial, p.PartialReason, time.Since(start))
	}
	p = mustFetch(t, r, srv.URL+"/short")
	for _, n := range p.Notes {
		if strings.HasPrefix(n, "scroll:") {
			t.Errorf("/short was scrolled: %q", p.Notes)
		}
	}
}
