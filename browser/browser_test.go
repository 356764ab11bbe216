package browser

import (
	"bufio"
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/gleaner/gleaner/browser/chromeproc"
	"github.com/gleaner/gleaner/treediff"
)

func mustFetch(t *testing.T, f Fetcher, url string) *Page {
	t.Helper()
	p, err := f.Fetch(context.Background(), url)
	if err != nil {
		t.Fatalf("fetch %s: %v", url, err)
	}
	return p
}

// The article body that inject.html loads by script.
const injectedText = "After eleven years of silence, the three harbour cranes"

func TestInjectedBodyAbsentFromPlainFetchPresentAfterRendering(t *testing.T) {
	ts := testServer(t)
	plain := mustFetch(t, &HTTPFetcher{Guard: loopback}, ts.URL+"/inject.html")
	if strings.Contains(plain.HTML, injectedText) || plain.Rendered {
		t.Fatalf("plain fetch already has the injected body (rendered=%v)", plain.Rendered)
	}
	p := mustFetch(t, sharedRenderer(t), ts.URL+"/inject.html")
	for _, want := range []string{
		injectedText,
		"Dock workers who had kept the machines oiled",
		"before the winter storms close the channel.",
		`<h1 id="headline">Harbour cranes return to the old port</h1>`,
	} {
		if !strings.Contains(p.HTML, want) {
			t.Errorf("rendered HTML lacks %q", want)
		}
	}
	if p.Status != 200 || p.Title != "Injected article" || !p.Rendered || p.Partial {
		t.Errorf("status %d title %q rendered %v partial %v (%s)", p.Status, p.Title, p.Rendered, p.Partial, p.PartialReason)
	}
	// The link created by script is among the links, with its text.
	if l := findLink(p.Links, "/article/related-story"); l == nil || l.Text != "A related story created by script" {
		t.Errorf("script-created link missing or wrong: %+v", l)
	}
	if l := findLink(plain.Links, "/section/world"); l == nil || l.Text != "World" {
		t.Errorf("plain fetch link missing: %+v", plain.Links)
	}
}

func findLink(links []Link, suffix string) *Link {
	for i := range links {
		if strings.HasSuffix(links[i].URL, suffix) {
			return &links[i]
		}
	}
	return nil
}

func TestRedirectChain(t *testing.T) {
	ts := testServer(t)
	want := []Redirect{{ts.URL + "/r1", 301}, {ts.URL + "/r2", 302}}
	for name, f := range map[string]Fetcher{"http": &HTTPFetcher{Guard: loopback}, "chromium": sharedRenderer(t)} {
		p := mustFetch(t, f, ts.URL+"/r1")
		if p.FinalURL != ts.URL+"/inject.html" || p.Status != 200 {
			t.Errorf("%s: final %s status %d", name, p.FinalURL, p.Status)
		}
		if len(p.Redirects) != len(want) {
			t.Errorf("%s: redirects %+v, want %+v", name, p.Redirects, want)
			continue
		}
		for i := range want {
			if p.Redirects[i] != want[i] {
				t.Errorf("%s: redirect %d = %+v, want %+v", name, i, p.Redirects[i], want[i])
			}
		}
	}
}

func countStories(html string) int { return strings.Count(html, `class="item"`) }

func TestInfiniteScrollUpToTheBound(t *testing.T) {
	ts := testServer(t)
	// Unbounded enough: all 60 items (10 per batch) arrive.
	p := mustFetch(t, sharedRenderer(t), ts.URL+"/scroll.html")
	if n := countStories(p.HTML); n != 60 {
		t.Errorf("rendered %d items, want all 60 (notes %v)", n, p.Notes)
	}
	if l := findLink(p.Links, "/story/59"); l == nil || l.Text != "Story number 59" {
		t.Errorf("last story link missing: %+v", l)
	}
	// A bound of 2 scroll steps: the first batch plus at most two more.
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 20 * time.Second, Wait: WaitOptions{ScrollSteps: 2}})
	p = mustFetch(t, r, ts.URL+"/scroll.html")
	if n := countStories(p.HTML); n < 20 || n > 30 {
		t.Errorf("with 2 scroll steps got %d items, want 20..30", n)
	}
	if len(p.Notes) == 0 || p.Notes[0] != "scroll: 2 steps" {
		t.Errorf("notes %v, want scroll: 2 steps", p.Notes)
	}
}

