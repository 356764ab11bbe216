package monitor

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/store"
)

// changingSite serves on loopback a sitemap of two articles, both listed
// as modified every round; "changes" has a new text each round, "stays"
// keeps its ETag and answers a conditional GET with 304. It logs the
// bodies it sent per path, in order.
type changingSite struct {
	round atomic.Int64
	mu    sync.Mutex
	sent  map[string][][]byte
}

func (s *changingSite) body(path string) []byte {
	v := 0
	if path == "/changes" {
		v = int(s.round.Load())
	}
	words := strings.Repeat(fmt.Sprintf("The council met again on %s and the vote moved the budget, version %d. ", path, v), 40)
	return []byte(fmt.Sprintf(`<!doctype html><html><head><title>Story %s</title><meta property="og:type" content="article"></head>`+
		`<body><article><h1>Story %s v%d</h1><p>%s</p></article></body></html>`, path, path, v, words))
}

func (s *changingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/sitemap.xml":
		mod := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(s.round.Load()) * time.Hour)
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range []string{"/changes", "/stays"} {
			fmt.Fprintf(w, `<url><loc>http://%s%s</loc><lastmod>%s</lastmod></url>`, r.Host, p, mod.Format(time.RFC3339))
		}
		fmt.Fprint(w, `</urlset>`)
	case "/changes", "/stays":
		b := s.body(r.URL.Path)
		etag := fmt.Sprintf(`"%x"`, store.ContentHash(b)[:16])
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		s.mu.Lock()
		s.sent[r.URL.Path] = append(s.sent[r.URL.Path], b)
		s.mu.Unlock()
		w.Write(b)
	default:
		http.NotFound(w, r)
	}
}

