package browser

import (
	"context"
	"time"

	"github.com/gleaner/gleaner/browser/pagestate"
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
	// Page.Notes. At most pagestate.MaxSelectors are used, each at most
	// pagestate.MaxSelectorBytes long.
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
// that matched (pagestate.NoteReady).
const NoteRegionReady = pagestate.NoteReady

// NoteRegionMissed is the note of a page given content selectors whose
// region did not settle (pagestate.NoteMissed).
const NoteRegionMissed = pagestate.NoteMissed

// newRegionWatch returns the watch of po's content region, nil when po
// names none.
func newRegionWatch(po PageOptions, settle time.Duration) *pagestate.Watch {
	return pagestate.NewWatch(po.ContentSelectors, po.MinRegionChars, settle)
}
