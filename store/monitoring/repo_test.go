package monitoring

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/storetest"
)

// TestMain stops the throwaway PostgreSQL cluster the tests may start.
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// backends opens a fresh store on each backend.
func backends(t *testing.T) map[string]func(t *testing.T) *store.DB {
	return map[string]func(t *testing.T) *store.DB{
		"sqlite":   func(t *testing.T) *store.DB { return openDB(t, filepath.Join(t.TempDir(), "m.db")) },
		"postgres": func(t *testing.T) *store.DB { return openDB(t, storetest.PostgresURL(t)) },
	}
}

func openDB(t *testing.T, dsn string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func openRepo(t *testing.T, db *store.DB, name string) *Repo {
	t.Helper()
	r, err := Open(context.Background(), db, name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRepo runs each scenario on SQLite and PostgreSQL, two monitors
// sharing the store (each sees its own state only).
func TestRepo(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, r, other *Repo)
	}{
		{"rounds", checkRounds},
		{"sources", checkSources},
		{"urls", checkURLs},
		{"documents", checkDocuments},
		{"learning", checkLearning},
	}
	for backend, open := range backends(t) {
		t.Run(backend, func(t *testing.T) {
			for _, sc := range scenarios {
				t.Run(sc.name, func(t *testing.T) {
					db := open(t)
					sc.run(t, openRepo(t, db, "a"), openRepo(t, db, "b"))
				})
			}
		})
	}
}

func checkRounds(t *testing.T, r, other *Repo) {
	ctx := context.Background()
	if n, fin, err := r.LastRound(ctx); err != nil || n != 0 || fin {
		t.Fatalf("empty: last round %d finished %v (%v), want 0", n, fin, err)
	}
	now := time.Unix(1000, 0)
	for i, want := range []bool{false, true} {
		if resumed, err := r.StartRound(ctx, 1, now); err != nil || resumed != want {
			t.Fatalf("start %d: resumed %v (%v), want %v", i, resumed, err, want)
		}
	}
	if n, fin, err := r.LastRound(ctx); err != nil || n != 1 || fin {
		t.Fatalf("started: last round %d finished %v (%v), want 1 unfinished", n, fin, err)
	}
	if err := r.FinishRound(ctx, 1, now.Add(time.Second), RoundWork{Requests: 3}); err != nil {
		t.Fatal(err)
	}
	if n, fin, err := r.LastRound(ctx); err != nil || n != 1 || !fin {
		t.Fatalf("finished: last round %d finished %v (%v), want 1 finished", n, fin, err)
	}
	if n, _, err := other.LastRound(ctx); err != nil || n != 0 {
		t.Errorf("other monitor: last round %d (%v), want 0", n, err)
	}
}

func checkSources(t *testing.T, r, _ *Repo) {
	ctx := context.Background()
	tests := []struct {
		src   Source
		added bool
	}{
		{Source{URL: "http://a/robots.txt", Kind: SourceRobots, Site: "a", Interval: 1, Next: 1}, true},
		{Source{URL: "http://a/", Kind: SourceHub, Site: "a", Interval: 1, Next: 1}, true},
		{Source{URL: "http://a/", Kind: SourceHub, Site: "a", Interval: 1, Next: 1}, false},      // known
		{Source{URL: "http://a/feed", Kind: SourceFeed, Site: "a", Interval: 1, Next: 1}, false}, // over the limit of 2
	}
	for _, tc := range tests {
		if added, err := r.AddSource(ctx, tc.src, 2); err != nil || added != tc.added {
			t.Errorf("add %s: %v (%v), want %v", tc.src.URL, added, err, tc.added)
		}
	}
	s, _, _ := r.Source(ctx, "http://a/")
	s.Kind, s.ETag, s.Interval, s.Next, s.Links = SourceSitemap, `"v1"`, 2, 3, "x\ny"
	if err := r.SourceChecked(ctx, s, 4); err != nil {
		t.Fatal(err)
	}
	if err := r.SourceFailed(ctx, Source{URL: "http://a/robots.txt", Interval: 4, Next: 5}, errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	got, found, err := r.Source(ctx, "http://a/")
	if err != nil || !found || got.Kind != SourceSitemap || got.ETag != `"v1"` || got.Checks != 1 || got.Links != "x\ny" {
		t.Errorf("checked source %+v (found %v, %v)", got, found, err)
	}
	if due, err := r.DueSources(ctx, 3); err != nil || len(due) != 1 || due[0].URL != "http://a/" {
		t.Errorf("due in round 3: %+v (%v), want the hub alone", due, err)
	}
	if ok, err := r.HasListings(ctx, "a"); err != nil || !ok {
		t.Errorf("site a has listings %v (%v), want true (its sitemap)", ok, err)
	}
}

func checkURLs(t *testing.T, r, other *Repo) {
	ctx := context.Background()
	for i, u := range []string{"http://a/2", "http://a/1", "http://a/2"} {
		isNew, err := r.AddURL(ctx, Listed{URL: u, Site: "a", Round: 1, Seq: int64(10 - i), Hint: `{"via":"news"}`, Modified: time.UnixMilli(5000)})
		if err != nil || isNew != (i < 2) {
			t.Errorf("add %s (%d): new %v (%v)", u, i, isNew, err)
		}
	}
	if _, err := other.AddURL(ctx, Listed{URL: "http://a/3", Site: "a", Round: 1}); err != nil {
		t.Fatal(err)
	}
	q, err := r.Queue(ctx)
	if err != nil || len(q) != 2 || q[0].URL != "http://a/1" || q[0].State != URLPending || q[0].Hint != `{"via":"news"}` {
		t.Fatalf("queue %+v (%v), want a/1 then a/2, pending", q, err)
	}
	if err := r.SetOutcome(ctx, "http://a/1", Outcome{State: URLArticle, DocID: 7, ETag: "e"}); err != nil {
		t.Fatal(err)
	}
	// Modified after what was listed: to recheck; before: unchanged.
	for _, mod := range []int64{4000, 6000} {
		if err := r.MarkModified(ctx, 2, "http://a/1", time.UnixMilli(mod)); err != nil {
			t.Fatal(err)
		}
	}
	if st, _, err := r.URLState(ctx, "http://a/1"); err != nil || st != URLRecheck {
		t.Errorf("a/1 modified: state %q (%v), want recheck", st, err)
	}
	if ok, err := r.IsPending(ctx, "http://a/2"); err != nil || !ok {
		t.Errorf("a/2 pending %v (%v)", ok, err)
	}
	if urls, err := r.RoundURLs(ctx, 1); err != nil || len(urls) != 2 {
		t.Errorf("round 1 urls %v (%v), want 2", urls, err)
	}
	if st, _, err := r.URLState(ctx, "http://never/"); err != nil || st != "" {
		t.Errorf("unknown URL: state %q (%v), want none", st, err)
	}
}

func checkDocuments(t *testing.T, r, other *Repo) {
	ctx := context.Background()
	docs := []Document{
		{URL: "http://a/1", Site: "a", Kind: KindArticle, Round: 1, Lang: "en", LangSource: "text", FirstSeen: "2026-01-01T00:00:00Z", Score: 0.9},
		{URL: "http://a/2", Canonical: "http://a/1", Site: "a", Kind: KindHub, Round: 1, FirstSeen: "2026-01-02T00:00:00Z"},
		{URL: "http://b/1", Site: "b", Kind: KindArticle, Round: 2, Lang: "fr", FirstSeen: "2026-01-03T00:00:00Z"},
	}
	ids := make([]int64, len(docs))
	for i, d := range docs {
		id, err := r.InsertDoc(ctx, d, Fingerprint{SimHash: int64(i + 1), ContentHash: d.URL})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	if _, err := other.InsertDoc(ctx, docs[0], Fingerprint{}); err != nil {
		t.Fatal(err)
	}
	if err := r.Link(ctx, 2, "http://a/1?utm=x", ids[0], LinkCanonical); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sel  Selection
		want []string
	}{
		{Selection{}, []string{"http://a/1", "http://b/1"}},
		{Selection{Kind: KindAll}, []string{"http://a/1", "http://a/2", "http://b/1"}},
		{Selection{Kind: KindHub}, []string{"http://a/2"}},
		{Selection{Round: 2}, []string{"http://b/1"}},
		{Selection{Lang: "en", MinRelevance: 0.5}, []string{"http://a/1"}},
		{Selection{Site: "b", Since: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}, []string{"http://b/1"}},
		{Selection{Until: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}, []string{"http://a/1"}},
	}
	for _, tc := range tests {
		got, err := r.Documents(ctx, tc.sel)
		if err != nil {
			t.Fatal(err)
		}
		if urls := docURLs(got); !equal(urls, tc.want) {
			t.Errorf("select %+v: %v, want %v", tc.sel, urls, tc.want)
		}
	}
	got, _ := r.Documents(ctx, Selection{Round: 1})
	if len(got) != 1 || len(got[0].Duplicates) != 1 || got[0].Relevance != 0.9 || got[0].LangSource != "text" {
		t.Errorf("a/1 as selected: %+v, want its duplicate, relevance 0.9 and its language's source", got)
	}
	for _, tc := range []struct {
		url, canon string
		want       int64
	}{
		{"http://a/3", "http://a/1", ids[0]}, // stored under the canonical
		{"http://a/1", "", ids[1]},           // a copy names a/1 as canonical
		{"http://a/9", "", 0},
	} {
		if id, err := r.StoryOf(ctx, tc.url, tc.canon); err != nil || id != tc.want {
			t.Errorf("story of %s (%s): %d (%v), want %d", tc.url, tc.canon, id, err, tc.want)
		}
	}
	changed, err := r.UpdateText(ctx, Refetched{DocID: ids[0], Round: 3, Text: "new", Print: Fingerprint{SimHash: 9, ContentHash: "other"}})
	if err != nil || !changed {
		t.Errorf("update text: %v (%v), want changed", changed, err)
	}
	if changed, _ := r.UpdateText(ctx, Refetched{DocID: ids[0], Round: 3, Print: Fingerprint{ContentHash: "other"}}); changed {
		t.Error("update text of the same page: changed")
	}
}

func docURLs(docs []Document) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.URL)
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestParseKind(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want DocKind
		err  bool
	}{
		{"article", KindArticle, false}, {"hub", KindHub, false}, {"all", KindAll, false}, {"", "", true}, {"Article", "", true},
	} {
		got, err := ParseKind(tc.in)
		if got != tc.want || (err != nil) != tc.err || (err != nil && !errors.Is(err, ErrKind)) {
			t.Errorf("ParseKind(%q) = %q, %v", tc.in, got, err)
		}
	}
}

// checkLearning: a site's back-off is the store's, whichever monitor
// recorded it, until learning succeeds.
func checkLearning(t *testing.T, r, other *Repo) {
	ctx := context.Background()
	steps := []struct {
		do   func() error
		want int
	}{
		{func() error { return nil }, 0},
		{func() error { return r.LearningFailed(ctx, "a", 10, time.Unix(1, 0), errors.New("deadline")) }, 10},
		{func() error { return other.LearningFailed(ctx, "a", 20, time.Unix(2, 0), errors.New("deadline")) }, 20},
		{func() error { return r.LearningDone(ctx, "a") }, 0},
	}
	for i, st := range steps {
		if err := st.do(); err != nil {
			t.Fatal(err)
		}
		for _, repo := range []*Repo{r, other} {
			if n, err := repo.LearningBackoff(ctx, "a"); err != nil || n != st.want {
				t.Errorf("step %d, monitor %s: back-off at %d pages (%v), want %d", i, repo.Name(), n, err, st.want)
			}
		}
	}
}
