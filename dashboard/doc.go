// Package dashboard is Gleaner's web dashboard: an net/http handler that
// lists, launches, pauses, resumes and stops focused crawls (live log and
// counters streamed with Server-Sent Events, a progress chart), shows each
// site's templates (MDS scatter coloured by cluster with medoids and
// outliers marked, silhouette curve over k, the normalised tree edit
// distance heat map ordered by cluster), a page with its extraction beside
// its template medoid (static copies with the extracted region marked, and
// for a rendered page its stored layout drawn with the region's box), and
// the corpus with filters and export downloads.
//
// It reads the store through the store's API and drives crawls through the
// crawler's public API (crawler.New, Run, Pause, Resume, CrawlCounters,
// Crawls, Fetched). Charts are SVG rendered on the server; templates,
// style sheet and the one script are embedded in the binary.
//
// # Security
//
// Every response carries a strict Content-Security-Policy (scripts from
// the dashboard only, no inline script, no framing by other origins).
// Crawled HTML never runs in the dashboard's origin: a page is shown as a
// static, sanitised copy (scripts, frames, objects, event handlers and
// links removed) served with "Content-Security-Policy: sandbox" and no
// source allowed but inline style, inside an iframe whose sandbox attribute
// grants nothing. State-changing requests are POST only and carry the
// server's CSRF token. Without a Token the handler answers only requests
// addressed to a loopback host name (a guard against DNS rebinding); with
// one, every request must present it (once as ?token=, then as a cookie).
// CheckAddr refuses a non-loopback listening address without an explicit
// opt-in and a token.
package dashboard
