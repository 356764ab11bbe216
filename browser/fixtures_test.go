package browser

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/treediff"
)

var (
	fixOnce sync.Once
	fixSrv  *fixtures.Server
	fixErr  error
)

// fixtureWeb serves the fixture news sites for the whole test binary.
func fixtureWeb(t testing.TB) *fixtures.Server {
	t.Helper()
	fixOnce.Do(func() {
		fixSrv, fixErr = fixtures.Start(context.Background(), fixtures.Options{Seed: 1, Articles: 40})
	})
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return fixSrv
}

func fixtureSite(t testing.TB, w *fixtures.Server, name string) *fixtures.Site {
	t.Helper()
	for _, s := range w.Sites {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no fixture site %q", name)
	return nil
}

// pageText is the whitespace-normalized text of an HTML document.
func pageText(t testing.TB, html string) string {
	tree, err := treediff.Parse("page", []byte(html), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(tree.Root.Text()), " ")
}

func goldParagraphs(a *fixtures.Article) []string {
	var out []string
	for _, p := range strings.Split(a.Gold(), "\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func TestFixtureScriptInjectedBody(t *testing.T) {
	w := fixtureWeb(t)
	herald := fixtureSite(t, w, "herald")
	r := sharedRenderer(t)
	checked := 0
	for _, a := range herald.Articles {
		if !a.Kind.IsArticle() || checked == 2 {
			continue
		}
		url := w.ArticleURL(a)
		plain := mustFetch(t, &HTTPFetcher{Guard: loopback}, url)
		gold := goldParagraphs(a)
		body := gold[len(gold)-1]
		if strings.Contains(pageText(t, plain.HTML), body) {
			continue // a server-rendered article
		}
		checked++
		p := mustFetch(t, r, url)
		text := pageText(t, p.HTML)
		for _, g := range gold {
			if !strings.Contains(text, g) {
				t.Errorf("%s: rendered page lacks gold text %.60q", url, g)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no herald article has a script-injected body")
	}
}

func TestFixtureInfiniteScrollSection(t *testing.T) {
	w := fixtureWeb(t)
	herald := fixtureSite(t, w, "herald")
	var sec *fixtures.Section
	for _, s := range herald.Sections {
		if sec == nil || len(s.Articles) > len(sec.Articles) {
			sec = s
		}
	}
	if len(sec.Articles) <= 10 {
		t.Skipf("largest herald section has only %d stories", len(sec.Articles))
	}
	plain := mustFetch(t, &HTTPFetcher{Guard: loopback}, herald.URL(sec.Path))
	p := mustFetch(t, sharedRenderer(t), herald.URL(sec.Path))
	got, first := strings.Count(p.HTML, `class="river-item"`), strings.Count(plain.HTML, `class="river-item"`)
	if got != len(sec.Articles) || first >= got {
		t.Errorf("section %s: %d stories served, %d after scrolling, want all %d (notes %v)", sec.Path, first, got, len(sec.Articles), p.Notes)
	}
}

func TestFixtureConsentOverlaysAndLoadMore(t *testing.T) {
	w := fixtureWeb(t)
	r := sharedRenderer(t)
	q := fixtureSite(t, w, "quotidien")
	a := q.Articles[0]
	p := mustFetch(t, r, w.ArticleURL(a))
	if strings.Contains(p.HTML, "rgpd-overlay") {
		t.Errorf("quotidien cookie wall still there (notes %v)", p.Notes)
	}
	text := pageText(t, p.HTML)
	for _, g := range goldParagraphs(a) {
		if !strings.Contains(text, g) {
			t.Errorf("quotidien article lacks %.60q", g)
		}
	}

	rs := fixtureSite(t, w, "rundschau")
	var sec *fixtures.Section
	for _, s := range rs.Sections {
		if sec == nil || len(s.Articles) > len(sec.Articles) {
			sec = s
		}
	}
	p = mustFetch(t, r, rs.URL(sec.Path))
	if strings.Contains(p.HTML, `id="cmp-layer"`) {
		t.Errorf("rundschau consent layer still there (notes %v)", p.Notes)
	}
	if n := strings.Count(p.HTML, "class=\"teaser"); len(sec.Articles) > 10 && n <= 10 {
		t.Errorf("rundschau section %s: %d teasers after load-more, section has %d (notes %v)", sec.Path, n, len(sec.Articles), p.Notes)
	}
}

// TestFixtureNeverEndingTicker: a page that never ends comes back, partial
// with what it showed, by the caller's deadline and the grace a render has
// past it (its last command, closing the tab), not at the renderer's own
// page timeout (20 s). The grace is no fixed allowance of the test's: on a
// loaded machine the tab's closing after the deadline took 0.63 s.
func TestFixtureNeverEndingTicker(t *testing.T) {
	w := fixtureWeb(t)
	herald := fixtureSite(t, w, "herald")
	r := sharedRenderer(t)
	mustFetch(t, r, herald.URL("/")) // Chromium started: no part of the page's time
	const limit = 3 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	start := time.Now()
	p, err := r.Fetch(ctx, herald.URL("/live/ticker"))
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > limit+hardGrace || !p.Partial || !strings.Contains(p.HTML, "Live ticker") {
		t.Errorf("ticker: %v, partial %v, %d bytes", time.Since(start), p.Partial, len(p.HTML))
	}
}
