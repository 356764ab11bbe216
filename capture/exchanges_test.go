package capture

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/netguard"
	"github.com/gleaner/gleaner/store"
)

// TestExchangesStored fetches a redirected windows-1252 page with
// recording on, stores it and reads its exchanges back: both hops, the
// payload byte for byte as served.
func TestExchangesStored(t *testing.T) {
	page := []byte("<html><head><meta charset=\"windows-1252\"><title>M\xfcnchen</title></head><body><p>Gr\xfc\xdfe</p></body></html>")
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/new", http.StatusFound) })
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=windows-1252")
		w.Write(page)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := &browser.HTTPFetcher{Guard: netguard.Policy{Allowed: []string{"127.0.0.1"}}, Record: browser.RecordOptions{On: true}}
	p, err := f.Fetch(context.Background(), srv.URL+"/old")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ToStore(p.URL, "", store.SiteFromDomain, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PutPages(ctx, []*store.Page{sp}); err != nil {
		t.Fatal(err)
	}
	xs, err := db.Exchanges(ctx, sp.ID)
	if err != nil || len(xs) != 2 {
		t.Fatalf("%d exchanges (%v)", len(xs), err)
	}
	if xs[0].URL != srv.URL+"/old" || !bytes.HasPrefix(xs[0].Response, []byte("HTTP/1.1 302 Found\r\n")) {
		t.Errorf("redirect hop: %s %q", xs[0].URL, xs[0].Response)
	}
	if xs[1].URL != srv.URL+"/new" || !bytes.Equal(xs[1].Payload, page) || xs[1].IP != "127.0.0.1" {
		t.Errorf("page: %s %q %s", xs[1].URL, xs[1].Payload, xs[1].IP)
	}
	if Exchanges(nil) != nil {
		t.Error("no exchanges must leave the stored ones alone (nil)")
	}
}
