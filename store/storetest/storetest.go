// Package storetest gives the tests of other packages the PostgreSQL
// databases the store's own tests use (store/internal/pgtest): a throwaway
// cluster per test binary, or the server of GLEANER_TEST_POSTGRES, and a
// fresh schema per test.
//
//	func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }
package storetest

import (
	"testing"

	"github.com/gleaner/gleaner/store/internal/pgtest"
)

// Main runs the tests of m, then stops the cluster if one was started.
func Main(m *testing.M) int { return pgtest.Main(m) }

// PostgresURL returns the URL of a new, empty schema for t, dropped when t
// ends (see pgtest.URL).
func PostgresURL(t testing.TB) string { return pgtest.URL(t) }
