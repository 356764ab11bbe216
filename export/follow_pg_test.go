package export

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/storetest"
)

// TestFollowLongTransaction follows a PostgreSQL store where a page's
// transaction draws its ID, then stays open far longer than Settle while
// a later page commits: Follow still archives it once it commits. Before,
// the mark passed it one Settle after the later page was seen, and the
// page, committed below the mark, was never written.
func TestFollowLongTransaction(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, storetest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PutPages(ctx, []*store.Page{followPage(0)}); err != nil {
		t.Fatal(err)
	}
	held := followPage(1)
	commit := holdPage(t, db, held)
	dir := t.TempDir()
	fctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- Follow(fctx, db, FollowOptions{Dir: dir, Dataset: "crawl:f", Every: 10 * time.Millisecond, Settle: 20 * time.Millisecond})
	}()
	if err := db.PutPages(ctx, []*store.Page{followPage(2)}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // many Settles: the mark passes page 2 on the old code
	commit()
	time.Sleep(300 * time.Millisecond)
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	_, uris := followed(t, dir)
	slices.Sort(uris)
	want := []string{"http://news.example/a0", "http://news.example/a1", "http://news.example/a2"}
	if !slices.Equal(uris, want) {
		t.Errorf("responses %v, want %v", uris, want)
	}
}

// holdPage inserts p and its exchange in a transaction left open (its ID
// drawn, not committed) and returns the function that commits it.
func holdPage(t *testing.T, db *store.DB, p *store.Page) func() {
	t.Helper()
	ctx := context.Background()
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UnixMilli()
	var id int64
	if err := tx.QueryRowContext(ctx, db.Rebind(`INSERT INTO pages (site, url, dataset, page_key, content_hash, created_at, updated_at)
		VALUES ('news.example', ?, 'crawl:f', ?, '', ?, ?) RETURNING id`), p.URL, p.URL, now, now).Scan(&id); err != nil {
		t.Fatal(err)
	}
	x := p.Exchanges[0]
	if _, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO exchanges (page_id, seq, url, method, sent_at, payload_sha256)
		VALUES (?, 0, ?, 'GET', ?, '')`), id, x.URL, now); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}
