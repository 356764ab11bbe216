package store_test

import (
	"context"
	"testing"

	"github.com/gleaner/gleaner/store"
)

// TestOpenReadOnly reads a database through OpenReadOnly, which refuses
// writes and a database without the store's schema.
func TestOpenReadOnly(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, dsn := openTemp(t, b)
		if err := db.PutPages(ctx, []*store.Page{{URL: "http://r.example/", RawHTML: []byte("r")}}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		ro, err := store.OpenReadOnly(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		if ps, err := ro.Pages(ctx, store.PageQuery{WithContent: true}); err != nil || len(ps) != 1 || string(ps[0].RawHTML) != "r" {
			t.Errorf("read-only pages: %d (%v), want 1", len(ps), err)
		}
		if err := ro.PutPages(ctx, []*store.Page{{URL: "http://r.example/2", RawHTML: []byte("2")}}); err == nil {
			t.Error("write through a read-only store succeeded")
		}
		if db, err := store.OpenReadOnly(ctx, b.fresh(t)); err == nil {
			db.Close()
			t.Error("read-only open of a database without the store's schema succeeded")
		}
	})
}
