package monitor

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/store/monitoring"
)

// kindSite is a site without feed whose home page links section pages
// (hubs by their page: short, undated), articles, and two dated listings whose URLs look like articles' and
// whose short text passes for one: built on the sections' template.
func kindSite(t *testing.T) *httptest.Server {
	t.Helper()
	listing := func(w http.ResponseWriter, title string, dated bool) {
		var b strings.Builder
		for i := range 12 {
			fmt.Fprintf(&b, `<li class="teaser"><a href="/news/2026/03/%s-item-%d.html">%s item %d</a> <span>brief words</span></li>`, title, i, title, i)
		}
		meta := ""
		if dated {
			meta = `<meta property="article:published_time" content="2026-03-01T10:00:00Z">`
		}
		fmt.Fprintf(w, `<html><head><title>%s</title>%s</head><body><nav><a href="/">Home</a> <a href="/world-latest">World</a></nav>
<div class="listing"><h2>%s</h2><ul>%s</ul></div><footer><p>Contact us. About. Privacy.</p></footer></body></html>`, title, meta, title, b.String())
	}
	article := func(w http.ResponseWriter, name string) {
		var ps strings.Builder
		words := strings.Fields("council river market school budget harbour station library festival bridge museum stadium clinic tram orchard")
		for i := range 4 + len(name)%4 {
			var sent []string
			for j := range 20 + 7*i {
				sent = append(sent, words[(len(name)*j+i*3+j*j)%len(words)])
			}
			fmt.Fprintf(&ps, "<p>The %s %s.</p>", name, strings.Join(sent, " "))
		}
		fmt.Fprintf(w, `<html><head><title>%s</title><meta property="og:type" content="article"></head><body><nav><a href="/">Home</a></nav>
<main><article><h1>%s</h1><div class="byline">By A. Writer</div><div class="text">%s</div></article></main><footer><p>Contact us.</p></footer></body></html>`, name, name, ps.String())
	}
	sections := []string{"world", "sport", "money", "science"}
	articles := []string{"alpha", "bravo", "charlie", "delta", "echo"}
	listings := []string{"best-of-the-week", "most-read-this-month"}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/":
			var b strings.Builder
			for _, s := range sections {
				fmt.Fprintf(&b, `<a href="/%s-latest">%s</a> `, s, s)
			}
			for _, a := range articles {
				fmt.Fprintf(&b, `<a href="/news/2026/03/%s-story-today.html">%s</a> `, a, a)
			}
			for _, l := range listings {
				fmt.Fprintf(&b, `<a href="/news/2026/03/%s.html">%s</a> `, l, l)
			}
			fmt.Fprintf(w, "<html><body>%s</body></html>", b.String())
		case strings.HasSuffix(p, "-latest"):
			listing(w, strings.TrimPrefix(p, "/"), false)
		case strings.HasSuffix(p, "-story-today.html"):
			article(w, strings.TrimSuffix(strings.TrimPrefix(p, "/news/2026/03/"), "-story-today.html"))
		case strings.HasPrefix(p, "/news/2026/03/") && !strings.Contains(p, "-item-"):
			listing(w, strings.TrimSuffix(strings.TrimPrefix(p, "/news/2026/03/"), ".html"), true)
		default:
			http.NotFound(w, r)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestKindFromTemplates: two dated listings whose URL and short text pass
// for articles are stored, then found on the template the site's hubs
// make: kind "hub", out of the round's new articles and of the default
// selection; a document extracted against its template says which.
func TestKindFromTemplates(t *testing.T) {
	srv := kindSite(t)
	ctx := context.Background()
	m := openLoopback(t, Config{Name: "kind", Sites: []string{srv.URL + "/"}, Seed: 1}, srv.URL)
	rep, err := m.Round(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.New != 5 || rep.HubTemplate != 2 || rep.Templated < 1 {
		t.Errorf("new %d, on a hub template %d, templated %d; want 5, 2 and at least 1 (notes %v)", rep.New, rep.HubTemplate, rep.Templated, rep.Notes)
	}
	for _, tc := range []struct {
		sel  Selection
		want int
	}{
		{Selection{}, 5},
		{Selection{Kind: KindHub}, 2},
		{Selection{Kind: KindAll}, 7},
		{Selection{Kind: KindAll, MinRelevance: 0.5}, 0},
	} {
		docs, err := m.Documents(ctx, tc.sel)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if want := map[bool]monitoring.DocKind{true: KindArticle, false: KindHub}[strings.Contains(d.URL, "-story-")]; d.Kind != want {
				t.Errorf("%s: kind %q, want %q", d.URL, d.Kind, want)
			}
			if (d.Run > 0) != (d.Template >= 0) || (d.Run > 0 && d.Method != singlepage.MethodPair && d.Method != singlepage.MethodCluster) {
				t.Errorf("%s: run %d, template %d, method %q", d.URL, d.Run, d.Template, d.Method)
			}
		}
		if len(docs) != tc.want {
			t.Errorf("selection %+v: %d documents, want %d", tc.sel, len(docs), tc.want)
		}
	}
}

// TestReextractOnce: documents stored before their site's templates were
// learned get their template text once learning comes (an update of
// their text, not new documents), and only once.
func TestReextractOnce(t *testing.T) {
	srv := newsroom(t)
	ctx := context.Background()
	db := openDB(t, filepath.Join(t.TempDir(), "m.db"))
	reps := make([]*Report, 3)
	for round := 1; round <= 3; round++ {
		cfg := config(srv)
		if round == 1 {
			cfg.LearnAt = -1 // learning off: single-page text
		}
		m, err := Open(ctx, db, cfg)
		if err != nil {
			t.Fatal(err)
		}
		srv.SetRound(round - 1)
		if reps[round-1], err = m.Round(ctx); err != nil {
			t.Fatal(err)
		}
	}
	first, second, third := reps[0], reps[1], reps[2]
	if first.Templated != 0 || first.Reextracted != 0 {
		t.Errorf("round 1 without learning: %d templated, %d re-extracted", first.Templated, first.Reextracted)
	}
	if second.Reextracted == 0 || second.New != 12 || third.Reextracted != 0 {
		t.Errorf("re-extracted %d in round 2 (%d new), %d in round 3; want some, 12 and 0", second.Reextracted, second.New, third.Reextracted)
	}
	m, err := Open(ctx, db, config(srv))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := m.Documents(ctx, Selection{Round: 1})
	if err != nil {
		t.Fatal(err)
	}
	templated := 0
	for _, d := range docs {
		if d.Run > 0 {
			templated++
		}
	}
	if len(docs) != first.New || templated != second.Reextracted {
		t.Errorf("round 1: %d documents (%d new), %d with template text (%d re-extracted)", len(docs), first.New, templated, second.Reextracted)
	}
}

// TestLearningBounded: learning out of time never fails the round; it
// says so, the documents keep their single-page text, and the site is
// not learned again before its pages have doubled.
func TestLearningBounded(t *testing.T) {
	srv := newsroom(t)
	ctx := context.Background()
	cfg := config(srv)
	cfg.LearnTimeout = time.Nanosecond
	m, err := Open(ctx, openDB(t, filepath.Join(t.TempDir(), "m.db")), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 2; round++ {
		srv.SetRound(round - 1)
		rep, err := m.Round(ctx)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		notes := strings.Join(rep.Notes, "\n")
		if rep.Templated != 0 || rep.New == 0 {
			t.Errorf("round %d: %d new, %d templated; want some and 0", round, rep.New, rep.Templated)
		}
		// Round 1 learns each site and runs out of time; round 2, with a
		// few more pages, does not try again.
		if want := round == 1; strings.Contains(notes, "learning (tried again at") != want {
			t.Errorf("round %d: notes %q", round, notes)
		}
	}
}

// TestLearningBackoffStored: a site whose learning ran out of time is not
// learned again before its pages have doubled by the monitor's next
// process either (a restart on the same store): the back-off is stored
// with the site, not held by the process.
func TestLearningBackoffStored(t *testing.T) {
	srv := newsroom(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	cfg := config(srv)
	cfg.LearnTimeout = time.Nanosecond
	for round := 1; round <= 3; round++ {
		// A fresh store handle and monitor each round: a process each.
		m, err := Open(ctx, openDB(t, path), cfg)
		if err != nil {
			t.Fatal(err)
		}
		srv.SetRound(round - 1)
		rep, err := m.Round(ctx)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if rep.New == 0 || rep.Templated != 0 {
			t.Errorf("round %d: %d new, %d templated; want some and 0", round, rep.New, rep.Templated)
		}
		notes := strings.Join(rep.Notes, "\n")
		if tried := strings.Contains(notes, "learning (tried again at"); tried != (round == 1) {
			t.Errorf("process %d: learning tried %v, want in the first process only: notes %q", round, tried, notes)
		}
	}
}
