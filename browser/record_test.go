package browser

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// sentLog is a test server's own record of the bodies it sent, by path.
type sentLog struct {
	mu   sync.Mutex
	sent map[string][]byte
	hits map[string]int
}

// teeWriter is a ResponseWriter that logs the body bytes written.
type teeWriter struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (w *teeWriter) Write(b []byte) (int, error) {
	w.buf.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// windows1252Page is an HTML page in windows-1252 (ä and ü are single
// bytes) whose script loads its article from JSON.
var windows1252Page = []byte("<!DOCTYPE html><html><head><meta charset=\"windows-1252\"><title>M\xfcnchen</title>" +
	"<link rel=\"stylesheet\" href=\"/style.css\"><script src=\"/app.js\"></script></head><body><h1>Gr\xfc\xdfe aus M\xfcnchen</h1><div id=\"body\"></div></body></html>")

const recordAppJS = `fetch("/log", {method: "POST", body: "seen=1"}); fetch("/data.json").then(r => r.json()).then(d => { document.getElementById("body").textContent = d.text; });`

const recordCSS = "h1 { color: rgb(1, 2, 3); }"

const recordJSON = `{"text":"The harbour cranes turned again after eleven years, said the port's master."}`

// recordServer serves a script-made page (HTML, script, JSON), a redirect
// to it, a chunked response and a gzip one, and logs what it sent.
func recordServer(t *testing.T) (*httptest.Server, *sentLog) {
	return recordServerTLS(t, false)
}

// recordServerTLS is recordServer, over TLS when asked.
func recordServerTLS(t *testing.T, overTLS bool) (*httptest.Server, *sentLog) {
	log := &sentLog{sent: map[string][]byte{}, hits: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=windows-1252")
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret"})
		w.Write(windows1252Page)
	})
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		w.Header().Set("X-Served-By", "record-test")
		w.Write([]byte(recordAppJS))
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		// Chunked: written in two flushed parts, without a length.
		w.Write([]byte(recordJSON[:20]))
		w.(http.Flusher).Flush()
		w.Write([]byte(recordJSON[20:]))
	})
	mux.HandleFunc("/style.css", func(w http.ResponseWriter, r *http.Request) {
		// Compressed when asked: the record keeps the bytes as sent.
		w.Header().Set("Content-Type", "text/css")
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Write([]byte(recordCSS))
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zw.Write([]byte(recordCSS))
		zw.Close()
	})
	mux.HandleFunc("/log", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/page", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/zipped", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zw.Write([]byte("<html><body><p>zipped page</p></body></html>"))
		zw.Close()
	})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &teeWriter{ResponseWriter: w}
		mux.ServeHTTP(tw, r)
		log.mu.Lock()
		log.sent[r.URL.Path] = tw.buf.Bytes()
		log.hits[r.URL.Path]++
		log.mu.Unlock()
	}))
	if overTLS {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, log
}

func (l *sentLog) body(path string) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.sent[path]
	return b, ok
}

// exchangeOf returns the exchange of url in ex.
func exchangeOf(ex []Exchange, url string) *Exchange {
	for i := range ex {
		if ex[i].URL == url {
			return &ex[i]
		}
	}
	return nil
}

// checkServed checks that every path the server sent is recorded with the
// bytes it sent, its request, and the connected address.
func checkServed(t *testing.T, srv *httptest.Server, log *sentLog, p *Page, paths []string) {
	t.Helper()
	for _, path := range paths {
		sent, ok := log.body(path)
		if !ok {
			t.Fatalf("the server never served %s", path)
		}
		ex := exchangeOf(p.Exchanges, srv.URL+path)
		if ex == nil {
			t.Errorf("%s: no exchange recorded (have %d)", path, len(p.Exchanges))
			continue
		}
		if !bytes.Equal(ex.Payload, sent) {
			t.Errorf("%s: payload %q, the server sent %q", path, ex.Payload, sent)
		}
		if !bytes.HasPrefix(ex.Request, []byte("GET "+path+" HTTP/1.1\r\n")) || !bytes.HasSuffix(ex.Request, []byte("\r\n\r\n")) {
			t.Errorf("%s: request %q", path, ex.Request)
		}
		if ex.IP != "127.0.0.1" {
			t.Errorf("%s: IP %q", path, ex.IP)
		}
		if !bytes.HasPrefix(ex.Response, []byte("HTTP/1.1 ")) || !bytes.HasSuffix(ex.Response, []byte("\r\n\r\n")) {
			t.Errorf("%s: response head %q", path, ex.Response)
		}
	}
}

