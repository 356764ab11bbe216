package browser

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gleaner/gleaner/browser/chromeproc"
)

// TestNewDoesNotSweep: making a renderer leaves the leftovers of a dead
// program alone (no process is killed as a side effect); SweepStale,
// called explicitly, removes them.
func TestNewDoesNotSweep(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	dir := filepath.Join(os.TempDir(), chromeproc.DirPrefix+strconv.Itoa(dead.ProcessState.Pid())+"-sweep-test")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	r, err := New(Options{Tabs: 1})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("New swept a dead program's directory: %v", err)
	}
	SweepStale()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("SweepStale left %s: %v", dir, err)
	}
}
