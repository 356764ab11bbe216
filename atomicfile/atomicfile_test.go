package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: a write that fails leaves nothing under the name (and an
// older file untouched); one that succeeds replaces it.
func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.txt")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "old"); return err }); err != nil {
		t.Fatal(err)
	}
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("interrupted")
	})
	if b, _ := os.ReadFile(path); err == nil || string(b) != "old" {
		t.Errorf("failed write: err %v, file %q", err, b)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*part*")); len(left) != 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// TestIntoFolder: a folder write that fails adds nothing to the folder;
// one that succeeds moves its files in beside those already there.
func TestIntoFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"a.txt", nil, []string{"a.txt"}},
		{"b.txt", errors.New("interrupted"), []string{"a.txt"}},
		{"c.txt", nil, []string{"a.txt", "c.txt"}},
	} {
		err := IntoFolder(out, func(tmp string) error {
			if err := os.WriteFile(filepath.Join(tmp, tc.name), []byte("x"), 0o644); err != nil {
				return err
			}
			return tc.err
		})
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.err)
		}
		entries, _ := os.ReadDir(out)
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if len(got) != len(tc.want) || got[len(got)-1] != tc.want[len(tc.want)-1] {
			t.Errorf("%s: folder holds %q, want %q", tc.name, got, tc.want)
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*part*")); len(left) != 0 {
			t.Errorf("%s: temporary folders left: %q", tc.name, left)
		}
	}
}
