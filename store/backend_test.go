package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/internal/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster after the tests.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// backend is one database the store runs on.
type backend struct {
	name string
	// fresh returns what store.Open takes to open a new, empty database
	// of this backend, private to t.
	fresh func(t testing.TB) string
}

// backends lists every backend; the store's tests run on each.
var backends = []backend{
	{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "test.db") }},
	{"postgres", pgtest.URL},
}

// forEachBackend runs f as a subtest per backend, named after it.
func forEachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b) })
	}
}

// openTemp opens a fresh database of b, closed when t ends, and returns it
// with the name to open it again.
func openTemp(t *testing.T, b backend) (*store.DB, string) {
	t.Helper()
	dsn := b.fresh(t)
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dsn
}

// openTwice opens a fresh database of b through two handles, as two
// processes would.
func openTwice(t *testing.T, b backend) (*store.DB, *store.DB) {
	t.Helper()
	db1, dsn := openTemp(t, b)
	db2, _ := openTemp(t, backend{fresh: func(testing.TB) string { return dsn }})
	return db1, db2
}