// TestRecordRendered renders a script-made windows-1252 page reached by a
// redirect with recording on: every response the browser received is
// recorded with the bytes the server itself logged as sent (the page stays
// windows-1252, the chunked JSON whole), with its request, the address
// connected to, and no cookie value.
func TestRecordRendered(t *testing.T) {
	srv, log := recordServer(t)
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second, Record: RecordOptions{On: true}})
	p := mustFetch(t, r, srv.URL+"/old")
	if !strings.Contains(p.HTML, "harbour cranes") {
		t.Fatalf("the script did not run: %s", p.HTML)
	}
	checkServed(t, srv, log, p, []string{"/old", "/page", "/app.js", "/data.json", "/style.css"})
	if css := exchangeOf(p.Exchanges, srv.URL+"/style.css"); css == nil || !bytes.Contains(css.Response, []byte("Content-Encoding: gzip\r\n")) || css.Truncated {
		t.Errorf("the gzip stylesheet is not kept as sent: %+v", css)
	}
	if !strings.Contains(p.HTML, "M\u00fcnchen") {
		t.Errorf("the page was not decoded for the browser: %s", p.HTML)
	}
	page := exchangeOf(p.Exchanges, srv.URL+"/page")
	if page == nil {
		t.Fatal("no page exchange")
	}
	if !bytes.Contains(page.Response, []byte("Set-Cookie: (withheld)\r\n")) || bytes.Contains(page.Response, []byte("s3cret")) {
		t.Errorf("cookie not withheld: %q", page.Response)
	}
	cookies := 0
	for _, x := range p.Exchanges {
		if bytes.Contains(x.Request, []byte("s3cret")) {
			t.Errorf("%s: the request's cookie is not withheld: %q", x.URL, x.Request)
		}
		if bytes.Contains(x.Request, []byte("\r\nCookie: (withheld)\r\n")) {
			cookies++
		}
	}
	if cookies == 0 {
		t.Error("no request sent the cookie back: the test does not test withholding it")
	}
	if post := exchangeOf(p.Exchanges, srv.URL+"/log"); post == nil || post.Method != "POST" || string(post.RequestBody) != "seen=1" ||
		!bytes.HasPrefix(post.Request, []byte("POST /log HTTP/1.1\r\n")) {
		t.Errorf("POST not recorded with its body: %+v", post)
	}
	if js := exchangeOf(p.Exchanges, srv.URL+"/app.js"); js == nil || !bytes.Contains(js.Response, []byte("X-Served-By: record-test\r\n")) {
		t.Errorf("the script's headers are not as served: %+v", js)
	}
	if data := exchangeOf(p.Exchanges, srv.URL+"/data.json"); data != nil && !bytes.Contains(data.Response, []byte(fmt.Sprintf("Content-Length: %d\r\n", len(recordJSON)))) {
		t.Errorf("chunked body recorded without its length: %q", data.Response)
	}
	for i := 1; i < len(p.Exchanges); i++ {
		if p.Exchanges[i].At.Before(p.Exchanges[i-1].At) {
			t.Errorf("exchanges out of order")
		}
	}
}

// TestRecordHTTPS records the same page served over TLS: the proxy ends
// the browser's TLS with its own certificate (accepted by its key), makes
// each request itself verifying the server, and records the exchanges as
// served, connected address included.
func TestRecordHTTPS(t *testing.T) {
	srv, log := recordServerTLS(t, true)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second, Record: RecordOptions{On: true, RootCAs: pool}})
	p := mustFetch(t, r, srv.URL+"/old")
	if !strings.Contains(p.HTML, "harbour cranes") || !strings.HasPrefix(p.FinalURL, "https://") {
		t.Fatalf("the script did not run over TLS: %s %s", p.FinalURL, p.HTML)
	}
	checkServed(t, srv, log, p, []string{"/old", "/page", "/app.js", "/data.json", "/style.css"})
	if strings.Contains(strings.Join(p.Notes, "\n"), "not recorded") {
		t.Errorf("notes %q", p.Notes)
	}
}

// TestRecordHTTPSUntrusted checks that the proxy still verifies the
// server: a certificate it does not trust fails the page, as it would in
// the browser.
func TestRecordHTTPSUntrusted(t *testing.T) {
	srv, _ := recordServerTLS(t, true)
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 10 * time.Second, Record: RecordOptions{On: true}})
	p, err := r.Fetch(context.Background(), srv.URL+"/page")
	if err == nil && p.Status == http.StatusOK && strings.Contains(p.HTML, "M\u00fcnchen") {
		t.Fatalf("a page of an untrusted server was rendered: status %d", p.Status)
	}
}

// TestRecordOffByDefault checks that a renderer without Record keeps no
// exchange.
func TestRecordOffByDefault(t *testing.T) {
	srv, _ := recordServer(t)
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second})
	if p := mustFetch(t, r, srv.URL+"/page"); len(p.Exchanges) != 0 {
		t.Errorf("%d exchanges recorded without Record", len(p.Exchanges))
	}
}

