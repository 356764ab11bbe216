package export

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

// roundPage is a monitor round's page: its document and the site's
// script, the same bytes every round.
func roundPage(round int, at time.Time) *store.Page {
	doc := fmt.Sprintf("<html><head><script src=\"/app.js\"></script></head><body><p>Story %d</p></body></html>", round)
	u := fmt.Sprintf("http://news.example/story-%d", round)
	ex := func(url, path, ctype, payload string, at time.Time) store.Exchange {
		return store.Exchange{URL: url, Method: "GET", IP: "192.0.2.1", At: at,
			Request:  []byte("GET " + path + " HTTP/1.1\r\nHost: news.example\r\n\r\n"),
			Response: []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\ncontent-type: %s\r\nContent-Length: %d\r\n\r\n", ctype, len(payload))),
			Payload:  []byte(payload)}
	}
	return &store.Page{URL: u, Dataset: "monitor:m", RenderedHTML: []byte(doc), Status: 200, FetchedAt: at,
		Exchanges: []store.Exchange{ex(u, fmt.Sprintf("/story-%d", round), "text/html", doc, at),
			ex("http://news.example/app.js", "/app.js", "application/javascript", "document.title = 'news';", at.Add(time.Second))}}
}

// TestRevisitAcrossRounds exports two rounds of a monitor's pages apart:
// the second round's script, the same payload at the same URL as the
// first round's, is a revisit record (identical-payload-digest) referring
// to the response record the first round's export wrote, by ID, URI and
// date; warcio reads and checks both files.
func TestRevisitAcrossRounds(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	pages := []*store.Page{roundPage(1, t0), roundPage(2, t0.Add(15*time.Minute))}
	if err := st.PutPages(ctx, pages); err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if err := st.PutExtractions(ctx, []store.Extraction{{PageID: p.ID, Title: "Story", Body: "Story text."}}); err != nil {
			t.Fatal(err)
		}
	}
	rounds := make([][]Record, 2)
	for i, p := range pages {
		out := filepath.Join(t.TempDir(), "out")
		if _, err := Corpus(ctx, st, nil, CorpusOptions{Formats: []string{"warc", "wacz"}, Out: out, Dataset: "monitor:m", PageIDs: []int64{p.ID}}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(out, "corpus.warc.gz")
		if s := warcio(t, path); len(s.Errors) > 0 {
			t.Fatalf("round %d: warcio %v", i+1, s.Errors)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rounds[i], err = ReadWARC(f, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	first := recordOf(rounds[0], "response", "http://news.example/app.js")
	again := recordOf(rounds[1], "revisit", "http://news.example/app.js")
	if first == nil || again == nil {
		t.Fatalf("round 1's script response %v, round 2's revisit %v", first != nil, again != nil)
	}
	want := map[string]string{
		"WARC-Refers-To":            first.Header.Get("WARC-Record-ID"),
		"WARC-Refers-To-Target-URI": "http://news.example/app.js",
		"WARC-Refers-To-Date":       first.Header.Get("WARC-Date"),
		"WARC-Profile":              "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
		"WARC-Payload-Digest":       first.Header.Get("WARC-Payload-Digest"),
	}
	for k, v := range want {
		if got := again.Header.Get(k); got != v || v == "" {
			t.Errorf("revisit %s %q, want %q", k, got, v)
		}
	}
	if recordOf(rounds[1], "response", "http://news.example/story-2") == nil {
		t.Error("round 2's own document is not a response record")
	}
}

// recordOf is the record of type typ for uri in recs.
func recordOf(recs []Record, typ, uri string) *Record {
	for i := range recs {
		if recs[i].Type() == typ && recs[i].TargetURI() == uri {
			return &recs[i]
		}
	}
	return nil
}

// TestRevisitNotModified exports a monitor's 304 answer (a recheck's
// capture of its own, no HTML) alone, as a WARC and as a WACZ: it is a
// revisit of profile server-not-modified referring to the capture it
// confirms, without payload digest; the WACZ also holds that capture's
// response, so that it resolves there; warcio reads and checks both.
func TestRevisitNotModified(t *testing.T) {
	ctx := context.Background()
	st := tempStore(t)
	t0 := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	first := roundPage(1, t0)
	u := first.URL
	confirmed := &store.Page{URL: u, Dataset: "monitor:m", Version: 1, Status: 304, FetchedAt: t0.Add(time.Hour),
		Exchanges: []store.Exchange{{URL: u, Method: "GET", At: t0.Add(time.Hour),
			Request:  []byte("GET /story-1 HTTP/1.1\r\nHost: news.example\r\nIf-None-Match: \"v1\"\r\n\r\n"),
			Response: []byte("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n")}}}
	if err := st.PutPages(ctx, []*store.Page{first, confirmed}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*store.Page{first, confirmed} {
		if err := st.PutExtractions(ctx, []store.Extraction{{PageID: p.ID, Title: "Story", Body: "Story text."}}); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Corpus(ctx, st, nil, CorpusOptions{Formats: []string{"warc", "wacz"}, Out: out, Dataset: "monitor:m", PageIDs: []int64{confirmed.ID}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, "corpus.warc.gz")
	if s := warcio(t, path); len(s.Errors) > 0 {
		t.Fatalf("warcio %v", s.Errors)
	}
	rv := recordOf(readWARCFile(t, path), "revisit", u)
	if rv == nil || rv.Header.Get("WARC-Profile") != "http://netpreserve.org/warc/1.1/revisit/server-not-modified" ||
		rv.Header.Get("WARC-Payload-Digest") != "" || rv.Header.Get("WARC-Refers-To-Date") != t0.Format(time.RFC3339) {
		t.Fatalf("the 304's record: %+v", rv)
	}
	if ids := waczRecordTypes(t, filepath.Join(out, "corpus.wacz")); ids[rv.Header.Get("WARC-Refers-To")] != "response" {
		t.Errorf("the WACZ lacks the response the 304 confirms (%s)", rv.Header.Get("WARC-Refers-To"))
	}
}

// waczRecordTypes reads the WARC files of a WACZ: the type of each record
// by ID.
func waczRecordTypes(t *testing.T, path string) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for name, b := range readZip(t, path) {
		if filepath.Ext(name) != ".gz" {
			continue
		}
		recs, err := ReadWARC(bytes.NewReader(b), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			ids[r.Header.Get("WARC-Record-ID")] = r.Type()
		}
	}
	return ids
}
