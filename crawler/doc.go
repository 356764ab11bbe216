// Package crawler is Gleaner's focused crawler: from seed URLs and seed
// terms (optionally a Boolean formula) it gathers the pages relevant to a
// topic, rendering them (any browser.Fetcher), learning each site's
// templates and extracting the useful content as it goes, and judging
// relevance on the extracted text rather than on the boilerplate — the
// Babouk design with Nguyen's crawler rules (see
// ../shared/notes/algorithms.md §2–3).
//
// The API is small:
//
//	c, err := crawler.New(db, crawler.Config{Name: "energy", Seeds: seeds, Terms: terms})
//	sum, err := c.Run(ctx) // resumable: run it again after a crash
//
// The templates are learned while crawling by package crawllearn; what a
// finished crawl leaves (its documents, corpus and link graph) is read
// with package crawlcorpus.
//
// # Frontier
//
// The frontier lives in the store's database, in the crawl tables that
// package store/frontier keeps (all of their SQL, both dialects): one row
// per URL with its state
// (queued, leased by a process until an expiry, done with an outcome), its
// priority, Shark-Search's inherited score, Nguyen's depth, its hop count,
// parent and anchor text; an edge table (links with anchor text, redirects);
// a crawl table (configuration, expanded lexicon, calibrated threshold,
// paused flag, owning process). Priorities follow the chosen Strategy: OPIC
// cash scaled by the parent's relevance, Shark-Search (δ 0.5, β 0.8, γ 0.1,
// 10-word anchor context) or breadth-first.
//
// # Resume
//
// Each URL is leased, fetched, its page stored (dataset "crawl:<name>"),
// then judged, and one transaction marks it done with its outcome and
// enqueues its links and edges. A crawler killed at any moment leaves at
// most Workers URLs leased; the next Run of the same crawl takes them over
// at once when the owning process is dead (or after the lease expires when
// it ran on another machine): a URL whose page is already stored is judged
// from the stored page, never fetched again; the others are queued again.
// Pause (from any process) makes a running crawl stop after the URLs in
// flight; Resume clears the flag.
//
// # Workers
//
// On PostgreSQL a crawl is shared (Join, Create, `gleaner worker`): any
// number of processes on any number of machines work on it at once and may
// join or leave at any time. What a single process keeps in memory lives in
// the database there: URLs are leased in one transaction that locks the
// crawl's row (so that MaxPages holds over all workers) and picks the best
// queued URL whose host is free with FOR UPDATE SKIP LOCKED; leases expire
// after LeaseTTL unless renewed, and an expired lease is taken over by the
// next worker that asks (a page already stored is processed from the store).
// Politeness is a row per host (crawl_hosts, shared by all crawls): one
// fetch of a host at a time, Delay between them, timed by the database
// server's clock. Host caps and sequence numbers are counters in the
// database; a commit is refused when the lease was lost (ErrLeaseLost).
// Template learning at each level is a job (crawl_jobs) that runs once, on
// the worker that claims it; the last worker to stop learns the sites
// again. The engine reaches all of this through one small interface
// (queue) and runs one scheduling loop over it, alone or as a worker: a
// Local frontier (the crawl run by one process) or a Shared one
// (frontier.Frontier), what differs between the two held by its
// membership (owner or worker).
//
// # Relevance
//
// A page's extracted text (title and body) is scored with the weighted
// Lexicon; it is relevant when the score reaches the threshold and the
// formula, if any, holds. The first CalibrateAfter scored pages are the
// first iteration: the lexicon is expanded with the log-odds terms of the
// pages the seed terms found relevant against the others (weights at most
// relevance.ExpandedWeight), and the threshold is calibrated by Otsu's method on the
// new scores (see relevance.Calibrate); both are stored with the crawl.
//
// # Politeness and safety
//
// One fetch per host at a time and Delay between fetches (robots.txt
// Crawl-delay when longer); robots.txt, meta robots noindex and nofollow,
// and rel="nofollow" links honoured (the X-Robots-Tag header is not: the
// fetchers do not return headers); transient failures retried; URLs canonicalised; spider traps bounded (URL length, repeated
// path segments, path depth, per-host cap). Private, loopback, link-local
// and non-http(s) targets are refused unless listed in AllowHosts, checked
// before the fetch and again when the default fetcher dials (so redirects
// and DNS answers cannot reach them); responses are capped at MaxBytes.
//
// A failure of the fetcher or of the network is never the page's: a host
// that cannot be reached is suspended for a backoff that doubles (Babouk
// suspends a failing domain); when several hosts in a row cannot be reached
// the network is taken to be down and the crawl pauses, URLs queued, and
// resumes by itself when a host answers again (OutageHosts, OutageWait); a
// fetcher that cannot work at all (a browser that will not start) stops the
// run with ErrFetcherFailed.
//
// # Outcomes
//
// Every finished URL has one outcome; Counters derives Babouk's counters
// from the frontier (tried, validated, irrelevant, duplicate, language,
// HTTP error, timeout, size, MIME type, could not extract, plus noindex,
// robots and forbidden).
package crawler
