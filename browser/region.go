package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// PageOptions are what a caller knows of one page that makes its
// rendering cheaper. The zero value renders the page as Fetch does.
type PageOptions struct {
	// ContentSelectors are CSS selectors of the page's content region: the
	// body rules of the site's learned templates, or a user's. The page is
	// ready as soon as one of them (tried in order) matches a shown element
	// whose text is not empty, shows no loading placeholder (a spinner, a
	// skeleton, aria-busy) and has not changed for the settle window, once
	// the document is parsed and no short timer of its scripts is pending —
	// even with unrelated requests still in flight (analytics, ads, long
	// polls); the scroll loop and "load more" clicks then wait only for the
	// requests they start (a page with nothing lazy costs one short DOM
	// window more, an infinite list still loads its links). When
	// none matches, the page gets the normal wait, unchanged: a page of
	// another template loses nothing to a hint. The selectors are untrusted
	// input: one the browser refuses (invalid CSS) is skipped and listed in
	// Page.Notes. At most maxContentSelectors are used, each at most
	// maxSelectorBytes long.
	ContentSelectors []string
	// MinRegionChars is the least visible text, in characters, a matched
	// region must hold to count (0: any text). A learned template's region
	// often holds the headline and byline the server sends before a
	// script brings the body; what the site's extracted bodies measure
	// tells that state from the region with its body.
	MinRegionChars int
}

// PageFetcher is a [Fetcher] that takes [PageOptions] ([Renderer] is one).
type PageFetcher interface {
	Fetcher
	FetchPage(ctx context.Context, url string, po PageOptions) (*Page, error)
}

// NoteRegionReady begins the note of a page found ready by its content
// region (PageOptions.ContentSelectors), followed by the quoted selector
// that matched.
const NoteRegionReady = "ready: content region "

// NoteRegionMissed is the note of a page given content selectors whose
// region did not settle (none matched, or not before the page was ready
// by the normal wait).
const NoteRegionMissed = "ready: normal wait (no content region settled first)"

const (
	// maxContentSelectors bounds the selectors tried on each look at the
	// page (a handful: each costs a querySelectorAll).
	maxContentSelectors = 8
	// maxSelectorBytes bounds one selector (stored data, untrusted).
	maxSelectorBytes = 1024
)

// regionWatch follows a page's content region while it is waited for.
// Its zero value (and nil) watches nothing.
type regionWatch struct {
	sels    []string
	arg     string        // the arguments of js/state.js: sels, least chars
	settle  time.Duration // how long the region must stay unchanged
	notes   []string      // selectors dropped or refused
	refused map[string]bool
	matched string    // the selector of the region that settled
	at      time.Time // when it was seen settled
}

// newRegionWatch returns the watch of po's selectors, nil when there are
// none.
func newRegionWatch(po PageOptions, settle time.Duration) *regionWatch {
	rw := &regionWatch{settle: settle, refused: map[string]bool{}}
	for _, s := range po.ContentSelectors {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
		case len(s) > maxSelectorBytes:
			rw.notes = append(rw.notes, fmt.Sprintf("content region: selector of %d bytes ignored (at most %d)", len(s), maxSelectorBytes))
		case len(rw.sels) == maxContentSelectors:
			rw.notes = append(rw.notes, fmt.Sprintf("content region: selector %s ignored (at most %d selectors)", quoteCut(s), maxContentSelectors))
		default:
			rw.sels = append(rw.sels, s)
		}
	}
	if len(rw.sels) == 0 && len(rw.notes) == 0 {
		return nil
	}
	b, _ := json.Marshal(rw.sels) // JSON of strings is a JavaScript literal (Go escapes U+2028/9)
	rw.arg = fmt.Sprintf("%s, %d", b, max(po.MinRegionChars, 0))
	return rw
}

// stateCall is the expression that polls the page's state (js/state.js)
// with the watched selectors.
func (rw *regionWatch) stateCall() string {
	arg := "[], 0"
	if rw != nil && rw.arg != "" {
		arg = rw.arg
	}
	return "(" + stateJS + ")(" + arg + ")"
}

// observe notes what a look at the page says of its region. It reports
// whether the region has settled, and otherwise how long it still has to
// stay unchanged (0 when there is no region to wait for).
func (rw *regionWatch) observe(ps pageState) (settled bool, left time.Duration) {
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

// settled reports whether the page was found ready by its region.
func (rw *regionWatch) settled() bool { return rw != nil && rw.matched != "" }

// settledAt is when the region was seen settled, zero when it was not:
// the requests in flight then are not the content's.
func (rw *regionWatch) settledAt() time.Time {
	if !rw.settled() {
		return time.Time{}
	}
	return rw.at
}

// pageNotes are the notes the watch leaves on the page: the selectors it
// could not use, then the readiness it found.
func (rw *regionWatch) pageNotes() []string {
	if rw == nil {
		return nil
	}
	out := append([]string(nil), rw.notes...)
	switch {
	case rw.settled():
		out = append(out, NoteRegionReady+quoteCut(rw.matched)+" settled")
	case len(rw.sels) > 0:
		out = append(out, NoteRegionMissed)
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
