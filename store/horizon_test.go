package store_test

import (
	"context"
	"testing"
)

// TestWriteHorizon takes the horizon while a write transaction is open:
// on PostgreSQL the writes end below it only once that transaction
// commits; on SQLite (pages commit in ID order) it is always passed.
func TestWriteHorizon(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		tx, err := db.SQL().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO sites (name, created_at) VALUES (?, 0)`), "held.example"); err != nil {
			t.Fatal(err)
		}
		h, err := db.WriteHorizon(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ended, err := db.WritesEndedBelow(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if pg := b.name == "postgres"; pg != (ended < h) {
			t.Errorf("%s, a write open: ended below %d, horizon %d", b.name, ended, h)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if ended, err = db.WritesEndedBelow(ctx); err != nil || ended < h {
			t.Errorf("%s, committed: ended below %d, horizon %d, %v", b.name, ended, h, err)
		}
	})
}