// TestRecordPlain records the plain fetcher's exchanges, redirect hop
// included, and a gzip body as sent (the page itself decoded).
func TestRecordPlain(t *testing.T) {
	srv, log := recordServer(t)
	f := &HTTPFetcher{Guard: loopback, Record: RecordOptions{On: true, Secrets: true}}
	p := mustFetch(t, f, srv.URL+"/old")
	checkServed(t, srv, log, p, []string{"/old", "/page"})
	if page := exchangeOf(p.Exchanges, srv.URL+"/page"); page == nil || !bytes.Contains(page.Response, []byte("Set-Cookie: session=s3cret\r\n")) {
		t.Errorf("Secrets: the cookie is not kept: %+v", page)
	}
	z := mustFetch(t, f, srv.URL+"/zipped")
	checkServed(t, srv, log, z, []string{"/zipped"})
	if len(z.Exchanges) != 1 || !bytes.Contains(z.Exchanges[0].Response, []byte("Content-Encoding: gzip\r\n")) ||
		z.Exchanges[0].Truncated || !strings.Contains(z.HTML, "zipped page") {
		t.Errorf("gzip exchange: %+v, page %q", z.Exchanges, z.HTML)
	}
}

// TestRecordBounds cuts a body over the record bound (Truncated) and
// leaves out what passes the page bound.
func TestRecordBounds(t *testing.T) {
	srv, _ := recordServer(t)
	f := &HTTPFetcher{Guard: loopback, Record: RecordOptions{On: true, MaxRecordBytes: 100}}
	p := mustFetch(t, f, srv.URL+"/page")
	if len(p.Exchanges) != 1 || !p.Exchanges[0].Truncated || len(p.Exchanges[0].Payload) != 100 {
		t.Fatalf("record bound: %+v", p.Exchanges)
	}
	f = &HTTPFetcher{Guard: loopback, Record: RecordOptions{On: true, MaxPageBytes: 100}}
	p = mustFetch(t, f, srv.URL+"/old")
	if len(p.Exchanges) != 0 || !strings.Contains(strings.Join(p.Notes, "\n"), "over the page bound") {
		t.Errorf("page bound: %d exchanges, notes %q", len(p.Exchanges), p.Notes)
	}
	one := mustFetch(t, &HTTPFetcher{Guard: loopback, Record: RecordOptions{On: true}}, srv.URL+"/page").Exchanges[0].Size()
	f = &HTTPFetcher{Guard: loopback, Record: RecordOptions{On: true, MaxTotalBytes: one + one/2}}
	if p = mustFetch(t, f, srv.URL+"/page"); len(p.Exchanges) != 1 {
		t.Fatalf("total bound: the first page has %d exchanges", len(p.Exchanges))
	}
	p = mustFetch(t, f, srv.URL+"/page")
	if len(p.Exchanges) != 0 || !strings.Contains(strings.Join(p.Notes, "\n"), "recorded bytes was reached") {
		t.Errorf("total bound: %d exchanges, notes %q", len(p.Exchanges), p.Notes)
	}
}

// mediaPNG is a 1×1 PNG image.
var mediaPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")

// TestRecordMedia renders a page showing an image with recording on: by
// default the image is neither downloaded nor kept (a text crawl's
// default); with RecordOptions.Media it is downloaded and kept as served.
func TestRecordMedia(t *testing.T) {
	var mu sync.Mutex
	served := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		served[r.URL.Path]++
		mu.Unlock()
		if r.URL.Path == "/pic.png" {
			w.Header().Set("Content-Type", "image/png")
			w.Write(mediaPNG)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<html><body><h1>The harbour</h1><img src="/pic.png" width="1" height="1"><p>Cranes at dawn.</p></body></html>`))
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name string
		rec  RecordOptions
		kept bool
	}{
		{"default", RecordOptions{On: true}, false},
		{"media", RecordOptions{On: true, Media: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			clear(served)
			mu.Unlock()
			r := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second, Record: tc.rec})
			defer r.Close()
			p := mustFetch(t, r, srv.URL+"/page")
			pic := exchangeOf(p.Exchanges, srv.URL+"/pic.png")
			if kept := pic != nil; kept != tc.kept {
				t.Fatalf("image kept %v, want %v (exchanges %d)", kept, tc.kept, len(p.Exchanges))
			}
			if pic != nil && (!bytes.Equal(pic.Payload, mediaPNG) || !bytes.Contains(pic.Response, []byte("Content-Type: image/png\r\n"))) {
				t.Errorf("image not kept as served: %q %q", pic.Response, pic.Payload)
			}
			mu.Lock()
			defer mu.Unlock()
			if tc.kept && served["/pic.png"] != 1 {
				t.Errorf("image served %d times", served["/pic.png"])
			}
		})
	}
}
