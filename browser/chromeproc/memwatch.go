package chromeproc

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"syscall"
	"time"
)

// WatchEvery is how often MemWatch reads the memory of the browser's
// renderer processes while pages run: a script filling typed arrays (which
// --max-old-space-size does not bound) grows a renderer by a few hundred
// MiB a second.
const WatchEvery = 100 * time.Millisecond

// treeEvery is how many looks of MemWatch reuse the list of the browser's
// processes: a new renderer is seen within treeEvery looks.
const treeEvery = 2

// MemWatch watches the renderer processes of one browser and kills one
// over its memory bound (its tabs crash).
type MemWatch struct {
	PID   int   // the browser's
	Bound int64 // a renderer's resident memory bound in bytes
	// Busy reports whether pages are in progress: memory is read only then.
	Busy func() bool
	// Killed is told of each renderer killed, after the kill.
	Killed func(pid int, rss int64)
	// Total is told the tree's summed resident memory after each look.
	Total func(rss int64)
}

// Run reads, every WatchEvery while w.Busy, the resident memory of each
// process of the browser's tree and kills the renderers over w.Bound. It
// returns when ctx ends (the browser's context: when the browser ends).
func (w MemWatch) Run(ctx context.Context) {
	t := time.NewTicker(WatchEvery)
	defer t.Stop()
	var tree []int
	for tick := 0; ; tick++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !w.Busy() {
			tree = nil
			continue
		}
		if tree == nil || tick%treeEvery == 0 {
			tree = Descendants(w.PID) // walks all of /proc: the cost of the watch
		}
		w.check(tree)
	}
}

// check reads the memory of the processes of tree once and kills the
// renderers over the bound. A process's kind is read each time from its
// command line: a renderer just forked by the zygote still shows the
// zygote's for a while.
func (w MemWatch) check(tree []int) {
	var total int64
	for _, pid := range tree {
		rss := RSS(pid)
		total += rss
		if rss > w.Bound && IsRenderer(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			w.Killed(pid, rss)
		}
	}
	w.Total(total)
}

// RSS is the resident set size of pid in bytes (0 when gone): the second
// field of /proc/pid/statm, in pages; cheaper to read than smaps.
func RSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return pages * int64(os.Getpagesize())
}

// IsRenderer reports whether pid is a renderer process of Chromium.
func IsRenderer(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return err == nil && bytes.Contains(b, []byte("--type=renderer"))
}
