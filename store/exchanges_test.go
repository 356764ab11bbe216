package store_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

// TestExchanges stores a page's exchanges (binary payloads, a
// windows-1252 one among them) on both backends, reads them back byte for
// byte in order, replaces them on a second put, keeps them when a put
// carries none, and drops them with their page.
func TestExchanges(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		at := time.Date(2026, 11, 26, 18, 0, 0, 123e6, time.UTC)
		xs := []store.Exchange{
			{URL: "http://example.org/a", Method: "GET", IP: "127.0.0.1", At: at,
				Request:  []byte("GET /a HTTP/1.1\r\nHost: example.org\r\n\r\n"),
				Response: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\n\r\n"),
				Payload:  []byte("<p>M\xfcnchen</p>")},
			{URL: "http://example.org/b.bin", Method: "GET", At: at.Add(time.Second), Truncated: true,
				Request: []byte("GET /b.bin HTTP/1.1\r\n\r\n"), Response: []byte("HTTP/1.1 200 OK\r\n\r\n"),
				Payload: []byte{0, 1, 2, 0xff, 0x1f, 0x8b}},
		}
		p := &store.Page{URL: "http://example.org/a", RawHTML: []byte("<p>x</p>"), Exchanges: xs}
		if err := db.PutPages(ctx, []*store.Page{p}); err != nil {
			t.Fatal(err)
		}
		got, err := db.Exchanges(ctx, p.ID)
		if err != nil || len(got) != 2 {
			t.Fatalf("exchanges: %d (%v)", len(got), err)
		}
		for i, g := range got {
			w := p.Exchanges[i]
			if g.Seq != i || g.URL != w.URL || g.IP != w.IP || !g.At.Equal(w.At) || g.Truncated != w.Truncated ||
				!bytes.Equal(g.Request, w.Request) || !bytes.Equal(g.Response, w.Response) || !bytes.Equal(g.Payload, w.Payload) ||
				g.PayloadSHA256 == "" || g.PayloadSHA256 != w.PayloadSHA256 {
				t.Errorf("exchange %d: got %+v, want %+v", i, g, w)
			}
		}
		// A put without exchanges keeps them; one with exchanges replaces them.
		p.Exchanges = nil
		if err := db.PutPages(ctx, []*store.Page{p}); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.Exchanges(ctx, p.ID); len(got) != 2 {
			t.Errorf("after a put without exchanges: %d", len(got))
		}
		p.Exchanges = xs[1:]
		if err := db.PutPages(ctx, []*store.Page{p}); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.Exchanges(ctx, p.ID); len(got) != 1 || got[0].URL != xs[1].URL {
			t.Errorf("after a replacing put: %+v", got)
		}
		bad := &store.Page{URL: "http://example.org/c", Exchanges: []store.Exchange{{Method: "GET"}}}
		if err := db.PutPages(ctx, []*store.Page{bad}); err == nil {
			t.Error("an exchange without URL was stored")
		}
	})
}

// TestFirstExchange finds the earliest whole capture of a URL's payload
// in a dataset, on both backends: not a truncated one, not another
// dataset's, not another payload's.
func TestFirstExchange(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		at := time.Date(2026, 11, 26, 18, 0, 0, 0, time.UTC)
		js := func(when time.Duration, payload string, truncated bool) store.Exchange {
			return store.Exchange{URL: "http://example.org/app.js", Method: "GET", At: at.Add(when), Payload: []byte(payload), Truncated: truncated}
		}
		pages := []*store.Page{
			{URL: "http://example.org/0", Dataset: "monitor:m", Exchanges: []store.Exchange{js(0, "v1", true)}},
			{URL: "http://example.org/1", Dataset: "monitor:m", Exchanges: []store.Exchange{js(time.Hour, "v1", false)}},
			{URL: "http://example.org/2", Dataset: "monitor:m", Exchanges: []store.Exchange{js(2*time.Hour, "v2", false), js(3*time.Hour, "v1", false)}},
			{URL: "http://example.org/3", Dataset: "crawl:c", Exchanges: []store.Exchange{js(-time.Hour, "v1", false)}},
		}
		if err := db.PutPages(ctx, pages); err != nil {
			t.Fatal(err)
		}
		sum := pages[2].Exchanges[1].PayloadSHA256
		ref, ok, err := db.FirstExchange(ctx, "monitor:m", "http://example.org/app.js", sum)
		if err != nil || !ok || ref.PageID != pages[1].ID || ref.Seq != 0 || !ref.At.Equal(at.Add(time.Hour)) || ref.Method != "GET" {
			t.Errorf("first v1: %+v %v %v", ref, ok, err)
		}
		if _, ok, err := db.FirstExchange(ctx, "monitor:none", "http://example.org/app.js", sum); ok || err != nil {
			t.Errorf("another dataset: %v %v", ok, err)
		}
	})
}
