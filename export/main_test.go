package export

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/storetest"
)

// TestMain stops the throwaway PostgreSQL cluster a test started.
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// tempStore opens a fresh SQLite store, closed when t ends.
func tempStore(t *testing.T) *store.DB {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
