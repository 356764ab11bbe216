package monitor

import (
	"os"
	"testing"

	"github.com/gleaner/gleaner/store/storetest"
)

// TestMain stops the throwaway PostgreSQL cluster the tests may start.
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// TestPostgresRounds runs the rounds of TestRounds on PostgreSQL.
func TestPostgresRounds(t *testing.T) {
	checkRounds(t, storetest.PostgresURL(t))
}
