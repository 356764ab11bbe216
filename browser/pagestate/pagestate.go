// Package pagestate reads the state of a page being rendered, as its
// polling script (state.js) reports it: how long its DOM has been quiet,
// its pending timers, whether it is parsed, and the content region a
// caller named by CSS selectors, with the watch that decides when that
// region has settled.
package pagestate

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// stateJS is the polling script, a function of the content selectors and
// the least characters of a region.
//
//go:embed state.js
var stateJS string

// State is what the state script (state.js) returns of a page.
type State struct {
	Quiet     float64 `json:"quiet"` // ms since the DOM last changed
	Mutations int     `json:"mutations"`
	Timers    int     `json:"timers"` // short timers pending (see browser/js/init.js)
	Height    float64 `json:"height"`
	Viewport  float64 `json:"viewport"`
	Ready     string  `json:"ready"`
	// Parsed: the document is parsed and its deferred scripts ran
	// (DOMContentLoaded).
	Parsed bool `json:"parsed"`
	// Invalid lists the content selectors the page's querySelectorAll
	// refused; Region is the content region found, nil for none.
	Invalid []string `json:"invalid"`
	Region  *Region  `json:"region"`
}

// Region is the content region the state script found.
type Region struct {
	Selector string  `json:"selector"` // the selector that matched
	Chars    int     `json:"chars"`    // length of its visible text
	Busy     bool    `json:"busy"`     // it shows a loading placeholder
	Quiet    float64 `json:"quiet"`    // ms since it last changed
}

// NoteReady begins the note of a page found ready by its content region,
// followed by the quoted selector that matched.
const NoteReady = "ready: content region "

// NoteMissed is the note of a page given content selectors whose region
// did not settle (none matched, or not before the page was ready by the
// normal wait).
const NoteMissed = "ready: normal wait (no content region settled first)"

const (
	// MaxSelectors bounds the selectors tried on each look at the
	// page (a handful: each costs a querySelectorAll).
	MaxSelectors = 8
	// MaxSelectorBytes bounds one selector (stored data, untrusted).
	MaxSelectorBytes = 1024
)

// Watch follows a page's content region while it is waited for. Its zero
// value (and nil) watches nothing.
type Watch struct {
	sels    []string
	arg     string        // the arguments of state.js: sels, least chars
	settle  time.Duration // how long the region must stay unchanged
	notes   []string      // selectors dropped or refused
	refused map[string]bool
	matched string    // the selector of the region that settled
	at      time.Time // when it was seen settled
}

// NewWatch returns the watch of the content region named by selectors (CSS,
// untrusted: tried in order, at most MaxSelectors of at most
// MaxSelectorBytes), whose text must hold at least minChars characters and
// stay unchanged for settle; nil when selectors name none.
func NewWatch(selectors []string, minChars int, settle time.Duration) *Watch {
	rw := &Watch{settle: settle, refused: map[string]bool{}}
	for _, s := range selectors {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
		case len(s) > MaxSelectorBytes:
			rw.notes = append(rw.notes, fmt.Sprintf("content region: selector of %d bytes ignored (at most %d)", len(s), MaxSelectorBytes))
		case len(rw.sels) == MaxSelectors:
			rw.notes = append(rw.notes, fmt.Sprintf("content region: selector %s ignored (at most %d selectors)", quoteCut(s), MaxSelectors))
		default:
			rw.sels = append(rw.sels, s)
		}
	}
	if len(rw.sels) == 0 && len(rw.notes) == 0 {
		return nil
	}
	b, _ := json.Marshal(rw.sels) // JSON of strings is a JavaScript literal (Go escapes U+2028/9)
	rw.arg = fmt.Sprintf("%s, %d", b, max(minChars, 0))
	return rw
}

// Call is the expression that polls the page's state (state.js) with the
// watched selectors.
func (rw *Watch) Call() string {
	arg := "[], 0"
	if rw != nil && rw.arg != "" {
		arg = rw.arg
	}
	return "(" + stateJS + ")(" + arg + ")"
}

// Observe notes what a look at the page says of its region. It reports
// whether the region has settled, and otherwise how long it still has to
// stay unchanged (0 when there is no region to wait for).
func (rw *Watch) Observe(ps State) (settled bool, left time.Duration) {
	if rw == nil {
		return false, 0
	}
	for _, s := range ps.Invalid {
		if !rw.refused[s] {
			rw.refused[s] = true
			rw.notes = append(rw.notes, "content region: invalid selector "+quoteCut(s)+" ignored")
		}
	}
	rg := ps.Region
	if rg == nil || rg.Chars == 0 || rg.Busy || !ps.Parsed || ps.Timers > 0 {
		return false, 0
	}
	quiet := time.Duration(rg.Quiet * float64(time.Millisecond))
	if quiet < rw.settle {
		return false, rw.settle - quiet
	}
	rw.matched, rw.at = rg.Selector, time.Now()
	return true, 0
}

// Settled reports whether the page was found ready by its region.
func (rw *Watch) Settled() bool { return rw != nil && rw.matched != "" }

// SettledAt is when the region was seen settled, zero when it was not:
// the requests in flight then are not the content's.
func (rw *Watch) SettledAt() time.Time {
	if !rw.Settled() {
		return time.Time{}
	}
	return rw.at
}

// Notes are the notes the watch leaves on the page: the selectors it
// could not use, then the readiness it found.
func (rw *Watch) Notes() []string {
	if rw == nil {
		return nil
	}
	out := append([]string(nil), rw.notes...)
	switch {
	case rw.Settled():
		out = append(out, NoteReady+quoteCut(rw.matched)+" settled")
	case len(rw.sels) > 0:
		out = append(out, NoteMissed)
	}
	return out
}

// quoteCut quotes a selector for a note, cut at 200 bytes.
func quoteCut(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return fmt.Sprintf("%q", s)
}
