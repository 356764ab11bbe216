package chromeproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startUsing starts a shell that sleeps, with --user-data-dir=dir on its
// command line as Chromium's processes have, and returns it.
func startUsing(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", "sleep 30; true", "--user-data-dir="+dir)
	SetProcAttr(cmd) // its own process group: its sleep dies with it
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	go cmd.Wait()
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return cmd
}

// TestSweepStale: the directory of a dead program is removed and the
// processes using it killed; that of a live program (this one) is left.
func TestSweepStale(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		pid  int
		kept bool
	}{{dead.ProcessState.Pid(), false}, {os.Getpid(), true}} {
		dir := filepath.Join(os.TempDir(), DirPrefix+strconv.Itoa(c.pid)+"-chromeproc-test")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		startUsing(t, dir)
		waitFor(t, func() bool { return len(ProcsUsingDir(dir)) == 1 })
		SweepStale()
		_, err := os.Stat(dir)
		if kept := err == nil; kept != c.kept {
			t.Errorf("pid %d: directory kept %v, want %v", c.pid, kept, c.kept)
		}
		if alive := len(ProcsUsingDir(dir)) > 0; alive != c.kept {
			t.Errorf("pid %d: its process alive %v, want %v", c.pid, alive, c.kept)
		}
	}
}

// TestKillTree: every process using the directory dies, its children
// included; the tree of a process lists its children.
func TestKillTree(t *testing.T) {
	dir := t.TempDir()
	cmd := startUsing(t, dir)
	waitFor(t, func() bool { return len(Descendants(cmd.Process.Pid)) >= 2 }) // sh and its sleep
	if rss, pss := TreeMem(cmd.Process.Pid); rss <= 0 || pss <= 0 {
		t.Errorf("TreeMem = %d, %d; want both > 0", rss, pss)
	}
	if RSS(cmd.Process.Pid) <= 0 || IsRenderer(cmd.Process.Pid) {
		t.Errorf("RSS %d, IsRenderer %v: want > 0, false", RSS(cmd.Process.Pid), IsRenderer(cmd.Process.Pid))
	}
	tree := Descendants(cmd.Process.Pid)
	KillTree(cmd.Process.Pid, dir)
	if left := ProcsUsingDir(dir); len(left) > 0 {
		t.Errorf("KillTree left %v", left)
	}
	waitFor(t, func() bool { return !anyAlive(tree) })
}

// anyAlive reports whether a process of pids runs (a zombie does not).
func anyAlive(pids []int) bool {
	for _, pid := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err == nil && !strings.Contains(string(b), ") Z ") {
			return true
		}
	}
	return false
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5 s")
		}
	}
}
