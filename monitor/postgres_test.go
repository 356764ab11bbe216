package monitor

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

// postgresURL returns a fresh schema on the PostgreSQL server named by
// GLEANER_TEST_POSTGRES (as the store's tests use it), or skips: the
// store's throwaway-cluster helper is internal to package store.
func postgresURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv("GLEANER_TEST_POSTGRES")
	if base == "" {
		t.Skip("GLEANER_TEST_POSTGRES not set")
	}
	ctx := context.Background()
	admin, err := store.Open(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	schema := fmt.Sprintf("monitor_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := admin.SQL().ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.SQL().Exec("DROP SCHEMA " + schema + " CASCADE") })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestRoundsPostgres runs the rounds of TestRounds on PostgreSQL.
func TestRoundsPostgres(t *testing.T) {
	srv := newsroom(t)
	ctx := context.Background()
	m, err := Open(ctx, openDB(t, postgresURL(t)), config(srv))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for round := 1; round <= 3; round++ {
		srv.SetRound(round - 1)
		srv.ResetHits()
		rep, err := m.Round(ctx)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		p, r, missed, extra := srv.NewsScore(round-1, urls(rep.Documents))
		if p != 1 || r != 1 || srv.Refetches(srv.Hits(), known, round-1) != 0 || rep.Errors != 0 {
			t.Errorf("round %d: precision %.3f recall %.3f, missed %v, extra %v, errors %d", round, p, r, missed, extra, rep.Errors)
		}
	}
}