func TestLoadMoreButton(t *testing.T) {
	ts := testServer(t)
	p := mustFetch(t, sharedRenderer(t), ts.URL+"/loadmore.html")
	if n := strings.Count(p.HTML, `class="entry"`); n != 20 {
		t.Errorf("%d entries after load-more, want 20 (notes %v)", n, p.Notes)
	}
	if strings.Contains(p.HTML, `id="more"`) {
		t.Error("the exhausted load-more button is still there")
	}
}

func TestConsentOverlayGone(t *testing.T) {
	ts := testServer(t)
	r := sharedRenderer(t)
	for _, c := range []struct{ path, overlay, text string }{
		{"/consent.html", `id="cmp"`, "Les commerçants du marché couvert"},
		{"/stubborn-consent.html", `id="cookie-wall"`, "Text under a consent wall"},
	} {
		p := mustFetch(t, r, ts.URL+c.path)
		if strings.Contains(p.HTML, c.overlay) {
			t.Errorf("%s: overlay %s still in the DOM (notes %v)", c.path, c.overlay, p.Notes)
		}
		if !strings.Contains(p.HTML, c.text) {
			t.Errorf("%s: article text lost", c.path)
		}
		if len(p.Notes) == 0 || !strings.HasPrefix(p.Notes[0], "consent: ") {
			t.Errorf("%s: notes %v record no consent action", c.path, p.Notes)
		}
	}
	// KeepConsent leaves it alone.
	// (This renderer also takes screenshots.)
	keep := newRenderer(t, Options{Tabs: 1, Screenshot: true, Wait: WaitOptions{KeepConsent: true, ScrollSteps: -1}})
	p := mustFetch(t, keep, ts.URL+"/consent.html")
	if !strings.Contains(p.HTML, `id="cmp"`) {
		t.Error("KeepConsent: overlay removed anyway")
	}
	if len(p.Screenshot) < 1000 || p.Screenshot[0] != 0xFF || p.Screenshot[1] != 0xD8 {
		t.Errorf("screenshot: %d bytes, not a JPEG", len(p.Screenshot))
	}
}

func TestNeverEndingPageReturnsPartialWithinDeadline(t *testing.T) {
	ts := testServer(t)
	r := sharedRenderer(t)
	pid := r.BrowserPID()
	const budget = 4 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	start := time.Now()
	p, err := r.Fetch(ctx, ts.URL+"/never")
	took := time.Since(start)
	if err != nil {
		t.Fatalf("never-ending page: %v", err)
	}
	if took > budget+500*time.Millisecond {
		t.Errorf("returned after %v, deadline %v", took, budget)
	}
	if !p.Partial || p.PartialReason == "" {
		t.Errorf("not marked partial: %+v", p)
	}
	if n := strings.Count(p.HTML, `class="tick"`); n < 5 {
		t.Errorf("only %d ticks captured at the deadline", n)
	}
	// The deadline closed a tab, not the browser.
	if pid != 0 && r.BrowserPID() != pid {
		t.Errorf("browser changed from %d to %d", pid, r.BrowserPID())
	}
	if p := mustFetch(t, r, ts.URL+"/inject.html"); !strings.Contains(p.HTML, injectedText) {
		t.Error("the next page after a deadline did not render")
	}
}

