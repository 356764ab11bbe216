package store_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/internal/pgtest"
)

// TestPostgresOpenByURL opens PostgreSQL for both URL schemes and creates
// the schema with PostgreSQL's types for {{id}} and {{blob}}.
func TestPostgresOpenByURL(t *testing.T) {
	ctx := context.Background()
	base := pgtest.URL(t)
	for _, scheme := range []string{"postgres://", "postgresql://"} {
		dsn := scheme + strings.TrimPrefix(base, "postgres://")
		if !store.IsPostgresURL(dsn) {
			t.Fatalf("IsPostgresURL(%q) = false", dsn)
		}
		db, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatalf("Open(%s…): %v", scheme, err)
		}
		defer db.Close()
		for col, want := range map[string]string{"id": "bigint", "raw_html": "bytea", "url": "text"} {
			var got string
			if err := db.SQL().QueryRowContext(ctx, db.Rebind(`SELECT data_type FROM information_schema.columns
				WHERE table_schema = current_schema() AND table_name = 'pages' AND column_name = ?`), col).Scan(&got); err != nil || got != want {
				t.Errorf("%s: pages.%s is %q (%v), want %s", scheme, col, got, err, want)
			}
		}
	}
	for _, path := range []string{"gleaner.db", "/tmp/postgres/x.db", "postgres.db"} {
		if store.IsPostgresURL(path) {
			t.Errorf("IsPostgresURL(%q) = true", path)
		}
	}
}

// TestPostgresOpenRedactsPassword keeps a URL's password out of errors.
func TestPostgresOpenRedactsPassword(t *testing.T) {
	_, err := store.Open(context.Background(), "postgres://u:s3cret@127.0.0.1:1/none?sslmode=disable&connect_timeout=5")
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error shows the password: %v", err)
	}
}

// TestConcurrentOpen opens one new database from several handles at once,
// as processes started together would: the migrations run once.
func TestConcurrentOpen(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.fresh(t)
		const n = 6
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := store.Open(ctx, dsn)
				if err == nil {
					err = db.Migrate(ctx, "crawler", []store.Migration{{Version: 1, Name: "t", Statements: []string{`CREATE TABLE t (id {{id}})`}}})
					db.Close()
				}
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		db, _ := openTemp(t, backend{fresh: func(testing.TB) string { return dsn }})
		var rows, v int
		if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*), MAX(version) FROM schema_migrations WHERE component = 'store'`).Scan(&rows, &v); err != nil || rows != v {
			t.Errorf("schema_migrations: %d rows for version %d (%v): a migration ran twice", rows, v, err)
		}
	})
}
