// Package atomicfile writes files and folders whole or not at all: through
// a temporary name beside the target, moved into place only when the
// write succeeded, so that an interrupted or failed write leaves no
// truncated file under the name (and an older one untouched).
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes path with write through a temporary file in the same
// folder (created if missing), renamed to path only when write succeeded.
func Write(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	err = f.Chmod(0o644)
	if err == nil {
		err = write(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.Rename(f.Name(), path)
}

// IntoFolder runs write on a temporary folder beside out and moves what
// it wrote into out (created if missing) only when it succeeded.
func IntoFolder(out string, write func(tmp string) error) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(out)), "."+filepath.Base(filepath.Clean(out))+".part-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := write(tmp); err != nil {
		return err
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(tmp, e.Name()), filepath.Join(out, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
