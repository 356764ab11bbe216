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

// TestVersionsAndPreviousExchange stores later captures of one URL as
// pages of their own (Version, NextVersion) and finds the capture a 304
// confirms: the latest whole, non-empty response of the URL in the
// dataset before the 304, on both backends.
func TestVersionsAndPreviousExchange(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		u, at := "http://example.org/a", time.Date(2026, 11, 26, 18, 0, 0, 0, time.UTC)
		pages := putVersions(t, db, u, at)
		if pages[0].ID == pages[1].ID || pages[1].ID == pages[2].ID || pages[2].Key() != u+" (capture 3)" {
			t.Fatalf("captures stored as pages %d, %d, %d (%q)", pages[0].ID, pages[1].ID, pages[2].ID, pages[2].Key())
		}
		got, err := db.Pages(ctx, store.PageQuery{IDs: []int64{pages[1].ID}})
		if err != nil || len(got) != 1 || got[0].Version != 1 {
			t.Fatalf("read back: %v %v", got, err)
		}
		checkPrevious(t, db, u, at, pages[1].ID)
	})
}

// checkPrevious checks what a 304 at at+2h confirms: the capture of
// page want, at+1h; before at, none.
func checkPrevious(t *testing.T, db *store.DB, u string, at time.Time, want int64) {
	t.Helper()
	ctx := context.Background()
	ref, ok, err := db.PreviousExchange(ctx, "monitor:m", u, at.Add(2*time.Hour))
	if err != nil || !ok || ref.PageID != want || ref.Seq != 0 || !ref.At.Equal(at.Add(time.Hour)) {
		t.Errorf("previous of the 304: %+v %v %v, want page %d", ref, ok, err, want)
	}
	if x, err := db.ExchangeAt(ctx, ref); err != nil || string(x.Payload) != "v2" {
		t.Errorf("exchange at %+v: %v", ref, err)
	}
	if _, ok, err := db.PreviousExchange(ctx, "monitor:m", u, at); ok || err != nil {
		t.Errorf("before the first capture: %v %v", ok, err)
	}
}

// putVersions stores three captures of u, an hour apart, each the version
// NextVersion gives: two answers 200 and a 304.
func putVersions(t *testing.T, db *store.DB, u string, at time.Time) []*store.Page {
	t.Helper()
	ctx := context.Background()
	doc := func(when time.Duration, status, payload string) store.Exchange {
		return store.Exchange{URL: u, Method: "GET", At: at.Add(when), Response: []byte("HTTP/1.1 " + status + "\r\n\r\n"), Payload: []byte(payload)}
	}
	var pages []*store.Page
	for v, x := range []store.Exchange{doc(0, "200 OK", "v1"), doc(time.Hour, "200 OK", "v2"), doc(2*time.Hour, "304 Not Modified", "")} {
		next, err := db.NextVersion(ctx, "monitor:m", u)
		if err != nil || next != v {
			t.Fatalf("next version %d, %v; want %d", next, err, v)
		}
		p := &store.Page{URL: u, Dataset: "monitor:m", Version: next, RawHTML: x.Payload, Exchanges: []store.Exchange{x}}
		if err := db.PutPages(ctx, []*store.Page{p}); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
	}
	return pages
}
