package monitor

import (
	"context"
	"os"
	"testing"

	"github.com/gleaner/gleaner/store/storetest"
)

// TestMain stops the throwaway PostgreSQL cluster the tests may start.
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// TestPostgresRounds runs the rounds of TestRounds on PostgreSQL.
func TestPostgresRounds(t *testing.T) {
	srv := newsroom(t)
	ctx := context.Background()
	m, err := Open(ctx, openDB(t, storetest.PostgresURL(t)), config(srv))
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