func TestLayoutShadowDOMFramesAndPushState(t *testing.T) {
	ts := testServer(t)
	p := mustFetch(t, sharedRenderer(t), ts.URL+"/layout.html")
	tree, err := treediff.Parse(p.FinalURL, []byte(p.HTML), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	boxOf := func(text string) (Box, bool) {
		for _, n := range tree.Nodes {
			if n.Kind == treediff.Text && strings.TrimSpace(n.Label) == text {
				return p.Layout.Box(n)
			}
		}
		t.Fatalf("no text node %q in the rendered tree", text)
		return Box{}, false
	}
	for _, c := range []struct {
		text    string
		visible bool
	}{
		{"Visible paragraph at the top.", true},
		{"Hidden by display none.", false},
		{"Hidden by visibility.", false},
		{"Hidden by opacity.", false},
		{"Visible paragraph far below.", true},
		{"Shadow text", true},
		{"Slotted title", true},
	} {
		b, ok := boxOf(c.text)
		if !ok {
			t.Errorf("%q: no layout box", c.text)
			continue
		}
		if b.Visible != c.visible {
			t.Errorf("%q: visible=%v, want %v (box %+v)", c.text, b.Visible, c.visible, b)
		}
	}
	top, _ := boxOf("Visible paragraph at the top.")
	below, _ := boxOf("Visible paragraph far below.")
	if below.Y < top.Y+1500 {
		t.Errorf("vertical positions: top %d, below %d; want a 1500px gap", top.Y, below.Y)
	}
	if !strings.Contains(p.HTML, `<h2><span slot="title">Slotted title</span></h2>`) {
		t.Error("shadow DOM not flattened with its slots")
	}
	if len(p.Frames) != 1 || !strings.Contains(p.Frames[0].HTML, "Inside the same-origin frame.") || !strings.HasSuffix(p.Frames[0].URL, "/frame.html") {
		t.Errorf("frames %+v", p.Frames)
	}
	if l := findLink(p.Links, "/layout/pushed-route"); l == nil || l.Source != "pushState" {
		t.Errorf("pushState navigation not among links: %+v", p.Links)
	}
	if !strings.HasSuffix(p.FinalURL, "/layout/pushed-route") {
		t.Errorf("final URL %s does not follow pushState", p.FinalURL)
	}
}

func TestResourceBlocking(t *testing.T) {
	ts := testServer(t)
	blocked := mustFetch(t, sharedRenderer(t), ts.URL+"/images.html")
	if blocked.Blocked != 3 {
		t.Errorf("default blocking: %d blocked, want 3 images", blocked.Blocked)
	}
	r := newRenderer(t, Options{Tabs: 1, NoBlock: true, Wait: WaitOptions{ScrollSteps: -1}})
	open := mustFetch(t, r, ts.URL+"/images.html")
	if open.Blocked != 0 || open.Requests < 4 {
		t.Errorf("NoBlock: %d blocked, %d requests", open.Blocked, open.Requests)
	}
}

func TestCookiesIsolatedOrSharedPerSite(t *testing.T) {
	t.Parallel() // own browser: runs beside the others after the sequential tests
	ts := testServer(t)
	for _, share := range []bool{false, true} {
		r := newRenderer(t, Options{Tabs: 1, Isolate: !share, Wait: WaitOptions{ScrollSteps: -1}})
		mustFetch(t, r, ts.URL+"/cookie-set.html")
		p := mustFetch(t, r, ts.URL+"/cookie-get.html")
		has := strings.Contains(p.HTML, "seen=yes")
		if has != share {
			t.Errorf("Isolate=%v: second page sees the cookie: %v", !share, has)
		}
	}
}

// slowBody is what /slow shows once its script got its JSON.
const slowBody = `<div id="b"><p>Slow body finally here.</p></div>`

func TestCrashedBrowserIsReplacedAndPageRetried(t *testing.T) {
	t.Parallel() // own browser: runs beside the others after the sequential tests
	ts := testServer(t)
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second})
	mustFetch(t, r, ts.URL+"/inject.html") // the browser runs
	pid := r.BrowserPID()
	if pid == 0 {
		t.Fatal("no browser pid")
	}
	whenSlowServed(func() { syscall.Kill(pid, syscall.SIGKILL) }) // mid-page: /slow fills its body at 1.5s
	p := mustFetch(t, r, ts.URL+"/slow")
	if !strings.Contains(p.HTML, slowBody) {
		t.Error("retried page incomplete")
	}
	st := r.Stats()
	if p.Attempts != 2 || st.Retries != 1 || st.Restarts != 1 {
		t.Errorf("attempts %d, stats %+v; want 2 attempts, 1 retry, 1 restart", p.Attempts, st)
	}
	if new := r.BrowserPID(); new == pid || new == 0 {
		t.Errorf("browser pid %d after the crash (was %d)", new, pid)
	}
}