// TestRecheckCaptured monitors with --record --updates a site whose one
// article changes and whose other answers 304: the changed page is
// fetched again through the monitor's fetcher and stored as a capture of
// its own (a new page: the earlier one kept as fetched, the document on
// the new one, its HTML and exchanges what the server sent), the 304 as
// a capture holding the answer; Follow archives the new version and
// writes the 304 as a revisit (server-not-modified) of the capture it
// confirms. Before, the changed page was stored under its old ID with
// the conditional GET's HTML and the first fetch's exchanges, and the
// 304 was not kept.
func TestRecheckCaptured(t *testing.T) {
	site := &changingSite{sent: map[string][][]byte{}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	cfg := Config{Name: "cap", Sites: []string{srv.URL + "/sitemap.xml"}, Updates: true, LearnAt: -1,
		Record: browser.RecordOptions{On: true}}
	host := strings.TrimPrefix(srv.URL, "http://")
	cfg.Guard.Allowed = []string{host}
	f, err := browser.NewFetcher(cfg.Guard, false, browser.Options{Record: cfg.Record, MaxHTMLBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg.Fetcher = f
	ctx := context.Background()
	db := openDB(t, filepath.Join(t.TempDir(), "m.db"))
	m, err := Open(ctx, db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 2; r++ {
		site.round.Store(int64(r))
		rep, err := m.Round(ctx)
		if err != nil || rep.Errors > 0 {
			t.Fatalf("round %d: %+v, %v", r+1, rep, err)
		}
	}
	caps := checkCaptures(t, db, m, site)
	dir := t.TempDir()
	followCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- export.Follow(followCtx, db, export.FollowOptions{Dir: dir, Dataset: Dataset("cap")}) }()
	time.Sleep(200 * time.Millisecond)
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	checkFollowed(t, dir, srv.URL, caps)
}

// captures are the store pages of the test's two URLs, in ID order.
type captures map[string][]*store.Page

// checkCaptures checks the store after two rounds and returns the
// captures by path.
func checkCaptures(t *testing.T, db *store.DB, m *Monitor, site *changingSite) captures {
	t.Helper()
	ctx := context.Background()
	caps := listCaptures(t, db, m)
	round2, err := m.Captures(ctx, Selection{Round: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(caps["/changes"]) != 2 || len(caps["/stays"]) != 2 || len(round2) != 2 {
		t.Fatalf("captures: %d of /changes, %d of /stays, %d in round 2; want 2, 2, 2", len(caps["/changes"]), len(caps["/stays"]), len(round2))
	}
	// The first body sent, and the last (the fetcher's, after the
	// conditional GET's).
	sent := site.sent["/changes"]
	for i, p := range caps["/changes"] {
		checkCaptureBytes(t, db, p, sent[i*(len(sent)-1)])
	}
	changed := caps["/changes"][1]
	if _, ok := round2[changed.ID]; !ok || round2[changed.ID].PageID != changed.ID {
		t.Errorf("round 2's captures %v: the new version %d not there, or not the document's page", round2, changed.ID)
	}
	confirmed := caps["/stays"][1]
	xs, err := db.Exchanges(ctx, confirmed.ID)
	if err != nil || confirmed.Status != http.StatusNotModified || len(xs) != 1 || !bytes.HasPrefix(xs[0].Response, []byte("HTTP/1.1 304 ")) {
		t.Errorf("the 304 capture: status %d, %d exchanges, %v", confirmed.Status, len(xs), err)
	}
	return caps
}

// listCaptures lists the monitor's pages by path, each a capture of a
// document.
func listCaptures(t *testing.T, db *store.DB, m *Monitor) captures {
	t.Helper()
	ctx := context.Background()
	all, err := m.Captures(ctx, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := db.Pages(ctx, store.PageQuery{Dataset: Dataset("cap"), WithContent: true})
	if err != nil {
		t.Fatal(err)
	}
	caps := captures{}
	for _, p := range ps {
		if _, ok := all[p.ID]; !ok {
			t.Errorf("page %d (%s) is no document's capture", p.ID, p.Key())
		}
		path := p.URL[strings.LastIndex(p.URL, "/"):]
		caps[path] = append(caps[path], p)
	}
	return caps
}

// checkCaptureBytes checks that page p holds the body the server sent,
// as its HTML and as its document exchange's payload.
func checkCaptureBytes(t *testing.T, db *store.DB, p *store.Page, want []byte) {
	t.Helper()
	xs, err := db.Exchanges(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p.HTML(), want) {
		t.Errorf("capture %d (%s): HTML is not what the server sent", p.ID, p.Key())
	}
	if len(xs) == 0 || xs[0].URL != p.URL || !bytes.Equal(xs[0].Payload, want) {
		t.Errorf("capture %d (%s): %d exchanges, the document's payload not what the server sent", p.ID, p.Key(), len(xs))
	}
}

// checkFollowed checks what Follow wrote: both versions of the changed
// page as responses, and the 304 as a server-not-modified revisit of the
// response of the capture it confirms.
func checkFollowed(t *testing.T, dir, base string, caps captures) {
	t.Helper()
	byID, changed, confirmed := readFollowed(t, dir, base+"/changes")
	if len(changed) != 2 || bytes.Equal(changed[0].Payload(), changed[1].Payload()) {
		t.Errorf("%d responses of the changed page archived, want its 2 versions", len(changed))
	}
	if len(confirmed) != 1 || confirmed[0].Header.Get("WARC-Truncated") != "" || confirmed[0].Header.Get("WARC-Payload-Digest") != "" {
		t.Fatalf("revisits %v, want the 304 as one server-not-modified, whole, without payload digest", confirmed)
	}
	ref := byID[confirmed[0].Header.Get("WARC-Refers-To")]
	if ref.Type() != "response" || ref.TargetURI() != base+"/stays" || !strings.Contains(string(ref.Payload()), "Story /stays v0") {
		t.Errorf("the 304 refers to %q, not the first capture of /stays", confirmed[0].Header.Get("WARC-Refers-To"))
	}
}

// readFollowed reads the WARC files in dir: the records by ID, the
// responses of changedURL, and the server-not-modified revisits (the
// conditional GET of the changed page, kept after its fetch, is an
// identical-payload one).
func readFollowed(t *testing.T, dir, changedURL string) (map[string]export.Record, []export.Record, []export.Record) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	byID := map[string]export.Record{}
	var changed, confirmed []export.Record
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := export.ReadWARC(bytes.NewReader(b), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			byID[r.Header.Get("WARC-Record-ID")] = r
			switch {
			case r.Type() == "response" && r.TargetURI() == changedURL:
				changed = append(changed, r)
			case r.Type() == "revisit" && r.Header.Get("WARC-Profile") == "http://netpreserve.org/warc/1.1/revisit/server-not-modified":
				confirmed = append(confirmed, r)
			}
		}
	}
	return byID, changed, confirmed
}
