package crawler

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gleaner/gleaner/store"
)

// TestRedirectHopsGuarded: in plain mode every redirect hop is checked by
// the seed's rule, by host and by address: allowing one port of a host (by
// name or by address) allows no other port of it.
func TestRedirectHopsGuarded(t *testing.T) {
	var inner atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { inner.Add(1) }))
	defer target.Close()
	_, targetPort, _ := net.SplitHostPort(strings.TrimPrefix(target.URL, "http://"))
	tests := []struct {
		name, allowHost, frontHost, redirect string
	}{
		{"allowed by name, redirect to an address", "localhost", "localhost", "http://127.0.0.1:" + targetPort + "/secret"},
		{"allowed by address, redirect to a name", "127.0.0.1", "127.0.0.1", "http://localhost:" + targetPort + "/secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					http.NotFound(w, r)
					return
				}
				http.Redirect(w, r, tt.redirect, http.StatusFound)
			}))
			defer front.Close()
			fu, _ := url.Parse(front.URL)
			host := tt.frontHost + ":" + fu.Port()
			db := tempDB(t)
			c, err := New(db, Config{Name: "hops", Seeds: []string{"http://" + host + "/"}, Terms: []string{"x"},
				AllowHosts: []string{tt.allowHost + ":" + fu.Port()}, Delay: -1, LearnAt: -1})
			if err != nil {
				t.Fatal(err)
			}
			sum, err := c.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			pages, _ := db.Pages(context.Background(), store.PageQuery{Dataset: Dataset("hops")})
			if n := inner.Load(); n != 0 || len(pages) != 0 || sum.Counters.Outcomes[OutcomeForbidden] != 1 {
				t.Errorf("%d requests reached the port not allowed, %d pages stored, counters %s", n, len(pages), sum.Counters)
			}
		})
	}
}