func TestRetirementAfterNPages(t *testing.T) {
	t.Parallel() // own browser: runs beside the others after the sequential tests
	ts := testServer(t)
	r := newRenderer(t, Options{Tabs: 1, RetireAfter: 2, Wait: WaitOptions{ScrollSteps: -1}})
	var dirs []string
	for range 3 {
		mustFetch(t, r, ts.URL+"/frame.html")
		r.mu.Lock()
		if r.cur != nil {
			dirs = append(dirs, r.cur.Dir)
		}
		r.mu.Unlock()
	}
	if st := r.Stats(); st.Restarts != 1 || st.PeakRSS <= 0 || st.PeakPSS <= 0 || st.PeakPSS > st.PeakRSS {
		t.Errorf("stats %+v; want 1 restart and peak RSS >= PSS > 0", st)
	}
	// The first browser (retired after page 2) is gone with its directory.
	r.retiring.Wait()
	first := ""
	if len(dirs) > 0 {
		first = dirs[0]
	}
	if first == "" {
		t.Fatal("no directory recorded")
	}
	if left := chromeproc.ProcsUsingDir(first); len(left) > 0 {
		t.Errorf("retired browser still runs: %v", left)
	}
	if _, err := os.Stat(first); !os.IsNotExist(err) {
		t.Errorf("retired browser's directory remains: %v", err)
	}
}

func TestNoChromiumSurvivesAKilledProgram(t *testing.T) {
	t.Parallel() // own browser: runs beside the others after the sequential tests
	needChromium(t)
	ts := testServer(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GLEANER_BROWSER_HELPER="+ts.URL+"/inject.html")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "READY ") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper: %q %v", line, err)
	}
	f := strings.Fields(line)
	dir := f[2]
	if len(chromeproc.ProcsUsingDir(dir)) == 0 {
		t.Fatal("helper's Chromium not found before the kill")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for len(chromeproc.ProcsUsingDir(dir)) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if left := chromeproc.ProcsUsingDir(dir); len(left) > 0 {
		t.Errorf("Chromium processes of the killed program survive: %v", left)
		chromeproc.KillTree(0, dir)
	}
	// Its directory is left behind; the next program sweeps it.
	if _, err := os.Stat(dir); err != nil {
		t.Logf("directory already gone: %v", err)
	} else {
		chromeproc.SweepStale()
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("sweep left %s: %v", dir, err)
		}
	}
}

func TestBadInput(t *testing.T) {
	ts := testServer(t)
	r := sharedRenderer(t)
	for _, u := range []string{"", "not a url", "ftp://example.org/", "/relative/path"} {
		if _, err := r.Fetch(context.Background(), u); err == nil || !strings.Contains(err.Error(), "not an absolute") {
			t.Errorf("Renderer.Fetch(%q): %v", u, err)
		}
		if _, err := (&HTTPFetcher{Guard: loopback}).Fetch(context.Background(), u); err == nil {
			t.Errorf("HTTPFetcher.Fetch(%q): no error", u)
		}
	}
	// A refused connection is an error naming the URL, not a crash retry.
	if _, err := r.Fetch(context.Background(), "http://127.0.0.1:1/x"); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("refused connection: %v", err)
	}
	if _, err := (&HTTPFetcher{Guard: loopback}).Fetch(context.Background(), ts.URL+"/data.bin"); !errors.Is(err, ErrNotHTML) {
		t.Errorf("binary body: %v", err)
	}
	// HTTP errors are pages with their status.
	for name, f := range map[string]Fetcher{"http": &HTTPFetcher{Guard: loopback}, "chromium": r} {
		p := mustFetch(t, f, ts.URL+"/missing.html")
		if p.Status != 404 {
			t.Errorf("%s: status %d for a missing page", name, p.Status)
		}
	}
}

