package export

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

// followPage is a crawled page with its one exchange.
func followPage(i int) *store.Page {
	u := fmt.Sprintf("http://news.example/a%d", i)
	body := fmt.Sprintf("<html><body><p>Article %d %s</p></body></html>", i, strings.Repeat("text ", 200))
	return &store.Page{URL: u, Dataset: "crawl:f", RawHTML: []byte(body), Status: 200, FetchedAt: time.Now(),
		Exchanges: []store.Exchange{{URL: u, Method: "GET", At: time.Now(),
			Request:  []byte(fmt.Sprintf("GET /a%d HTTP/1.1\r\nHost: news.example\r\n\r\n", i)),
			Response: []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", len(body))),
			Payload:  []byte(body)}}}
}

// runFollow follows dataset crawl:f into dir while add puts pages, then
// stops it and returns its error.
func runFollow(t *testing.T, st store.Store, dir string, add func()) error {
	t.Helper()
	return runFollowWith(t, st, dir, add)
}

// runFollowWith is runFollow on any store.
func runFollowWith(t *testing.T, st store.Store, dir string, add func()) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Follow(ctx, st, FollowOptions{Dir: dir, Dataset: "crawl:f", MaxFileBytes: 2000, Every: 10 * time.Millisecond})
	}()
	add()
	time.Sleep(50 * time.Millisecond)
	cancel()
	return <-done
}

// followed reads the WARC files of dir: their names, and the response
// records' URIs in order; a record of the text fails the test.
func followed(t *testing.T, dir string) (names, uris []string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		names = append(names, e.Name())
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := ReadWARC(f, 0)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		for _, r := range recs {
			switch {
			case r.Type() == "response":
				uris = append(uris, r.TargetURI())
			case strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain"):
				t.Errorf("%s: a text record, written before any extraction", e.Name())
			}
		}
	}
	sort.Strings(names)
	return names, uris
}

// TestFollow follows a crawl's dataset as pages are committed: files
// rolled at their size, named after their last page, every page written
// once; a second Follow after a kill (a partial .open file left) removes
// the partial file and goes on after the last page of the finished files.
func TestFollow(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := t.TempDir()
	put := func(from, to int) func() {
		return func() {
			for i := from; i < to; i++ {
				if err := st.PutPages(ctx, []*store.Page{followPage(i)}); err != nil {
					t.Error(err)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
	if err := runFollow(t, st, dir, put(0, 6)); err != nil {
		t.Fatal(err)
	}
	names, uris := followed(t, dir)
	if len(names) < 2 || len(uris) != 6 || !strings.HasPrefix(names[0], "crawl.f-00000-p") {
		t.Fatalf("files %v, responses %v", names, uris)
	}
	// A killed Follow's partial file: removed, its pages written again.
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("crawl.f-%05d.open", len(names))), []byte("partial"), 0o644)
	if err := runFollow(t, st, dir, put(6, 9)); err != nil {
		t.Fatal(err)
	}
	names, uris = followed(t, dir)
	want := []string{}
	for i := range 9 {
		want = append(want, fmt.Sprintf("http://news.example/a%d", i))
	}
	if strings.Join(uris, " ") != strings.Join(want, " ") {
		t.Errorf("responses %v, want each page once, in order", uris)
	}
	for _, n := range names {
		if !strings.HasSuffix(n, ".warc.gz") {
			t.Errorf("file %s left", n)
		}
	}
	if err := Follow(ctx, st, FollowOptions{Dataset: "crawl:f"}); err == nil {
		t.Error("Follow without a folder: no error")
	}
}

// lateStore is a real store whose readers do not see the pages in hidden
// yet: what PostgreSQL shows while the transaction that wrote a page with
// a lower ID is still open and one with a higher ID has committed.
type lateStore struct {
	store.Store
	mu     sync.Mutex
	hidden map[int64]bool
}

func (s *lateStore) Pages(ctx context.Context, q store.PageQuery) ([]*store.Page, error) {
	pages, err := s.Store.Pages(ctx, q)
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.DeleteFunc(pages, func(p *store.Page) bool { return s.hidden[p.ID] }), err
}

// commit makes page id visible.
func (s *lateStore) commit(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.hidden, id)
}

// TestFollowOutOfOrder commits a page after pages with higher IDs while
// Follow runs: it is written, whether it commits while Follow runs (every
// page once) or only after Follow was killed (the files a kill leaves
// name a mark below it; the pages above the mark may be written twice,
// none is lost).
func TestFollowOutOfOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		kill bool // the late page commits after Follow was killed
	}{{"while running", false}, {"after a kill", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			st := &lateStore{Store: db, hidden: map[int64]bool{}}
			pages := []*store.Page{followPage(0), followPage(1), followPage(2)}
			if err := db.PutPages(ctx, pages[:1]); err != nil {
				t.Fatal(err)
			}
			st.hidden[pages[0].ID] = true // its transaction is still open
			dir, killed := t.TempDir(), t.TempDir()
			err = runFollowWith(t, st, dir, func() {
				if err := db.PutPages(ctx, pages[1:]); err != nil {
					t.Error(err)
				}
				waitFinished(dir)            // the higher IDs written first
				copyFinished(t, dir, killed) // what a kill now would leave
				st.commit(pages[0].ID)
			})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"http://news.example/a0", "http://news.example/a1", "http://news.example/a2"}
			if tc.kill {
				dir = killed
				if err := runFollowWith(t, st, dir, func() {}); err != nil {
					t.Fatal(err)
				}
			}
			_, uris := followed(t, dir)
			got := slices.Compact(slices.Sorted(slices.Values(uris)))
			if !slices.Equal(got, want) || !tc.kill && len(uris) != len(want) {
				t.Errorf("responses %v, want each of %v (once without a kill)", uris, want)
			}
		})
	}
}

