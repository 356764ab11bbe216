// Package frontier keeps the crawls of a store's database: each crawl's
// row (configuration, lexicon, threshold, paused flag, owner), its frontier
// (one row per URL with its State, priority, lease and Outcome), its edges,
// the hosts' politeness slots shared by every worker, the host caps and
// the jobs run once. It is the crawler's storage: all of its SQL, the
// SQLite and PostgreSQL dialects decided here, once (Open).
//
// A crawl run by one process uses a Local frontier (it owns the crawl's
// row); a crawl shared by workers of any number of processes (PostgreSQL)
// a Shared one: leases with an expiry, checked at every update, and the
// next URL picked in one transaction with row locks.
package frontier
