package export

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/eval"
)

// wabacSW is wabac.js's service worker, installed by scripts/setup.sh.
const wabacSW = "testdata/npm/node_modules/@webrecorder/wabac/dist/sw.js"

// TestReplayOffline replays the WACZ of a captured script-made article in
// a real replay engine: wabac.js (the service worker of ReplayWeb.page) in
// headless Chromium, the origin server shut down and every host name but
// 127.0.0.1 unresolvable. The replayed page runs its archived script,
// which fetches its archived JSON: its text must be the live render's
// (shingle F1 ≥ 0.99) and its windows-1252 title decoded right.
func TestReplayOffline(t *testing.T) {
	if _, err := os.Stat(wabacSW); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have wabac.js (scripts/setup.sh): %v", err)
		}
		t.Skip("wabac.js missing: run scripts/setup.sh")
	}
	srv, _ := captureServer(t)
	st, _ := capturedStore(t, srv)
	out := t.TempDir()
	if _, err := Corpus(context.Background(), st, nil, CorpusOptions{Formats: []string{"wacz"}, Out: out, Dataset: "crawl:capture"}); err != nil {
		t.Fatal(err)
	}
	ctx := headless(t)
	live := pageText(t, ctx, srv.URL+"/old", "#story")
	origin := srv.URL
	srv.Close() // the network is cut: only the archive answers

	replay := replayServer(t, filepath.Join(out, "corpus.wacz"))
	loadCollection(t, ctx, replay.URL)
	replayed := replayInFrame(t, ctx, replay.URL+"/replay/w/test/mp_/"+origin+"/old",
		`document.querySelector("#story") && document.querySelector("#story").textContent.length > 0`)
	title := eval1(t, ctx, `document.querySelector("iframe").contentDocument.title`)
	c := eval.ShingleCounts(live, replayed)
	f1 := 2 * c.TP / max(2*c.TP+c.FP+c.FN, 1e-9)
	t.Logf("replayed offline by wabac.js: shingle F1 %.3f against the live render (%d and %d characters), title %q", f1, len(live), len(replayed), title)
	if f1 < 0.99 || !strings.Contains(replayed, capturedArticle) {
		t.Errorf("replayed text %q\nlive %q", replayed, live)
	}
	if title != "Gr\u00fc\u00dfe aus M\u00fcnchen" {
		t.Errorf("replayed title %q: the windows-1252 page was not replayed as served", title)
	}
}

// loadCollection has wabac.js load the package the replay server at base
// serves, as collection "test".
func loadCollection(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(base+"/loader.html"))
	if err := waitFor(ctx, `window.collAdded || window.collError`, 60*time.Second); err != nil {
		t.Fatalf("wabac did not load the package: %v; steps %s", err, eval1(t, ctx, `JSON.stringify(window.steps)`))
	}
	if e := eval1(t, ctx, `window.collError`); e != "" {
		t.Fatalf("wabac: %s", e)
	}
}

// replayInFrame replays url in a frame of the loader page, as
// ReplayWeb.page does (a top-level mp_ page is sent to the replay UI,
// which is not served), until the condition ready holds in the frame's
// document, and returns the frame's text.
func replayInFrame(t *testing.T, ctx context.Context, url, ready string) string {
	t.Helper()
	doc := `document.querySelector("iframe").contentDocument`
	run(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => { document.querySelectorAll("iframe").forEach(f => f.remove()); `+
		`const f = document.createElement("iframe"); f.src = `+jsString(url)+`; document.body.append(f); })()`))
	cond := `((document) => Boolean(document) && (` + ready + `))(` + doc + `)`
	if err := waitFor(ctx, cond, 60*time.Second); err != nil {
		t.Fatalf("%s: the replayed page never got ready: %v (frame: %s)", url, err, eval1(t, ctx, `String(`+doc+` && `+doc+`.documentElement.outerHTML.slice(0, 2000))`))
	}
	return settledText(t, ctx, doc)
}

// settledText returns the innerText of the document doc (a JavaScript
// expression) once it has not changed for half a second (10 s at most):
// a page's scripts go on after its body shows (herald fetches its inline
// ad once the paragraphs are in), and a snapshot taken at once races them.
func settledText(t *testing.T, ctx context.Context, doc string) string {
	t.Helper()
	text, still := eval1(t, ctx, doc+`.body.innerText`), 0
	for deadline := time.Now().Add(10 * time.Second); still < 5 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		next := eval1(t, ctx, doc+`.body.innerText`)
		if next == text {
			still++
		} else {
			text, still = next, 0
		}
	}
	return text
}

// replayServer serves wabac.js's service worker (scope /replay/), the
// loader page (outside it, where wabac's own pages are not) and the
// package (with range requests, as wabac reads it).
func replayServer(t *testing.T, wacz string) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/replay/sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		http.ServeFile(w, r, wabacSW)
	})
	mux.HandleFunc("/loader.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/replay/index.html")
	})
	mux.HandleFunc("/archive.wacz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wacz+zip")
		http.ServeFile(w, r, wacz)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// headless starts a Chromium that resolves no host name but 127.0.0.1.
// With REPLAY_DEBUG set, its log (the service worker's console among it)
// goes to stderr.
func headless(t *testing.T) context.Context {
	t.Helper()
	exe, err := browser.FindChromium()
	if err != nil {
		t.Skip(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.Flag("no-sandbox", os.Geteuid() == 0),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()))
	if os.Getenv("REPLAY_DEBUG") != "" {
		opts = append(opts, chromedp.Flag("enable-logging", "stderr"), chromedp.Flag("v", "0"), chromedp.CombinedOutput(os.Stderr))
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); acancel() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func run(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func eval1(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitFor polls a JavaScript condition until it is true.
func waitFor(ctx context.Context, cond string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("Boolean("+cond+")"))
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return err
			}
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// pageText loads url and returns the page's text once the element sel has
// text.
func pageText(t *testing.T, ctx context.Context, url, sel string) string {
	t.Helper()
	run(t, ctx, chromedp.Navigate(url))
	cond := `document.querySelector(` + jsString(sel) + `) && document.querySelector(` + jsString(sel) + `).textContent.length > 0`
	if err := waitFor(ctx, cond, 30*time.Second); err != nil {
		t.Fatalf("%s: %s never filled: %v (page: %s)", url, sel, err, eval1(t, ctx, `document.documentElement.outerHTML.slice(0, 2000)`))
	}
	return eval1(t, ctx, `document.body.innerText`)
}

func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
