package chromeproc

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gleaner/gleaner/process"
)

// DirPrefix starts the name of every user data directory this package
// creates; the owner's pid follows, so a later program can tell the
// leftovers of a dead one (see SweepStale).
const DirPrefix = "gleaner-chromium-"

// ProcsUsingDir returns the pids of the processes whose command line has
// --user-data-dir=dir. Chromium passes the flag to its helper processes, so
// this finds a browser's whole tree even when its parent is gone.
func ProcsUsingDir(dir string) []int {
	want := "--user-data-dir=" + dir
	return ProcsWithArg(func(arg string) bool { return arg == want })
}

// ProcsWithArg returns the pids of the live processes (other than this
// one) with a command-line argument for which match is true.
func ProcsWithArg(match func(arg string) bool) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for arg := range bytes.SplitSeq(cmdline, []byte{0}) {
			if match(string(arg)) {
				if process.Alive(pid) {
					pids = append(pids, pid)
				}
				break
			}
		}
	}
	return pids
}

// KillTree kills the process group pgid (0: none) and every process still
// using dir, looking again until nothing is found for a few passes, because a
// helper can fork while its parent dies.
func KillTree(pgid int, dir string) {
	if pgid > 0 {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	if dir == "" {
		return
	}
	deadline := time.Now().Add(3 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		pids := ProcsUsingDir(dir)
		if len(pids) == 0 {
			quiet++
			continue
		}
		quiet = 0
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// SweepStale kills the Chromium processes and removes the user data
// directories left by programs of this package that died without cleaning
// up (SIGKILL, OOM): directories named DirPrefix+pid+... whose pid is gone.
func SweepStale() {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, DirPrefix) {
			continue
		}
		rest := strings.TrimPrefix(name, DirPrefix)
		i := strings.IndexByte(rest, '-')
		if i <= 0 {
			continue
		}
		pid, err := strconv.Atoi(rest[:i])
		if err != nil || pid == os.Getpid() || process.Alive(pid) {
			continue
		}
		dir := filepath.Join(os.TempDir(), name)
		KillTree(0, dir)
		os.RemoveAll(dir)
	}
}

// Descendants returns pid and every process below it in the process tree.
func Descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f := statFields(p)
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		children[ppid] = append(children[ppid], p)
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// TreeCPU is the CPU time (user and system) of pid and its Descendants
// so far, children they reaped included (a closed tab's renderer counts
// in its parent): what a browser costs, for benchmarks.
func TreeCPU(pid int) time.Duration {
	var ticks int64
	for _, p := range Descendants(pid) {
		f := statFields(p)
		if len(f) < 15 {
			continue
		}
		for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			v, _ := strconv.ParseInt(f[k], 10, 64)
			ticks += v
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// statFields are the fields of /proc/pid/stat after the command's name
// (state first), nil when it cannot be read.
func statFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// TreeMem returns the summed resident set size (RSS: shared pages counted
// once per process, as ps does) and proportional set size (PSS: shared
// pages split between their users, what the tree really costs), in bytes,
// of pid and all its Descendants.
func TreeMem(pid int) (rss, pss int64) {
	for _, p := range Descendants(pid) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/smaps_rollup")
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			switch f[0] {
			case "Rss:":
				rss += kb << 10
			case "Pss:":
				pss += kb << 10
			}
		}
	}
	return rss, pss
}
