package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// regionServer serves pages whose body a script injects from a JSON the
// server delays 300 ms, in place of a "Loading…" spinner:
//
//   - /article also keeps a long poll open without end and loads a
//     "beacon" script the server delays 1.5 s (async: it holds the load
//     event), so the normal wait lasts until the poll is old enough to be
//     taken for one (WaitOptions.LongRequest);
//   - /bare is /article without the spinner: until the body comes, the
//     story block holds its headline alone;
//   - /late has nothing else in flight.
func regionServer(t *testing.T) *httptest.Server {
	t.Helper()
	done := make(chan struct{})
	hold := func(w http.ResponseWriter, r *http.Request, d time.Duration) bool {
		select {
		case <-time.After(d):
			return true
		case <-r.Context().Done():
		case <-done:
		}
		return false
	}
	page := func(extra, placeholder string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Story</title></head><body>
<div id="main"><h1>Headline of the story</h1><div id="content">%s</div></div>
<div id="side"><p>Most read: another story.</p></div>
<script>
fetch('/story').then(r => r.json()).then(d => {
  document.getElementById('content').innerHTML = d.paragraphs.map(p => '<p>' + p + '</p>').join('');
});
</script>%s</body></html>`, placeholder, extra)
		}
	}
	mux := http.NewServeMux()
	inFlight := `<script>fetch('/poll').catch(() => {});</script><script async src="/beacon.js"></script>`
	spinner := `<div class="spinner">Loading…</div>`
	mux.HandleFunc("/article", page(inFlight, spinner))
	mux.HandleFunc("/bare", page(inFlight, ""))
	mux.HandleFunc("/late", page("", spinner))
	mux.HandleFunc("/story", func(w http.ResponseWriter, r *http.Request) {
		if hold(w, r, 300*time.Millisecond) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"paragraphs": ["First paragraph of the injected body.", "Second paragraph of the injected body."]}`)
		}
	})
	mux.HandleFunc("/poll", func(w http.ResponseWriter, r *http.Request) {
		hold(w, r, time.Hour) // a long poll that never answers
	})
	mux.HandleFunc("/beacon.js", func(w http.ResponseWriter, r *http.Request) {
		if hold(w, r, 1500*time.Millisecond) {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, "window.beaconSent = true;")
		}
	})
	mux.HandleFunc("/river", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>River</title><style>.item{height:300px}</style></head><body>
<div id="list">%s</div>
<script>
let n = 10, busy = false;
addEventListener('scroll', () => {
  if (busy || n >= 30 || innerHeight + scrollY < document.documentElement.scrollHeight - 50) return;
  busy = true;
  fetch('/more?from=' + n).then(r => r.text()).then(t => {
    document.getElementById('list').insertAdjacentHTML('beforeend', t);
    n += 10;
    busy = false;
  });
});
fetch('/poll').catch(() => {});
</script></body></html>`, riverItems(0))
	})
	mux.HandleFunc("/more", func(w http.ResponseWriter, r *http.Request) {
		var from int
		fmt.Sscan(r.URL.Query().Get("from"), &from)
		if hold(w, r, 100*time.Millisecond) {
			fmt.Fprint(w, riverItems(from))
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // before Close: held requests end
	return srv
}

// riverItems are the ten items of /river from the from-th.
func riverItems(from int) string {
	var b strings.Builder
	for i := from; i < from+10; i++ {
		fmt.Fprintf(&b, `<div class="item"><a href="/story/%d">Story number %d of the river</a></div>`, i, i)
	}
	return b.String()
}

// TestContentRegionKeepsInfiniteList: a list page ready by its region,
// with a long poll in flight, is still scrolled: the items each scroll
// brings are waited for (not the poll), and all 30 are captured.
func TestContentRegionKeepsInfiniteList(t *testing.T) {
	srv := regionServer(t)
	p, err := sharedRenderer(t).FetchPage(context.Background(), srv.URL+"/river", PageOptions{ContentSelectors: []string{"#list"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(p.HTML, `class="item"`); n != 30 || readyNote(p) != NoteRegionReady+`"#list" settled` {
		t.Errorf("%d items of 30, readiness %q (notes %q)", n, readyNote(p), p.Notes)
	}
}

// readyNote returns the page's readiness note ("ready: ..."), "" for none.
func readyNote(p *Page) string {
	for _, n := range p.Notes {
		if strings.HasPrefix(n, "ready: ") {
			return n
		}
	}
	return ""
}

// TestContentRegionReadiness: a page with content selectors is ready as
// soon as its region has settled, although a long poll and a slow script
// are still in flight; the body the script injects is captured, not the
// spinner it replaces; a region whose text is shorter than the least
// asked for (a headline without its body) does not count. Without selectors, with selectors that match
// nothing, or with invalid ones, the page gets the normal wait and its
// body all the same.
func TestContentRegionReadiness(t *testing.T) {
	srv := regionServer(t)
	r := sharedRenderer(t)
	tests := []struct {
		name, path string
		sels       []string
		min        int    // MinRegionChars
		wantReady  string // the readiness note
		wantNotes  []string
	}{
		{"hint", "/article", []string{"#content"}, 0, NoteRegionReady + `"#content" settled`, nil},
		{"no hint", "/article", nil, 0, "", nil},
		{"region with its headline alone too short", "/bare", []string{"#main"}, 60, NoteRegionReady + `"#main" settled`, nil},
		{"hint matching nothing", "/late", []string{"article .story-body", "#nothing"}, 0, NoteRegionMissed, nil},
		{"invalid selectors", "/late", []string{"div[", "<script>alert(1)</script>", "#nothing"}, 0, NoteRegionMissed,
			[]string{`content region: invalid selector "div[" ignored`, `content region: invalid selector "<script>alert(1)</script>" ignored`}},
		{"invalid then valid", "/article", []string{"p:::x", "  ", "#content"}, 0, NoteRegionReady + `"#content" settled`,
			[]string{`content region: invalid selector "p:::x" ignored`}},
		{"too many and too long", "/late", append([]string{strings.Repeat("div > ", 200) + "p"}, strings.Split("a,b,c,d,e,f,g,h,#content", ",")...), 0, NoteRegionMissed,
			[]string{"content region: selector of 1201 bytes ignored (at most 1024)", `content region: selector "#content" ignored (at most 8 selectors)`}},
	}
	elapsed := map[string]time.Duration{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := r.FetchPage(context.Background(), srv.URL+tc.path, PageOptions{ContentSelectors: tc.sels, MinRegionChars: tc.min})
			if err != nil {
				t.Fatal(err)
			}
			elapsed[tc.name] = p.Elapsed
			text := pageText(t, p.HTML)
			if !strings.Contains(text, "First paragraph of the injected body. Second paragraph of the injected body.") || strings.Contains(text, "Loading…") {
				t.Errorf("body not captured: %q (notes %q)", text, p.Notes)
			}
			if got := readyNote(p); got != tc.wantReady {
				t.Errorf("readiness %q, want %q (notes %q)", got, tc.wantReady, p.Notes)
			}
			for _, n := range tc.wantNotes {
				if !containsString(p.Notes, n) {
					t.Errorf("note %q missing: %q", n, p.Notes)
				}
			}
			if p.Partial {
				t.Errorf("partial: %s", p.PartialReason)
			}
		})
	}
	t.Logf("elapsed: %v", elapsed)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
