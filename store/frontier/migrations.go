package frontier

import "github.com/gleaner/gleaner/store"

// component is the name under which the crawl tables are migrated (see
// store.DB.Migrate): kept from when the crawler owned them.
const component = "crawler"

// migrations are the crawl tables, kept in the store's database under the
// component "crawler". Never edit a committed migration: append a new one.
var migrations = []store.Migration{
	{Version: 1, Name: "crawls, frontier, edges", Statements: []string{
		`CREATE TABLE crawl_crawls (
			name TEXT PRIMARY KEY,
			config TEXT NOT NULL,
			lexicon TEXT NOT NULL DEFAULT '',
			threshold DOUBLE PRECISION NOT NULL DEFAULT 0,
			calibrated BOOLEAN NOT NULL DEFAULT FALSE,
			paused BOOLEAN NOT NULL DEFAULT FALSE,
			owner TEXT NOT NULL DEFAULT '',
			owner_until BIGINT NOT NULL DEFAULT 0,
			created_at BIGINT NOT NULL,
			updated_at BIGINT NOT NULL
		)`,
		`CREATE TABLE crawl_frontier (
			crawl TEXT NOT NULL REFERENCES crawl_crawls(name) ON DELETE CASCADE,
			url TEXT NOT NULL,
			host TEXT NOT NULL,
			state TEXT NOT NULL,
			outcome TEXT NOT NULL DEFAULT '',
			detail TEXT NOT NULL DEFAULT '',
			priority DOUBLE PRECISION NOT NULL,
			inherited DOUBLE PRECISION NOT NULL DEFAULT 0,
			depth INTEGER NOT NULL,
			hops INTEGER NOT NULL,
			parent TEXT NOT NULL DEFAULT '',
			anchor TEXT NOT NULL DEFAULT '',
			from_relevant BOOLEAN NOT NULL DEFAULT FALSE,
			seq BIGINT NOT NULL,
			lease_owner TEXT NOT NULL DEFAULT '',
			lease_until BIGINT NOT NULL DEFAULT 0,
			page_id BIGINT NOT NULL DEFAULT 0,
			fetch_seq BIGINT NOT NULL DEFAULT 0,
			score DOUBLE PRECISION NOT NULL DEFAULT 0,
			relevant BOOLEAN NOT NULL DEFAULT FALSE,
			tokens BIGINT NOT NULL DEFAULT 0,
			simhash BIGINT NOT NULL DEFAULT 0,
			discovered_at BIGINT NOT NULL,
			done_at BIGINT NOT NULL DEFAULT 0,
			PRIMARY KEY (crawl, url)
		)`,
		`CREATE INDEX crawl_frontier_next ON crawl_frontier (crawl, state, priority, seq)`,
		`CREATE TABLE crawl_edges (
			crawl TEXT NOT NULL REFERENCES crawl_crawls(name) ON DELETE CASCADE,
			source TEXT NOT NULL,
			target TEXT NOT NULL,
			kind TEXT NOT NULL,
			anchor TEXT NOT NULL DEFAULT '',
			PRIMARY KEY (crawl, source, target, kind)
		)`,
	}},
	{Version: 2, Name: "fetch attempts", Statements: []string{
		`ALTER TABLE crawl_frontier ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0`,
	}},
	{Version: 3, Name: "frontier order index", Statements: []string{
		// The lease query's order (priority DESC, seq) read straight from
		// the index, without sorting the queue at every lease.
		`DROP INDEX crawl_frontier_next`,
		`CREATE INDEX crawl_frontier_order ON crawl_frontier (crawl, state, priority DESC, seq)`,
	}},
	{Version: 4, Name: "shared crawls: sequence counters, host slots and caps, jobs", Statements: []string{
		// Sequence numbers are drawn from the crawl's row, so that any
		// number of processes may enqueue and fetch.
		`ALTER TABLE crawl_crawls ADD COLUMN next_seq BIGINT NOT NULL DEFAULT 0`,
		`ALTER TABLE crawl_crawls ADD COLUMN next_fetch_seq BIGINT NOT NULL DEFAULT 0`,
		`UPDATE crawl_crawls SET
			next_seq = (SELECT COALESCE(MAX(seq), 0) FROM crawl_frontier WHERE crawl_frontier.crawl = crawl_crawls.name),
			next_fetch_seq = (SELECT COALESCE(MAX(fetch_seq), 0) FROM crawl_frontier WHERE crawl_frontier.crawl = crawl_crawls.name)`,
		// One politeness slot per host, shared by every crawl and worker:
		// owner holds it until busy_until (a worker killed mid-fetch loses
		// it then); the next fetch may start at next_at. Times are the
		// database server's clock, in milliseconds.
		`CREATE TABLE crawl_hosts (
			host TEXT PRIMARY KEY,
			owner TEXT NOT NULL DEFAULT '',
			busy_until BIGINT NOT NULL DEFAULT 0,
			next_at BIGINT NOT NULL DEFAULT 0
		)`,
		// URLs queued per crawl and host, for the host page cap.
		`CREATE TABLE crawl_host_pages (
			crawl TEXT NOT NULL REFERENCES crawl_crawls(name) ON DELETE CASCADE,
			host TEXT NOT NULL,
			pages INTEGER NOT NULL DEFAULT 0,
			PRIMARY KEY (crawl, host)
		)`,
		`INSERT INTO crawl_host_pages (crawl, host, pages) SELECT crawl, host, COUNT(*) FROM crawl_frontier GROUP BY crawl, host`,
		// Jobs done once per crawl whichever worker takes them: template
		// learning of a site at a page count (kind "learn", level) or at the
		// end (kind "final").
		`CREATE TABLE crawl_jobs (
			crawl TEXT NOT NULL REFERENCES crawl_crawls(name) ON DELETE CASCADE,
			site TEXT NOT NULL,
			kind TEXT NOT NULL,
			level INTEGER NOT NULL,
			owner TEXT NOT NULL,
			started_at BIGINT NOT NULL,
			PRIMARY KEY (crawl, site, kind, level)
		)`,
		`CREATE INDEX crawl_frontier_leases ON crawl_frontier (crawl, state, lease_until)`,
	}},
}
