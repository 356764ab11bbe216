package export

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/internal/warciotest"
	"github.com/gleaner/gleaner/netguard"
	"github.com/gleaner/gleaner/store"
)

// The article a script builds on the captured page, from JSON.
const capturedArticle = "The harbour cranes turned again after eleven years of silence, the port master said on Monday. Dockers who had left for the city came back to watch the first ship unload."

// capturedPage is a windows-1252 page whose body its script fills.
var capturedPage = []byte("<!DOCTYPE html><html><head><meta charset=\"windows-1252\"><title>Gr\xfc\xdfe aus M\xfcnchen</title>" +
	"<link rel=\"stylesheet\" href=\"/style.css\"><script src=\"/app.js\"></script></head>" +
	"<body><h1>Gr\xfc\xdfe aus M\xfcnchen</h1><article id=\"story\"></article></body></html>")

// servedLog is the fixture server's own record of what it sent.
type servedLog struct {
	mu   sync.Mutex
	sent map[string][]byte // by path
}

type logWriter struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (w *logWriter) Write(b []byte) (int, error) {
	w.buf.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *logWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// captureServer serves a script-made article reached by a redirect, with
// its stylesheet, script and JSON (chunked), logging every body it sends.
func captureServer(t *testing.T) (*httptest.Server, *servedLog) {
	log := &servedLog{sent: map[string][]byte{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/article", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=windows-1252")
		w.Write(capturedPage)
	})
	mux.HandleFunc("/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		w.Write([]byte("article { font-family: serif; }"))
	})
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		w.Write([]byte(`fetch("/story.json").then(r => r.json()).then(d => { document.getElementById("story").textContent = d.text; });`))
	})
	mux.HandleFunc("/story.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"text":"`))
		w.(http.Flusher).Flush() // chunked
		w.Write([]byte(capturedArticle + `"}`))
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lw := &logWriter{ResponseWriter: w}
		mux.ServeHTTP(lw, r)
		log.mu.Lock()
		log.sent[r.URL.Path] = lw.buf.Bytes()
		log.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

// capturedStore renders the article with recording on and stores it, as
// a crawl does, with its extraction.
func capturedStore(t *testing.T, srv *httptest.Server) (store.Store, *browser.Page) {
	t.Helper()
	if _, err := browser.FindChromium(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	r, err := browser.New(browser.Options{Tabs: 1, PageTimeout: 20 * time.Second, Guard: loopbackGuard, Record: browser.RecordOptions{On: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	p, err := r.Fetch(ctx, srv.URL+"/old")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := capture.ToStore(p.URL, "crawl:capture", store.SiteFromDomain, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.PutPages(ctx, []*store.Page{sp}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutExtractions(ctx, []store.Extraction{{PageID: sp.ID, Title: "Gr\u00fc\u00dfe aus M\u00fcnchen", Body: capturedArticle}}); err != nil {
		t.Fatal(err)
	}
	return st, p
}

// TestCapturedPageArchived renders a script-made windows-1252 article
// with recording on, stores it, exports it as WARC and WACZ, and has
// warcio read both: every response the server sent is in the archive with
// the bytes the server logged as sent, every request is recorded, and all
// digests hold.
func TestCapturedPageArchived(t *testing.T) {
	srv, log := captureServer(t)
	st, _ := capturedStore(t, srv)
	out := t.TempDir()
	_, err := Corpus(context.Background(), st, nil, CorpusOptions{Formats: []string{"warc", "wacz"}, Out: out,
		Dataset: "crawl:capture", WACZ: WACZOptions{Text: true}})
	if err != nil {
		t.Fatal(err)
	}
	s := warcio(t, filepath.Join(out, "corpus.warc.gz"))
	identical := checkAgainstServer(t, s, srv.URL, log)
	if s.Types["request"] != s.Types["response"]+s.Types["revisit"] {
		t.Errorf("%d requests for %d responses", s.Types["request"], s.Types["response"]+s.Types["revisit"])
	}
	t.Logf("payloads byte-identical to what the server sent: %d of %d", identical, len(log.sent))
	files := readZip(t, filepath.Join(out, "corpus.wacz"))
	p := filepath.Join(t.TempDir(), "data.warc.gz")
	os.WriteFile(p, files["archive/data-00000.warc.gz"], 0o644)
	checkAgainstServer(t, warcio(t, p), srv.URL, log)
	if !bytes.Contains(files["pages/pages.jsonl"], []byte(`"url":"`+srv.URL+`/old"`)) || !bytes.Contains(files["pages/pages.jsonl"], []byte("harbour cranes")) {
		t.Errorf("pages.jsonl %s", files["pages/pages.jsonl"])
	}
}

// checkAgainstServer compares every body the server logged with the
// payload warcio read for its URL, and returns how many are identical.
func checkAgainstServer(t *testing.T, s warciotest.Summary, base string, log *servedLog) int {
	t.Helper()
	got := map[string]string{}
	for _, r := range s.Responses {
		if r.Type == "response" {
			got[r.URL] = r.SHA256
		}
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	paths := make([]string, 0, len(log.sent))
	for p := range log.sent {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	same := 0
	for _, path := range paths {
		sum := sha256.Sum256(log.sent[path])
		if got[base+path] == hex.EncodeToString(sum[:]) {
			same++
		} else {
			t.Errorf("%s: the archive's payload (sha256 %q) is not what the server sent (%x)", path, got[base+path], sum)
		}
	}
	if len(paths) < 5 {
		t.Errorf("the server sent only %v", paths)
	}
	return same
}

// loopbackGuard lets the tests' renderers and fetchers reach the test
// servers on 127.0.0.1, and nothing else there.
var loopbackGuard = netguard.Policy{Allowed: []string{"127.0.0.1", "localhost"}}
