package browser

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/gleaner/gleaner/treediff"
)

// memWatchEvery is how often the memory of the browser's renderer
// processes is read while pages run: a script filling typed arrays (which
// --max-old-space-size does not bound) grows a renderer by a few hundred
// MiB a second.
const memWatchEvery = 100 * time.Millisecond

// memKill is a renderer process killed over its memory bound.
type memKill struct {
	at  time.Time
	pid int
	rss int64
}

// maxMemKills bounds the kills an instance remembers (the latest).
const maxMemKills = 8

// watchMemory reads, every memWatchEvery while inst has pages in
// progress, the resident memory of each process of inst's browser, and
// kills a renderer process over Options.MaxRendererMemory: its tabs crash,
// and their pages end as too large (see tooLargeError). It returns when
// the browser ends.
func (r *Renderer) watchMemory(inst *instance) {
	t := time.NewTicker(memWatchEvery)
	defer t.Stop()
	var tree []int
	for tick := 0; ; tick++ {
		select {
		case <-inst.ctx.Done():
			return
		case <-t.C:
		}
		if !inst.busy() {
			tree = nil
			continue
		}
		if tree == nil || tick%treeEvery == 0 {
			tree = descendants(inst.pid) // walks all of /proc: the cost of the watch
		}
		r.checkMemory(inst, tree)
	}
}

// treeEvery is how many looks of watchMemory reuse the list of the
// browser's processes: a new renderer is seen within treeEvery looks.
const treeEvery = 2

// checkMemory reads the memory of the processes of inst's tree once and kills the
// renderers over the bound. A process's kind is read each time from its
// command line: a renderer just forked by the zygote still shows the
// zygote's for a while.
func (r *Renderer) checkMemory(inst *instance, tree []int) {
	var total int64
	for _, pid := range tree {
		rss := procRSS(pid)
		total += rss
		if rss > r.opt.MaxRendererMemory && rendererProc(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			inst.noteMemKill(memKill{at: time.Now(), pid: pid, rss: rss})
			r.logf("browser: renderer %d at %d MiB, over its bound of %d MiB: killed", pid, rss>>20, r.opt.MaxRendererMemory>>20)
		}
	}
	r.notePeak(total, 0)
}

// procRSS is the resident set size of pid in bytes (0 when gone): the
// second field of /proc/pid/statm, in pages; cheaper to read than smaps.
func procRSS(pid int) int64 {
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

// rendererProc reports whether pid is a renderer process of Chromium.
func rendererProc(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return err == nil && bytes.Contains(b, []byte("--type=renderer"))
}

func (inst *instance) busy() bool {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	return inst.active > 0
}

func (inst *instance) noteMemKill(k memKill) {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	inst.memKills = append(inst.memKills, k)
	if len(inst.memKills) > maxMemKills {
		inst.memKills = inst.memKills[1:]
	}
}

// memKilledSince returns the last renderer killed over its memory bound
// since t, if any.
func (inst *instance) memKilledSince(t time.Time) (memKill, bool) {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	for i := len(inst.memKills) - 1; i >= 0; i-- {
		if k := inst.memKills[i]; !k.at.Before(t) {
			return k, true
		}
	}
	return memKill{}, false
}

// ReasonTooLarge begins the PartialReason of a page whose renderer was
// killed over its memory bound while it ran.
const ReasonTooLarge = "too-large"

// tooLargeError is the failure of a page whose tab crashed because its
// renderer was killed over its memory bound. It wraps ErrTooLarge: the
// page is not tried again (it would blow the bound again).
type tooLargeError struct {
	kill        memKill
	bound       int64
	mainURL     string
	status      int
	contentType string
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("renderer at %d MiB, over its memory bound of %d MiB: killed", e.kill.rss>>20, e.bound>>20)
}

func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// tooLargePage is the page of e as the proxy received its document,
// marked partial as too large; nil when the proxy kept nothing of it.
func (r *Renderer) tooLargePage(u *url.URL, e *tooLargeError) *Page {
	if r.proxy == nil {
		return nil
	}
	main := e.mainURL
	if main == "" {
		main = u.String()
	}
	body, cut, ok := r.proxy.Doc(main)
	if !ok || len(body) == 0 {
		return nil
	}
	text, _, err := treediff.Decode(body, e.contentType)
	if err != nil {
		return nil
	}
	p := &Page{URL: u.String(), FinalURL: main, Status: e.status, ContentType: e.contentType, Rendered: true, FetchedAt: e.kill.at,
		HTML: text, Title: htmlTitle(text, main), Links: pageLinks(text, main, nil)}
	p.Partial, p.PartialReason = true, ReasonTooLarge+": "+e.Error()+"; the document as received"
	if cut {
		p.PartialReason += fmt.Sprintf(", cut at %d bytes", r.opt.MaxResponseBytes)
	}
	return p
}
