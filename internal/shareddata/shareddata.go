package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the folder shared/data/<name> found by walking up from the
// working directory (a package directory under test), so it is found from any
// depth of the module. It skips tb only when no such folder exists: the data
// lives beside the repository, not in it, and a fresh clone may lack it.
func Dir(tb testing.TB, name string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatalf("shared data %s: %v", name, err)
	}
	for {
		p := filepath.Join(dir, "shared", "data", name)
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skipf("shared/data/%s not found above %s", name, dir)
		}
		dir = parent
	}
}