func TestHTTPFetcherLimitsAndCharset(t *testing.T) {
	t.Parallel() // own browser: runs beside the others after the sequential tests
	ts := testServer(t)
	p := mustFetch(t, &HTTPFetcher{Guard: loopback}, ts.URL+"/latin1")
	if p.Title != "Café" || !strings.Contains(p.HTML, "Crème brûlée") {
		t.Errorf("latin-1 page decoded as %q / %q", p.Title, p.HTML)
	}
	p = mustFetch(t, &HTTPFetcher{Guard: loopback, MaxBytes: 1000}, ts.URL+"/big")
	if !p.Partial || len(p.HTML) != 1000 {
		t.Errorf("size cap: partial %v, %d bytes", p.Partial, len(p.HTML))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	if _, err := (&HTTPFetcher{Guard: loopback, Timeout: 500 * time.Millisecond}).Fetch(ctx, ts.URL+"/never"); err == nil {
		t.Error("never-ending body: no timeout error")
	}
	if time.Since(start) > 2*time.Second {
		t.Error("timeout not enforced")
	}
}

func TestBoxJSONRoundTrip(t *testing.T) {
	l := &Layout{Width: 10, Height: 20, Boxes: map[string]Box{"/html/body[1]": {X: 1, Y: 2, W: 3, H: 4, Visible: true}, "/html/body[1]/p[1]": {}}}
	p := &Page{URL: "http://x/", Layout: l}
	b, err := p.Capture()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"/html/body[1]":[1,2,3,4,1]`) {
		t.Errorf("compact boxes missing in %s", b)
	}
	back, err := ParseCapture(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Layout.Boxes["/html/body[1]"] != l.Boxes["/html/body[1]"] || len(back.Layout.Boxes) != 2 {
		t.Errorf("round trip: %+v", back.Layout)
	}
	var bad Box
	if err := bad.UnmarshalJSON([]byte(`{"x":1}`)); err == nil {
		t.Error("bad box JSON accepted")
	}
}

// rendererPIDs lists the renderer processes among pid's descendants.
func rendererPIDs(pid int) []int {
	var out []int
	for _, p := range chromeproc.Descendants(pid) {
		cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
		if strings.Contains(string(cmd), "--type=renderer") {
			out = append(out, p)
		}
	}
	return out
}

func TestCrashedTabIsRetriedInTheSameBrowser(t *testing.T) {
	t.Parallel() // own browser: runs beside the others after the sequential tests
	ts := testServer(t)
	r := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second})
	mustFetch(t, r, ts.URL+"/frame.html")
	pid := r.BrowserPID()
	ctx0 := siteContextID(t, r, ts.URL)
	killed := make(chan int, 1)
	whenSlowServed(func() {
		n := 0
		for _, p := range rendererPIDs(pid) {
			if syscall.Kill(p, syscall.SIGKILL) == nil {
				n++
			}
		}
		killed <- n
	})
	t0 := time.Now()
	p := mustFetch(t, r, ts.URL+"/slow")
	// The crash is noticed by its event, not by the first attempt's deadline.
	if took := time.Since(t0); took >= 15*time.Second {
		t.Errorf("crash noticed only at the deadline: %v", took)
	}
	if n := <-killed; n == 0 {
		t.Fatal("no renderer process found to kill")
	}
	if !strings.Contains(p.HTML, slowBody) || p.Attempts != 2 {
		t.Errorf("attempts %d, body complete %v", p.Attempts, strings.Contains(p.HTML, slowBody))
	}
	if r.BrowserPID() != pid {
		t.Errorf("a tab crash replaced the browser (%d -> %d)", pid, r.BrowserPID())
	}
	// The retry opened its tab in a new browser context of the site.
	if ctx1 := siteContextID(t, r, ts.URL); ctx1 == ctx0 {
		t.Errorf("the retry reused the crashed tab's browser context %s", ctx0)
	}
}

// siteContextID is the browser context r keeps for the site of rawURL.
func siteContextID(t *testing.T, r *Renderer, rawURL string) cdp.BrowserContextID {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	inst := r.cur
	r.mu.Unlock()
	inst.mu.Lock()
	defer inst.mu.Unlock()
	sc, ok := inst.sites[siteKey(u)]
	if !ok {
		t.Fatalf("no browser context for %s", rawURL)
	}
	return sc.id
}

func TestJavaScriptDialogsDoNotBlock(t *testing.T) {
	ts := testServer(t)
	p := mustFetch(t, sharedRenderer(t), ts.URL+"/dialogs.html")
	text := pageText(t, p.HTML) // without the scripts, whose source holds the same words
	if p.Partial || !strings.Contains(text, "Confirmed by the reader.") || !strings.Contains(text, "After a late alert.") {
		t.Errorf("dialogs: partial %v (%s), html %q", p.Partial, p.PartialReason, p.HTML)
	}
}

func TestClientSideRedirect(t *testing.T) {
	ts := testServer(t)
	p := mustFetch(t, sharedRenderer(t), ts.URL+"/jsredirect.html")
	if p.FinalURL != ts.URL+"/inject.html" || !strings.Contains(p.HTML, injectedText) {
		t.Errorf("final %s, body present %v", p.FinalURL, strings.Contains(p.HTML, injectedText))
	}
	if len(p.Redirects) != 1 || p.Redirects[0] != (Redirect{ts.URL + "/jsredirect.html", 200}) || p.Status != 200 {
		t.Errorf("redirects %+v status %d", p.Redirects, p.Status)
	}
}
