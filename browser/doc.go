// Package browser fetches web pages the way a reader sees them: rendered by a
// real headless Chromium (driven with chromedp), after the page's scripts
// have run, lazy content has been scrolled in, "load more" buttons pressed
// and cookie-consent overlays dismissed.
//
// Two implementations of the small [Fetcher] interface exist:
//
//   - [Renderer] drives one Chromium process with a bounded number of tabs.
//     The pages of a site share a browser context (or each page gets its
//     own with Options.Isolate), a hard deadline that closes the tab but never the
//     browser, and a retry on a fresh browser when Chromium crashes. The
//     browser is retired after a number of pages or above a memory limit, and
//     no Chromium process outlives the program (process group, parent-death
//     signal; [SweepStale], called by a program when it starts, for the
//     leftovers of dead ones).
//   - [HTTPFetcher] is a plain net/http client with size and time limits for
//     static pages and tests.
//
// # Guarded by default
//
// Both are guarded against server-side request forgery by default: their
// zero options reach public addresses only (netguard.Policy, in
// Options.Guard and HTTPFetcher.Guard). A renderer's every connection,
// documents, subresources, workers, WebSockets and prefetches alike, is
// made by the guard's dialer through a proxy of its own; the exceptions a
// caller allows (the fixture sites on loopback) are named in the policy.
// Options.Unguarded turns the guard off, for tests only. [NewFetcher] is
// the one constructor of a fetcher from a policy that crawls, monitors,
// the dashboard and the commands use.
//
// # Memory bound during the page
//
// While pages run, the resident memory of every renderer process is read
// every 100 ms, and one over Options.MaxRendererMemory is killed: its page
// is returned partial as too large (ReasonTooLarge) and not tried again.
// It bounds what the script heap bound (--max-old-space-size) does not:
// typed arrays, the DOM of a huge document.
//
// A rendered [Page] carries the final URL, HTTP status, redirect chain,
// title, the DOM serialized as HTML (open shadow roots flattened into their
// hosts, same-origin iframes recorded in Frames), outgoing links with their
// anchor text (including script-created links and history.pushState
// navigations), an optional screenshot, and a [Layout]: the bounding box and
// visibility of every element, taken with DOMSnapshot.captureSnapshot.
//
// # Layout for heuristics
//
// Layout boxes are keyed by the element's path on the tree treediff.Parse
// builds from Page.HTML, serialized from the same snapshot: see package
// browser/snapshot for what a box and its visibility mean.
//
// # Recording the exchanges (WARC)
//
// With Options.Record (HTTPFetcher.Record for plain fetches) a Page also
// carries its HTTP exchanges as they went over the wire (Page.Exchanges),
// recorded by package browser/wire (see there); package export writes
// them as WARC records and WACZ packages.
//
// # Storing pages
//
// Package browser does not import the store: package capture turns a Page
// into a store.Page (capture.ToStore) and a stored page's layout back into
// the visible-elements predicate extraction uses (capture.Visible).
//
// # What a rendered page costs
//
// Page.Notes ends with the time of each step ("time: navigate 0.04s, load
// 0.53s, quiet 0.13s, consent 0.00s, scroll+more 0.13s, ..."). A page is
// ready when no request it depends on is in flight, no short timer of its
// scripts is pending and neither network nor DOM changed for a settle
// window measured on the page (WaitOptions.Settle, growing with the pauses
// the page itself takes between the steps of a request chain). Images,
// media and fonts are refused by URL pattern, without a round trip; behind
// the proxy (Options.Dial) no request is paused for a decision the dialer
// makes anyway. The pages of a site share a browser context, and a tab
// whose page is captured is kept for the site's next page, whose
// navigation then reuses its renderer process: a new tab and process per
// page cost about as much CPU as the page itself. Chromium's memory (PSS)
// is read for retiring the browser every 2 seconds, not after each page;
// the renderers' resident memory every 100 ms while pages run (about 10 ms
// of CPU a page, BenchmarkMemoryWatch).
//
// # Waiting for a known content region
//
// A caller that knows where a page's content is (the body rules of the
// site's learned templates, or a user's selector) passes CSS selectors in
// PageOptions.ContentSelectors ([Renderer.FetchPage]): the page is then
// ready as soon as that region shows text that has not changed for the
// settle window, whatever else is still in flight (analytics, ads, long
// polls that would hold the normal wait until WaitOptions.LongRequest).
// The watch runs in the page (pagestate/state.js and the MutationObserver of
// js/init.js); a page where no selector matches gets the normal wait.
// Page.Notes says which readiness applied (NoteRegionReady,
// NoteRegionMissed).
package browser
