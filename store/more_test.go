package store_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/gleaner/gleaner/store"
)

func TestMigrationsFromEmptyAndReopen(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, path := openTemp(t, b)
		v, err := db.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v < 1 {
			t.Fatalf("schema version %d after open of an empty file", v)
		}
		p := &store.Page{URL: "http://example.org/x", RawHTML: []byte("<p>x</p>")}
		if err := db.PutPages(ctx, []*store.Page{p}); err != nil {
			t.Fatal(err)
		}
		db.Close()

		db2, err := store.Open(ctx, path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		defer db2.Close()
		v2, err := db2.SchemaVersion(ctx)
		if err != nil || v2 != v {
			t.Fatalf("reopen: schema version %d (%v), want %d", v2, err, v)
		}
		var n int
		if err := db2.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE component = 'store'`).Scan(&n); err != nil || n != v {
			t.Fatalf("schema_migrations has %d rows (%v), want %d: a reopen must not re-apply", n, err, v)
		}
		got, err := db2.Page(ctx, p.ID)
		if err != nil || string(got.RawHTML) != "<p>x</p>" {
			t.Fatalf("page after reopen: %+v %v", got, err)
		}
		if b.name != "sqlite" {
			return
		}
		var mode string
		if err := db2.SQL().QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode %q (%v), want wal", mode, err)
		}
	})
}

func TestNewerSchemaRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, path := openTemp(t, b)
		if _, err := db.SQL().ExecContext(ctx, `INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ('store', 999, 'future', 0)`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if db2, err := store.Open(ctx, path); err == nil {
			db2.Close()
			t.Fatal("opening a database with a newer schema succeeded")
		}
	})
}

func TestComponentMigrate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, path := openTemp(t, b)
		v1 := []store.Migration{{Version: 1, Name: "frontier", Statements: []string{
			`CREATE TABLE frontier (id {{id}}, url TEXT NOT NULL UNIQUE, page_id BIGINT REFERENCES pages(id), body {{blob}})`,
		}}}
		if err := db.Migrate(ctx, "crawler", v1); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SQL().ExecContext(ctx, db.Rebind(`INSERT INTO frontier (url) VALUES (?)`), "http://a.example/"); err != nil {
			t.Fatal(err)
		}
		v2 := append(v1, store.Migration{Version: 2, Name: "priority", Statements: []string{
			`ALTER TABLE frontier ADD COLUMN priority DOUBLE PRECISION NOT NULL DEFAULT 0`,
		}})
		db.Close()
		db, err := store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for range 2 { // the second call is a no-op
			if err := db.Migrate(ctx, "crawler", v2); err != nil {
				t.Fatal(err)
			}
		}
		var url string
		var prio float64
		if err := db.SQL().QueryRowContext(ctx, `SELECT url, priority FROM frontier`).Scan(&url, &prio); err != nil || url != "http://a.example/" {
			t.Fatalf("frontier row after migration 2: %q %v %v", url, prio, err)
		}
		if err := db.Migrate(ctx, "crawler", v1); err == nil {
			t.Error("an older program's migrations were accepted on a newer schema")
		}
		for _, tc := range []struct {
			component string
			ms        []store.Migration
		}{
			{"store", v1},
			{"", v1},
			{"gap", []store.Migration{{Version: 2, Name: "x"}}},
			{"bad sql", []store.Migration{{Version: 1, Name: "x", Statements: []string{"CREATE TABLE ("}}}},
		} {
			if err := db.Migrate(ctx, tc.component, tc.ms); err == nil {
				t.Errorf("Migrate(%q) succeeded", tc.component)
			}
		}
		// A failed migration leaves nothing behind.
		var n int
		if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE component = 'bad sql'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("failed migration recorded: %d %v", n, err)
		}
	})
}

func TestOpenBadPath(t *testing.T) {
	ctx := context.Background()
	for _, path := range []string{"", filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")} {
		if db, err := store.Open(ctx, path); err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", path)
		}
	}
}

func TestPutPagesIdempotent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		mk := func(body string) []*store.Page {
			return []*store.Page{
				{URL: "http://a.example.com/1", Dataset: "d", ManifestID: "one", RawHTML: []byte(body), Gold: &store.Gold{Title: body}},
				// Same URL, other id: a distinct page (datasets hold captures of
				// one dynamic URL at different times).
				{URL: "http://a.example.com/1", Dataset: "d", ManifestID: "two", RawHTML: []byte(body + "2")},
				// No id: identified by URL.
				{URL: "http://b.example.com/", RawHTML: []byte(body)},
			}
		}
		first := mk("v1")
		if err := db.PutPages(ctx, first); err != nil {
			t.Fatal(err)
		}
		second := mk("v2")
		if err := db.PutPages(ctx, second); err != nil {
			t.Fatal(err)
		}
		for i := range first {
			if first[i].ID != second[i].ID {
				t.Errorf("page %d: ID %d then %d", i, first[i].ID, second[i].ID)
			}
		}
		all, err := db.Pages(ctx, store.PageQuery{WithContent: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 3 {
			t.Fatalf("%d pages after two puts, want 3", len(all))
		}
		if string(all[0].RawHTML) != "v2" || all[0].Gold.Title != "v2" || all[0].Hash != store.ContentHash([]byte("v2")) {
			t.Errorf("page not updated: %q %+v %s", all[0].RawHTML, all[0].Gold, all[0].Hash)
		}
		if !all[0].CreatedAt.Equal(first[0].CreatedAt) {
			t.Errorf("created_at changed on update: %v -> %v", first[0].CreatedAt, all[0].CreatedAt)
		}
		sites, err := db.Sites(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range sites {
			got = append(got, fmt.Sprintf("%s:%d", s.Name, s.Pages))
		}
		// a.example.com and b.example.com share the registrable domain.
		want := []string{"example.com:3"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("sites %v, want %v", got, want)
		}
	})
}

func TestPutPagesBadInput(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		for _, tc := range []struct {
			name string
			page *store.Page
		}{
			{"nil", nil},
			{"empty URL", &store.Page{ManifestID: "x"}},
			{"no host", &store.Page{URL: "file:///etc/passwd"}},
		} {
			good := &store.Page{URL: "http://ok.example/1", RawHTML: []byte("ok")}
			if err := db.PutPages(ctx, []*store.Page{good, tc.page}); err == nil {
				t.Errorf("%s: PutPages succeeded", tc.name)
			}
		}
		// The good pages of failed batches were not stored either.
		ps, err := db.Pages(ctx, store.PageQuery{})
		if err != nil || len(ps) != 0 {
			t.Errorf("after failed puts: %d pages (%v), want 0", len(ps), err)
		}
	})
}

func TestPagesQuery(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		var pages []*store.Page
		for i := range 1200 {
			site := []string{"one.example", "two.example"}[i%2]
			pages = append(pages, &store.Page{URL: fmt.Sprintf("http://%s/%d", site, i), Label: fmt.Sprint(i % 3), RawHTML: []byte(fmt.Sprint(i))})
		}
		if err := db.PutPages(ctx, pages); err != nil {
			t.Fatal(err)
		}
		count := func(q store.PageQuery) int {
			t.Helper()
			ps, err := db.Pages(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(ps); i++ {
				if ps[i].ID <= ps[i-1].ID {
					t.Fatalf("pages not in ID order")
				}
			}
			return len(ps)
		}
		ids := make([]int64, 0, 700)
		for _, p := range pages[:700] {
			ids = append(ids, p.ID)
		}
		for _, tc := range []struct {
			name string
			q    store.PageQuery
			want int
		}{
			{"all", store.PageQuery{}, 1200},
			{"site", store.PageQuery{Site: "one.example"}, 600},
			{"site+label", store.PageQuery{Site: "one.example", Label: "0"}, 200},
			{"limit", store.PageQuery{Limit: 7}, 7},
			{"after", store.PageQuery{AfterID: pages[1199].ID - 10}, 10},
			{"ids over one IN list", store.PageQuery{IDs: ids}, 700},
			{"ids and site", store.PageQuery{IDs: ids, Site: "two.example"}, 350},
			{"ids and limit", store.PageQuery{IDs: ids, Limit: 600}, 600},
			{"dataset absent", store.PageQuery{Dataset: "none"}, 0},
		} {
			if got := count(tc.q); got != tc.want {
				t.Errorf("%s: %d pages, want %d", tc.name, got, tc.want)
			}
		}
		meta, err := db.Pages(ctx, store.PageQuery{Limit: 1})
		if err != nil || meta[0].RawHTML != nil || meta[0].Hash == "" {
			t.Errorf("metadata query: %+v %v: want no HTML but a hash", meta[0], err)
		}
	})
}

func TestDistanceCache(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		h := func(i int) string { return store.ContentHash([]byte(fmt.Sprint(i))) }
		var ds []store.Distance
		var pairs []store.Pair
		for i := range 80 {
			for j := i + 1; j < 80; j++ {
				// Written in both orders: the cache must canonicalise, swapping
				// node counts along.
				a, b, na, nb := h(i), h(j), i, j
				if (i+j)%2 == 0 {
					a, b, na, nb = b, a, nb, na
				}
				ds = append(ds, store.Distance{Pair: store.Pair{A: a, B: b}, View: "tag", Distance: float64(i*100+j) / 1e4, NodesA: na, NodesB: nb})
				pairs = append(pairs, store.Pair{A: h(j), B: h(i)})
			}
		}
		if err := db.PutDistances(ctx, ds); err != nil {
			t.Fatal(err)
		}
		missing := store.Pair{A: h(1), B: h(1000)}
		got, err := db.Distances(ctx, "tag", append(pairs, missing))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(pairs) {
			t.Fatalf("%d distances, want %d", len(got), len(pairs))
		}
		if _, ok := got[store.MakePair(missing.A, missing.B)]; ok {
			t.Error("a pair never stored was found")
		}
		for i := range 80 {
			for j := i + 1; j < 80; j++ {
				d, ok := got[store.MakePair(h(i), h(j))]
				if !ok {
					t.Fatalf("pair %d,%d missing", i, j)
				}
				na, nb := d.NodesA, d.NodesB
				if d.A != h(i) {
					na, nb = nb, na
				}
				if d.Distance != float64(i*100+j)/1e4 || na != i || nb != j {
					t.Fatalf("pair %d,%d: %+v", i, j, d)
				}
			}
		}
		other, err := db.Distances(ctx, "token", pairs[:10])
		if err != nil || len(other) != 0 {
			t.Errorf("other view: %d distances (%v), want 0", len(other), err)
		}
		// Replacing keeps one row per pair.
		if err := db.PutDistances(ctx, []store.Distance{{Pair: store.Pair{A: h(1), B: h(0)}, View: "tag", Distance: 0.5, NodesA: 1, NodesB: 0}}); err != nil {
			t.Fatal(err)
		}
		got, err = db.Distances(ctx, "tag", []store.Pair{{A: h(0), B: h(1)}})
		if err != nil || got[store.MakePair(h(0), h(1))].Distance != 0.5 {
			t.Errorf("replaced distance: %+v %v", got, err)
		}
		for _, bad := range []store.Distance{
			{Pair: store.Pair{A: "a", B: "b"}, Distance: 1},
			{Pair: store.Pair{A: "a"}, View: "tag"},
			{Pair: store.Pair{A: "a", B: "b"}, View: "tag", Distance: math.NaN()},
		} {
			if err := db.PutDistances(ctx, []store.Distance{bad}); err == nil {
				t.Errorf("PutDistances(%+v) succeeded", bad)
			}
		}
	})
}

func TestExtractionsAndRules(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		pages := []*store.Page{{URL: "http://s.example/1", RawHTML: []byte("1")}, {URL: "http://t.example/2", RawHTML: []byte("2")}}
		if err := db.PutPages(ctx, pages); err != nil {
			t.Fatal(err)
		}
		run := &store.Run{Site: "s.example", Seed: 1}
		if err := db.CreateRun(ctx, run); err != nil {
			t.Fatal(err)
		}
		xs := []store.Extraction{
			{PageID: pages[0].ID, RunID: run.ID, Title: "T", Body: "B\n\nC", Selector: "div.article", Confidence: 0.9, Method: "pair", Date: "2009-01-02", Author: "A"},
			{PageID: pages[0].ID, Title: "T0", Method: "single"},
			{PageID: pages[1].ID, Title: "U", Method: "single"},
		}
		if err := db.PutExtractions(ctx, xs); err != nil {
			t.Fatal(err)
		}
		xs[0].Body = "B2"
		if err := db.PutExtractions(ctx, xs[:1]); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			q    store.ExtractionQuery
			want int
		}{
			{store.ExtractionQuery{}, 3},
			{store.ExtractionQuery{Site: "s.example"}, 2},
			{store.ExtractionQuery{RunID: run.ID}, 1},
			{store.ExtractionQuery{PageID: pages[1].ID}, 1},
		} {
			got, err := db.Extractions(ctx, tc.q)
			if err != nil || len(got) != tc.want {
				t.Errorf("Extractions(%+v): %d (%v), want %d", tc.q, len(got), err, tc.want)
			}
		}
		got, _ := db.Extractions(ctx, store.ExtractionQuery{RunID: run.ID})
		if len(got) == 1 && (got[0].Body != "B2" || got[0].Selector != "div.article" || got[0].Confidence != 0.9 || got[0].Author != "A" || got[0].CreatedAt.IsZero()) {
			t.Errorf("extraction = %+v", got[0])
		}
		if err := db.PutExtractions(ctx, []store.Extraction{{PageID: 9999}}); err == nil {
			t.Error("extraction of a missing page accepted (foreign keys off?)")
		}

		rules := []store.Rule{
			{Site: "s.example", RunID: run.ID, Cluster: 0, Field: "body", Selector: "div.article", Support: 0.8},
			{Site: "s.example", RunID: run.ID, Cluster: 0, Field: "title", Selector: "h1", Support: 1},
		}
		if err := db.PutRules(ctx, rules); err != nil {
			t.Fatal(err)
		}
		if err := db.PutRules(ctx, rules[:1]); err != nil {
			t.Fatal(err)
		}
		gr, err := db.Rules(ctx, run.ID)
		if err != nil || !reflect.DeepEqual(gr, rules[:1]) {
			t.Errorf("rules = %+v (%v), want %+v", gr, err, rules[:1])
		}
		if err := db.PutRules(ctx, []store.Rule{{Site: "s.example", RunID: 12345, Field: "body"}}); err == nil {
			t.Error("rule of a missing run accepted")
		}
	})
}

func TestFinishRunBadInput(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		if err := db.FinishRun(ctx, &store.Run{Site: "x"}, nil, nil); err == nil {
			t.Error("FinishRun without ID succeeded")
		}
		if err := db.FinishRun(ctx, &store.Run{ID: 42, Site: "x"}, nil, nil); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FinishRun of a missing run: %v, want ErrNotFound", err)
		}
		r := &store.Run{Site: "x.example"}
		if err := db.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		err := db.FinishRun(ctx, r, nil, []store.Membership{{PageID: 777}})
		if err == nil {
			t.Fatal("membership of a missing page accepted")
		}
		// The failed finish left the run as it was.
		got, err := db.Run(ctx, r.ID)
		if err != nil || got.Status != store.RunRunning {
			t.Errorf("run after failed finish: %+v %v", got, err)
		}
		if err := db.CreateRun(ctx, &store.Run{Site: "x.example", Params: []byte("{bad")}); err == nil {
			t.Error("invalid params JSON accepted")
		}
		runs, err := db.Runs(ctx, "")
		if err != nil || len(runs) != 1 {
			t.Errorf("Runs: %d (%v), want 1", len(runs), err)
		}
		if _, err := db.LatestRun(ctx, "x.example", store.RunDone); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LatestRun done: %v, want ErrNotFound", err)
		}
	})
}

// TestConcurrentWriters writes from several goroutines through two handles
// on one file, as two processes would: WAL and the busy timeout must
// serialise them without "database is locked".
func TestConcurrentWriters(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db1, db2 := openTwice(t, b)
		const writers, perWriter = 8, 25
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			db := []*store.DB{db1, db2}[w%2]
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range perWriter {
					p := &store.Page{URL: fmt.Sprintf("http://w%d.example/%d", w, i), RawHTML: []byte(fmt.Sprint(w, i))}
					if err := db.PutPages(ctx, []*store.Page{p}); err != nil {
						errs <- err
						return
					}
					d := store.Distance{Pair: store.MakePair(p.Hash, "x"), View: "tag", Distance: 0.1}
					if err := db.PutDistances(ctx, []store.Distance{d}); err != nil {
						errs <- err
						return
					}
					if _, err := db.Pages(ctx, store.PageQuery{Site: fmt.Sprintf("w%d.example", w)}); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		var n int
		if err := db1.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM pages`).Scan(&n); err != nil || n != writers*perWriter {
			t.Errorf("%d pages (%v), want %d", n, err, writers*perWriter)
		}
		if err := db2.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM distances`).Scan(&n); err != nil || n != writers*perWriter {
			t.Errorf("%d distances (%v), want %d", n, err, writers*perWriter)
		}
	})
}

func TestContextCanceled(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		db, _ := openTemp(t, b)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := db.PutPages(ctx, []*store.Page{{URL: "http://c.example/", RawHTML: []byte("x")}})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("PutPages with canceled context: %v", err)
		}
		if _, err := db.Pages(ctx, store.PageQuery{}); !errors.Is(err, context.Canceled) {
			t.Errorf("Pages with canceled context: %v", err)
		}
	})
}

func TestOpenMemory(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PutPages(ctx, []*store.Page{{URL: "http://m.example/", RawHTML: []byte("m")}}); err != nil {
		t.Fatal(err)
	}
	// Several queries in a row must see the same database.
	for range 3 {
		if ps, err := db.Pages(ctx, store.PageQuery{}); err != nil || len(ps) != 1 {
			t.Fatalf("%d pages (%v), want 1", len(ps), err)
		}
	}
	if _, err := db.Distances(ctx, "tag", []store.Pair{{A: "a", B: "b"}}); err != nil {
		t.Fatal(err)
	}
}

func TestOpenOddPaths(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"with space.db", "q?mark.db", "hash#.db", "pct%20.db", "é.db"} {
		path := filepath.Join(t.TempDir(), name)
		db, err := store.Open(ctx, path)
		if err != nil {
			t.Errorf("Open(%q): %v", name, err)
			continue
		}
		db.Close()
		if _, err := os.Stat(path); err != nil {
			t.Errorf("Open(%q) did not create that file: %v", name, err)
		}
	}
}

// TestConcurrentOverlappingBatches writes the same pages from two handles in
// opposite orders: PostgreSQL breaks the deadlocks this makes by rolling one
// transaction back, which the store runs again.
func TestConcurrentOverlappingBatches(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db1, db2 := openTwice(t, b)
		const rounds, perBatch = 5, 20
		for r := range rounds {
			var wg sync.WaitGroup
			errs := make(chan error, 2)
			for w, db := range []*store.DB{db1, db2} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var batch []*store.Page
					for i := range perBatch {
						if w == 1 {
							i = perBatch - 1 - i
						}
						batch = append(batch, &store.Page{URL: fmt.Sprintf("http://s%d.example/%d", i%3, i), RawHTML: []byte(fmt.Sprint(w, r, i))})
					}
					errs <- db.PutPages(ctx, batch)
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatalf("round %d: %v", r, err)
				}
			}
		}
		if ps, err := db1.Pages(ctx, store.PageQuery{}); err != nil || len(ps) != perBatch {
			t.Errorf("%d pages (%v), want %d", len(ps), err, perBatch)
		}
	})
}
