package renderbatch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/netguard"
	"github.com/gleaner/gleaner/store"
)

// TestRun fetches a loopback site's pages plainly, two at once: each
// page is stored and reported once, a failed fetch too (stored with its
// error, counted failed).
func TestRun(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<html><head><title>%s</title></head><body><p>page %s</p></body></html>", r.URL.Path, r.URL.Path)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	f, err := browser.NewFetcher(netguard.Policy{Allowed: []string{host}}, false, browser.Options{Tabs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	urls := []string{srv.URL + "/a", srv.URL + "/b", "http://127.0.0.1:1/refused", srv.URL + "/c"}
	var reported []string
	n, err := Run(ctx, f, st, urls, Options{Workers: 2, SiteMode: store.SiteFromHost}, func(r Result) {
		reported = append(reported, fmt.Sprintf("%d %v %v", r.Index, r.Err != nil, r.Stored))
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(reported)
	if want := []string{"0 false true", "1 false true", "2 true true", "3 false true"}; !slices.Equal(reported, want) {
		t.Errorf("reported %q, want %q", reported, want)
	}
	if n != (Counts{Failed: 1, Stored: 4}) {
		t.Errorf("counts %+v", n)
	}
	pages, err := st.Pages(ctx, store.PageQuery{})
	if err != nil || len(pages) != 4 {
		t.Errorf("%d pages stored (%v), want 4", len(pages), err)
	}
}

// TestReadURLs skips blank lines and comments.
func TestReadURLs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"http://a/\n\n  # comment\n http://b/x \n", "http://a/ http://b/x"},
	} {
		got, err := ReadURLs(strings.NewReader(tc.in))
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("%q: %q %v, want %q", tc.in, got, err, tc.want)
		}
	}
}
