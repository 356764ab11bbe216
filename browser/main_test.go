package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser/chromeproc"
	"github.com/gleaner/gleaner/netguard"
)

// The tests share one renderer (one Chromium) where they can, to keep the
// suite fast on small machines.
var (
	sharedOnce sync.Once
	shared     *Renderer
	sharedErr  error
	openMu     sync.Mutex
	opened     []*Renderer
)

func TestMain(m *testing.M) {
	if os.Getenv("GLEANER_BROWSER_HELPER") != "" {
		helperMain()
		return
	}
	code := m.Run()
	openMu.Lock()
	for _, r := range opened {
		r.Close()
	}
	openMu.Unlock()
	// No Chromium of this test binary may survive it.
	if left := ownChromiums(); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: Chromium processes survive the tests: %v\n", left)
		code = 1
	}
	os.Exit(code)
}

// ownChromiums lists the processes using a user data directory of this
// test process.
func ownChromiums() []int {
	prefix := "--user-data-dir=" + os.TempDir() + "/" + chromeproc.DirPrefix + strconv.Itoa(os.Getpid()) + "-"
	return chromeproc.ProcsWithArg(func(arg string) bool { return strings.HasPrefix(arg, prefix) })
}

// loopback is the guard of the tests whose pages are served on loopback:
// it allows loopback, where a renderer made of zero options would refuse it.
var loopback = netguard.Policy{Allowed: []string{"127.0.0.1", "localhost"}}

// guardPolicy is a guard that allows the host:port of each server, and
// no other address on loopback.
func guardPolicy(srvs ...*httptest.Server) netguard.Policy {
	var p netguard.Policy
	for _, s := range srvs {
		p.Allowed = append(p.Allowed, s.Listener.Addr().String())
	}
	return p
}

// needChromium skips the test when no Chromium is installed (outside CI).
func needChromium(t testing.TB) {
	t.Helper()
	if _, err := FindChromium(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have Chromium: %v", err)
		}
		t.Skip(err)
	}
}

// newRenderer returns a renderer closed at the end of the test binary.
func newRenderer(t testing.TB, o Options) *Renderer {
	t.Helper()
	needChromium(t)
	if o.Logf == nil {
		o.Logf = t.Logf
	}
	if !o.Unguarded && o.Dial == nil && o.Guard.Allowed == nil {
		// The tests' pages are served on loopback; the guard and its
		// proxy stay on, as for the pages of the web.
		o.Guard = loopback
	}
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	openMu.Lock()
	opened = append(opened, r)
	openMu.Unlock()
	return r
}

// sharedRenderer is the renderer most tests use.
func sharedRenderer(t testing.TB) *Renderer {
	t.Helper()
	needChromium(t)
	sharedOnce.Do(func() {
		shared, sharedErr = New(Options{Tabs: 2, PageTimeout: 20 * time.Second, Guard: loopback})
		if sharedErr == nil {
			openMu.Lock()
			opened = append(opened, shared)
			openMu.Unlock()
		}
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

// slowHits counts the requests of /slow, so crash tests strike mid-page.
var slowHits atomic.Int64

// whenSlowServed runs f 300ms after the next request of /slow.
func whenSlowServed(f func()) {
	n := slowHits.Load()
	go func() {
		for slowHits.Load() == n {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
		f()
	}()
}

// testServer serves testdata/ and a few dynamic endpoints on 127.0.0.1.
func testServer(t testing.TB) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/data/items", func(w http.ResponseWriter, r *http.Request) {
		from, _ := strconv.Atoi(r.URL.Query().Get("from"))
		time.Sleep(50 * time.Millisecond)
		var items []string
		for i := from; i < from+10 && i < 60; i++ {
			items = append(items, strconv.Itoa(i))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "[%s]", strings.Join(items, ","))
	})
	mux.HandleFunc("/r1", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/r2", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/r2", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/inject.html", http.StatusFound)
	})
	mux.HandleFunc("/never", func(w http.ResponseWriter, r *http.Request) {
		// A page whose HTML never ends: a chunk every 200ms until the client
		// goes away.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!DOCTYPE html><html><head><title>Never ending</title></head><body><h1>Live</h1>")
		for i := 0; ; i++ {
			fmt.Fprintf(w, "<p class=\"tick\">tick %d</p>\n", i)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		// The body arrives by script from /slow.json, which takes 1.5s.
		slowHits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Slow</title></head><body><div id="b"></div>
<script>fetch('/slow.json').then(r => r.json()).then(d => { document.getElementById('b').innerHTML = '<p>' + d.text + '</p>'; });</script></body></html>`)
	})
	mux.HandleFunc("/slow.json", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(1500 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"text": "Slow body finally here."}`)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		w.Write([]byte("<html><head><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e</p></body></html>"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>")
		for i := 0; i < 10000; i++ {
			fmt.Fprint(w, "<p>0123456789 abcdefghij</p>")
		}
	})
	mux.HandleFunc("/pixel.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	})
	mux.HandleFunc("/data.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte{0, 1, 2})
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// helperMain starts a renderer, renders one page so Chromium runs, prints
// the browser's pid and user data directory, and waits to be killed.
func helperMain() {
	r, err := New(Options{Tabs: 1, PageTimeout: 10 * time.Second, Guard: loopback})
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	url := os.Getenv("GLEANER_BROWSER_HELPER")
	if _, err := r.Fetch(context.Background(), url); err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	r.mu.Lock()
	fmt.Printf("READY %d %s\n", r.cur.PID, r.cur.Dir)
	r.mu.Unlock()
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM)
	<-ch
}
