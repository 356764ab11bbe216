package browser

import (
	"fmt"
	"net/url"
	"time"

	"github.com/gleaner/gleaner/browser/chromeproc"
	"github.com/gleaner/gleaner/browser/outlinks"
	"github.com/gleaner/gleaner/treediff"
)

// memKill is a renderer process killed over its memory bound.
type memKill struct {
	at  time.Time
	pid int
	rss int64
}

// maxMemKills bounds the kills an instance remembers (the latest).
const maxMemKills = 8

// watchMemory watches the renderers of inst's browser while it has pages in
// progress and kills one over Options.MaxRendererMemory: its tabs crash,
// and their pages end as too large (see tooLargeError). It returns when
// the browser ends.
func (r *Renderer) watchMemory(inst *instance) {
	chromeproc.MemWatch{
		PID:   inst.PID,
		Bound: r.opt.MaxRendererMemory,
		Busy:  inst.busy,
		Killed: func(pid int, rss int64) {
			inst.noteMemKill(memKill{at: time.Now(), pid: pid, rss: rss})
			r.logf("browser: renderer %d at %d MiB, over its bound of %d MiB: killed", pid, rss>>20, r.opt.MaxRendererMemory>>20)
		},
		Total: func(rss int64) { r.notePeak(rss, 0) },
	}.Run(inst.Ctx)
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
		HTML: text, Title: htmlTitle(text, main), Links: outlinks.Find(text, main, nil)}
	markPartial(p, Reason{Kind: ReasonTooLarge, Detail: e.Error(), Bound: r.cutBound(cut)})
	return p
}