// waitFinished waits (up to 10 s: a loaded machine) until dir holds a
// finished WARC file.
func waitFinished(dir string) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if names, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz")); len(names) > 0 {
			return
		}
	}
}

// copyFinished copies the finished WARC files of dir into to.
func copyFinished(t *testing.T, dir, to string) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(names) == 0 {
		t.Fatalf("no finished file in %s", dir)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, filepath.Base(n)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFollowSettle moves the mark past the pages seen before the cutoff
// and keeps only the pages above it, so that what Follow looks at again
// stays bounded by what it saw within Settle.
func TestFollowSettle(t *testing.T) {
	now := time.Now()
	old, fresh := now.Add(-2*time.Minute), now
	for _, tc := range []struct {
		name   string
		after  int64
		recent map[int64]time.Time
		mark   int64
		left   []int64
	}{
		{"none seen", 4, map[int64]time.Time{}, 4, nil},
		{"all fresh", 4, map[int64]time.Time{5: fresh, 7: fresh}, 4, []int64{5, 7}},
		{"old below fresh", 4, map[int64]time.Time{5: old, 6: fresh, 9: fresh}, 5, []int64{6, 9}},
		{"fresh below old", 4, map[int64]time.Time{5: fresh, 8: old, 9: fresh}, 8, []int64{9}},
		{"all old", 4, map[int64]time.Time{5: old, 8: old}, 8, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &follower{after: tc.after, recent: tc.recent}
			f.settle(now.Add(-time.Minute))
			left := slices.Sorted(maps.Keys(f.recent))
			if f.after != tc.mark || !slices.Equal(left, tc.left) {
				t.Errorf("mark %d, left %v; want %d, %v", f.after, left, tc.mark, tc.left)
			}
		})
	}
}

// TestFilePrefix checks that datasets never share a file prefix, nor
// one prefix followed by '-' start another's file names: each Follow
// on one folder finds only its own files.
func TestFilePrefix(t *testing.T) {
	tests := []struct{ a, b string }{
		{"monitor:x-hubs", "monitor:x:hubs"},
		{"monitor:x", "monitor:x-1"},
		{"crawl:a.b", "crawl:a-b"},
		{"crawl:a b", "crawl:a_b"},
		{"crawl:a~2d", "crawl:a-"},
	}
	for _, tc := range tests {
		pa, pb := filePrefix(tc.a), filePrefix(tc.b)
		if pa == pb {
			t.Errorf("%q and %q share the prefix %q", tc.a, tc.b, pa)
		}
		for _, p := range []string{pa, pb} {
			if strings.ContainsAny(p, "-/ ") {
				t.Errorf("prefix %q holds a separator", p)
			}
		}
		if strings.HasPrefix(pb, pa+"-") || strings.HasPrefix(pa, pb+"-") {
			t.Errorf("%q and %q: one prefix starts the other's files", pa, pb)
		}
	}
}

// TestFollowPrefixesApart follows monitor "x-hubs" and monitor x's hubs
// into one folder: each writes its own pages only, and a rerun of either
// resumes from its own files (before, both were monitor-x-hubs-N and the
// second took the first's files for its own).
func TestFollowPrefixesApart(t *testing.T) {
	ctx := context.Background()
	st := tempStore(t)
	a, b := followPage(1), followPage(2)
	a.Dataset, b.Dataset = "monitor:x-hubs", "monitor:x:hubs"
	// b has the lower ID: a Follow that took a's file for its own would
	// resume above b and skip it.
	if err := st.PutPages(ctx, []*store.Page{b, a}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, ds := range []string{a.Dataset, b.Dataset} {
		c, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- Follow(c, st, FollowOptions{Dir: dir, Dataset: ds, Every: 10 * time.Millisecond}) }()
		time.Sleep(100 * time.Millisecond)
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	names, uris := followed(t, dir)
	slices.Sort(uris)
	if len(names) != 2 || !slices.Equal(uris, []string{a.URL, b.URL}) {
		t.Fatalf("files %v hold %v, want one file per dataset holding %s and %s", names, uris, a.URL, b.URL)
	}
}
