package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAllowRequestGuardsEveryBrowserRequest: a page on one loopback server
// loads an image and a fetch() from a second one and a script through a
// redirect to it; AllowRequest refuses the second server, which must then
// see no request at all, while the page still renders.
func TestAllowRequestGuardsEveryBrowserRequest(t *testing.T) {
	var hits atomic.Int64
	forbidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		t.Logf("forbidden server got %s", r.URL)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>secret</p>")
	}))
	defer forbidden.Close()
	fu, _ := url.Parse(forbidden.URL)

	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Guarded</title></head><body>
<img src="%[1]s/metadata.png">
<div id="out"></div>
<script>fetch('%[1]s/latest/meta-data/').catch(() => {});
document.getElementById('out').textContent = 'rendered by script';</script>
<script src="/hop"></script>
</body></html>`, forbidden.URL)
	})
	mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, forbidden.URL+"/app.js", http.StatusFound)
	})
	mux.HandleFunc("/main-hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, forbidden.URL+"/admin", http.StatusFound)
	})
	public := httptest.NewServer(mux)
	defer public.Close()

	allow := func(_ context.Context, u *url.URL) error {
		if u.Host == fu.Host {
			return fmt.Errorf("host %s is forbidden", u.Host)
		}
		return nil
	}
	for _, tc := range []struct {
		name        string
		opt         Options
		refused     []string // URL suffixes listed as refused
		blockedType int
	}{
		{"no type blocking", Options{NoBlock: true}, []string{"/metadata.png", "/latest/meta-data/", "/app.js"}, 0},
		{"images blocked by type", Options{}, []string{"/latest/meta-data/", "/app.js"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opt
			// Interception alone (no proxy): what AllowRequest sees of every request.
			o.Tabs, o.PageTimeout, o.AllowRequest, o.Unguarded = 1, 20*time.Second, allow, true
			o.Wait.ScrollSteps = -1
			r := newRenderer(t, o)
			p := mustFetch(t, r, public.URL+"/page")
			if !strings.Contains(p.HTML, "rendered by script") {
				t.Errorf("page did not render: %q", p.HTML)
			}
			var refusals []string
			for _, n := range p.Notes {
				if strings.HasPrefix(n, "refused: ") {
					refusals = append(refusals, n)
				}
			}
			for _, want := range tc.refused {
				found := false
				for _, n := range refusals {
					if strings.Contains(n, forbidden.URL+want+": ") && strings.Contains(n, "is forbidden") {
						found = true
					}
				}
				if !found {
					t.Errorf("no refusal of %s in notes %q", want, p.Notes)
				}
			}
			if len(refusals) != len(tc.refused) {
				t.Errorf("%d refusals, want %d: %q", len(refusals), len(tc.refused), refusals)
			}
			if p.Blocked != tc.blockedType {
				t.Errorf("%d blocked by type, want %d", p.Blocked, tc.blockedType)
			}

			for _, target := range []string{forbidden.URL + "/", public.URL + "/main-hop"} {
				p, err := r.Fetch(context.Background(), target)
				if !errors.Is(err, ErrRefused) {
					t.Errorf("fetch %s: got page %v, error %v; want ErrRefused", target, p != nil, err)
				}
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("the forbidden server received %d requests", n)
			}
		})
	}
}
