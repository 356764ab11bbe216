package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDir checks that Dir finds a folder several levels up and that it skips,
// rather than fails, when the folder is absent.
func TestDir(t *testing.T) {
	root := t.TempDir()
	want := filepath.Join(root, "shared", "data", "set")
	deep := filepath.Join(root, "repo", "pkg", "sub")
	for _, d := range []string{want, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(deep)
	if got := Dir(t, "set"); got != want {
		t.Errorf("Dir = %q, want %q", got, want)
	}
	skipped := true
	t.Run("absent", func(t *testing.T) {
		Dir(t, "no-such-set")
		skipped = false
	})
	if !skipped {
		t.Error("Dir returned for an absent folder instead of skipping")
	}
}
