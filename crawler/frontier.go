package crawler

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
)

// migrations are the crawler's own tables, kept in the store's database
// under the component "crawler" (see store.DB.Migrate). Never edit a
// committed migration: append a new one.
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

// migrated remembers the stores whose crawler tables are up to date in this
// process: they are migrated once, on first use, not on every read.
var migrated sync.Map // *store.DB -> struct{}

// ensureTables brings the crawler's tables of db up to date, once per store.
func ensureTables(ctx context.Context, db *store.DB) error {
	if _, ok := migrated.Load(db); ok {
		return nil
	}
	if err := db.Migrate(ctx, "crawler", migrations); err != nil {
		return fmt.Errorf("crawler tables: %w", err)
	}
	migrated.Store(db, struct{}{})
	return nil
}

// URL states in the frontier.
const (
	StateQueued = "queued" // waiting to be fetched
	StateLeased = "leased" // taken by a running crawler (lease_owner) until lease_until
	StateDone   = "done"   // finished, with an Outcome
)

// Outcomes of a finished URL: the Babouk counters (see Counters).
const (
	OutcomeValidated   = "validated"   // relevant page, kept in the corpus
	OutcomeIrrelevant  = "irrelevant"  // below the relevance threshold
	OutcomeDuplicate   = "duplicate"   // near-duplicate text, or a redirect to a page already fetched
	OutcomeLanguage    = "language"    // language not asked for
	OutcomeHTTPError   = "http-error"  // 4xx/5xx status or network error
	OutcomeTimeout     = "timeout"     // fetch deadline exceeded
	OutcomeSize        = "size"        // too small or too large (bytes or tokens)
	OutcomeMIME        = "mime"        // not an accepted document type
	OutcomeNoExtract   = "no-extract"  // no content could be extracted
	OutcomeNoIndex     = "noindex"     // meta robots noindex
	OutcomeRobots      = "robots"      // disallowed by robots.txt (not fetched)
	OutcomeForbidden   = "forbidden"   // refused target (SSRF guard, not fetched)
	OutcomeAlias       = "alias"       // the final URL of a redirect fetched under another URL
	OutcomeInterrupted = "interrupted" // stopped before the end (context cancelled); requeued on resume
)

// fetchedOutcomes are the outcomes of URLs that were actually requested
// (Babouk's "tried").
var fetchedOutcomes = []string{OutcomeValidated, OutcomeIrrelevant, OutcomeDuplicate, OutcomeLanguage,
	OutcomeHTTPError, OutcomeTimeout, OutcomeSize, OutcomeMIME, OutcomeNoExtract, OutcomeNoIndex}

// Counters are the outcome counts of a crawl, derived from its frontier.
type Counters struct {
	Queued, Leased int
	// Tried counts the URLs requested; the others split them (and Robots,
	// Forbidden, Alias count URLs not requested).
	Tried     int
	Outcomes  map[string]int
	Validated int
	Tokens    int64
}

// HarvestRate is validated / tried (0 when nothing was tried).
func (c Counters) HarvestRate() float64 {
	if c.Tried == 0 {
		return 0
	}
	return float64(c.Validated) / float64(c.Tried)
}

// String prints the counters as one line, Babouk's order.
func (c Counters) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tried %d, validated %d, irrelevant %d, duplicate %d, language %d, http-error %d, timeout %d, size %d, mime %d, no-extract %d",
		c.Tried, c.Validated, c.Outcomes[OutcomeIrrelevant], c.Outcomes[OutcomeDuplicate], c.Outcomes[OutcomeLanguage],
		c.Outcomes[OutcomeHTTPError], c.Outcomes[OutcomeTimeout], c.Outcomes[OutcomeSize], c.Outcomes[OutcomeMIME], c.Outcomes[OutcomeNoExtract])
	for _, o := range []string{OutcomeNoIndex, OutcomeRobots, OutcomeForbidden, OutcomeAlias} {
		if n := c.Outcomes[o]; n > 0 {
			fmt.Fprintf(&b, ", %s %d", o, n)
		}
	}
	fmt.Fprintf(&b, "; queued %d", c.Queued)
	return b.String()
}

// frontier is the crawler's view of its tables for one crawl.
type frontier struct {
	db    *store.DB
	sqldb *sql.DB
	crawl string
	owner string
	// shared: other processes work on the crawl at the same time (leases
	// checked at commit, politeness in crawl_hosts).
	shared bool
	pg     bool   // PostgreSQL: row locks (FOR UPDATE, SKIP LOCKED)
	nowSQL string // the database server's clock in milliseconds
}

func openFrontier(ctx context.Context, db *store.DB, crawl string) (*frontier, error) {
	if err := ensureTables(ctx, db); err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	owner := fmt.Sprintf("%s:%d:%d", host, os.Getpid(), time.Now().UnixNano())
	pg := db.Backend() == "postgres"
	return &frontier{db: db, sqldb: db.SQL(), crawl: crawl, owner: owner, pg: pg, nowSQL: nowExpr(pg)}, nil
}

// q rebinds a query for the back end and puts the database's clock in
// place of {{now}}.
func (f *frontier) q(s string) string {
	return f.db.Rebind(strings.ReplaceAll(s, "{{now}}", f.nowSQL))
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// crawlRow is the stored state of a crawl.
type crawlRow struct {
	Config     string
	Lexicon    map[string]float64
	Threshold  float64
	Calibrated bool
	Paused     bool
	Owner      string
	OwnerUntil time.Time
}

// loadCrawl returns the crawl's row, or nil when the crawl is new.
func loadCrawl(ctx context.Context, db *store.DB, name string) (*crawlRow, error) {
	var r crawlRow
	var lex string
	var until int64
	err := db.SQL().QueryRowContext(ctx, db.Rebind(`SELECT config, lexicon, threshold, calibrated, paused, owner, owner_until FROM crawl_crawls WHERE name = ?`), name).
		Scan(&r.Config, &lex, &r.Threshold, &r.Calibrated, &r.Paused, &r.Owner, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("crawl %s: %w", name, err)
	}
	r.OwnerUntil = time.UnixMilli(until)
	if lex != "" {
		if err := json.Unmarshal([]byte(lex), &r.Lexicon); err != nil {
			return nil, fmt.Errorf("crawl %s: stored lexicon: %w", name, err)
		}
	}
	return &r, nil
}

// ownerAlive reports whether the process that wrote owner (host:pid:nonce)
// may still be running: true unless it ran on this host and its pid is gone.
func ownerAlive(owner string) bool {
	parts := strings.Split(owner, ":")
	if len(parts) != 3 {
		return false
	}
	host, _ := os.Hostname()
	if parts[0] != host {
		return true
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// claim makes this process the crawl's owner, creating the crawl row when
// new. It fails when another live process owns the crawl.
func (f *frontier) claim(ctx context.Context, config string, ttl time.Duration) (*crawlRow, error) {
	row, err := loadCrawl(ctx, f.db, f.crawl)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if row == nil {
		_, err := f.sqldb.ExecContext(ctx, f.q(`INSERT INTO crawl_crawls (name, config, owner, owner_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`),
			f.crawl, config, f.owner, ms(now.Add(ttl)), ms(now), ms(now))
		if err != nil {
			return nil, fmt.Errorf("create crawl %s: %w", f.crawl, err)
		}
		return &crawlRow{Config: config}, nil
	}
	if row.Owner != "" && row.OwnerUntil.After(now) && ownerAlive(row.Owner) {
		return nil, fmt.Errorf("crawl %s is being run by another process (%s) until %s", f.crawl, row.Owner, row.OwnerUntil.Format(time.RFC3339))
	}
	res, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_crawls SET config = ?, owner = ?, owner_until = ?, updated_at = ? WHERE name = ? AND owner = ?`),
		config, f.owner, ms(now.Add(ttl)), ms(now), f.crawl, row.Owner)
	if err != nil {
		return nil, fmt.Errorf("claim crawl %s: %w", f.crawl, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, fmt.Errorf("crawl %s was claimed by another process meanwhile", f.crawl)
	}
	row.Config = config
	return row, nil
}

// heartbeat extends the ownership.
func (f *frontier) heartbeat(ctx context.Context, ttl time.Duration) error {
	_, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_crawls SET owner_until = ? WHERE name = ? AND owner = ?`), ms(time.Now().Add(ttl)), f.crawl, f.owner)
	return err
}

// release gives the crawl up.
func (f *frontier) release(ctx context.Context) error {
	_, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_crawls SET owner = '', owner_until = 0 WHERE name = ? AND owner = ?`), f.crawl, f.owner)
	return err
}

// setPaused sets the paused flag of a crawl.
func setPaused(ctx context.Context, db *store.DB, name string, paused bool) error {
	if err := ensureTables(ctx, db); err != nil {
		return err
	}
	res, err := db.SQL().ExecContext(ctx, db.Rebind(`UPDATE crawl_crawls SET paused = ?, updated_at = ? WHERE name = ?`), paused, ms(time.Now()), name)
	if err != nil {
		return fmt.Errorf("crawl %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("crawl %s: %w", name, store.ErrNotFound)
	}
	return nil
}

// Pause asks the running crawl name (in this or another process) to stop
// leasing URLs; Run returns with StopPaused once the URLs in flight are done.
func Pause(ctx context.Context, db *store.DB, name string) error {
	return setPaused(ctx, db, name, true)
}

// Resume clears the paused flag: the next Run of the crawl continues it.
func Resume(ctx context.Context, db *store.DB, name string) error {
	return setPaused(ctx, db, name, false)
}

func (f *frontier) paused(ctx context.Context) (bool, error) {
	var p bool
	err := f.sqldb.QueryRowContext(ctx, f.q(`SELECT paused FROM crawl_crawls WHERE name = ?`), f.crawl).Scan(&p)
	return p, err
}

func (f *frontier) saveModel(ctx context.Context, lex *relevance.Lexicon, threshold float64, calibrated bool) error {
	b, err := json.Marshal(lex.Weights())
	if err != nil {
		return err
	}
	_, err = f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_crawls SET lexicon = ?, threshold = ?, calibrated = ?, updated_at = ? WHERE name = ?`),
		string(b), threshold, calibrated, ms(time.Now()), f.crawl)
	if err != nil {
		return fmt.Errorf("crawl %s: save lexicon: %w", f.crawl, err)
	}
	return nil
}

// entry is one frontier row.
type entry struct {
	URL          string
	Host         string
	State        string
	Outcome      string
	Priority     Priority
	Depth, Hops  int
	Parent       string
	Anchor       string
	FromRelevant bool
	Seq          int64
	LeaseOwner   string
	PageID       int64
	Attempts     int // fetches that failed transiently and were retried
}

const entryCols = `url, host, state, outcome, priority, inherited, depth, hops, parent, anchor, from_relevant, seq, lease_owner, page_id, attempts`

func scanEntry(sc interface{ Scan(...any) error }) (entry, error) {
	var e entry
	err := sc.Scan(&e.URL, &e.Host, &e.State, &e.Outcome, &e.Priority.Score, &e.Priority.Inherited, &e.Depth, &e.Hops,
		&e.Parent, &e.Anchor, &e.FromRelevant, &e.Seq, &e.LeaseOwner, &e.PageID, &e.Attempts)
	return e, err
}

// leased returns the URLs left leased (by a process that died).
func (f *frontier) leased(ctx context.Context) ([]entry, error) {
	return f.entries(ctx, `WHERE crawl = ? AND state = ? ORDER BY seq`, f.crawl, StateLeased)
}

// entries returns the frontier rows selected by the SQL clauses where.
func (f *frontier) entries(ctx context.Context, where string, args ...any) ([]entry, error) {
	rows, err := f.sqldb.QueryContext(ctx, f.q(`SELECT `+entryCols+` FROM crawl_frontier `+where), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// candidates returns up to n queued URLs, best first.
func (f *frontier) candidates(ctx context.Context, n int, onlyRelevant bool) ([]entry, error) {
	cond := ""
	if onlyRelevant {
		cond = " AND from_relevant = TRUE"
	}
	out, err := f.entries(ctx, `WHERE crawl = ? AND state = ?`+cond+` ORDER BY priority DESC, seq LIMIT ?`, f.crawl, StateQueued, n)
	if err != nil {
		return nil, fmt.Errorf("frontier of %s: %w", f.crawl, err)
	}
	return out, nil
}

// lease marks a queued URL leased by this process.
func (f *frontier) lease(ctx context.Context, u string, ttl time.Duration) (bool, error) {
	res, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_frontier SET state = ?, lease_owner = ?, lease_until = ? WHERE crawl = ? AND url = ? AND state = ?`),
		StateLeased, f.owner, ms(time.Now().Add(ttl)), f.crawl, u, StateQueued)
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", u, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// requeue puts a leased URL back in the queue.
func (f *frontier) requeue(ctx context.Context, u string) error {
	q, args := f.mine(`UPDATE crawl_frontier SET state = ?, lease_owner = '', lease_until = 0 WHERE crawl = ? AND url = ? AND state = ?`,
		StateQueued, f.crawl, u, StateLeased)
	_, err := f.sqldb.ExecContext(ctx, q, args...)
	return err
}

// mine restricts an update of a leased row to this process's lease when
// the crawl is shared (another worker may have taken an expired lease over).
func (f *frontier) mine(q string, args ...any) (string, []any) {
	if f.shared {
		q += ` AND lease_owner = ?`
		args = append(args, f.owner)
	}
	return f.q(q), args
}

// retry puts a leased URL back in the queue after a transient failure.
func (f *frontier) retry(ctx context.Context, u string) error {
	q, args := f.mine(`UPDATE crawl_frontier SET state = ?, lease_owner = '', lease_until = 0, attempts = attempts + 1 WHERE crawl = ? AND url = ? AND state = ?`,
		StateQueued, f.crawl, u, StateLeased)
	_, err := f.sqldb.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("retry %s: %w", u, err)
	}
	return nil
}

// count returns how many rows of the crawl are in state (all when "").
func (f *frontier) count(ctx context.Context, state string) (int, error) {
	var n int
	var err error
	if state == "" {
		err = f.sqldb.QueryRowContext(ctx, f.q(`SELECT COUNT(*) FROM crawl_frontier WHERE crawl = ?`), f.crawl).Scan(&n)
	} else {
		err = f.sqldb.QueryRowContext(ctx, f.q(`SELECT COUNT(*) FROM crawl_frontier WHERE crawl = ? AND state = ?`), f.crawl, state).Scan(&n)
	}
	return n, err
}

// CrawlCounters derives the outcome counters of crawl name from its frontier.
func CrawlCounters(ctx context.Context, db *store.DB, name string) (Counters, error) {
	if err := ensureTables(ctx, db); err != nil {
		return Counters{}, err
	}
	c := Counters{Outcomes: map[string]int{}}
	rows, err := db.SQL().QueryContext(ctx, db.Rebind(`SELECT state, outcome, COUNT(*), COALESCE(SUM(tokens), 0) FROM crawl_frontier WHERE crawl = ? GROUP BY state, outcome`), name)
	if err != nil {
		return c, fmt.Errorf("counters of crawl %s: %w", name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var state, outcome string
		var n int
		var tokens int64
		if err := rows.Scan(&state, &outcome, &n, &tokens); err != nil {
			return c, err
		}
		switch state {
		case StateQueued:
			c.Queued += n
		case StateLeased:
			c.Leased += n
		case StateDone:
			c.Outcomes[outcome] += n
			if outcome == OutcomeValidated {
				c.Validated += n
				c.Tokens += tokens
			}
		}
	}
	for _, o := range fetchedOutcomes {
		c.Tried += c.Outcomes[o]
	}
	return c, rows.Err()
}

// Crawls lists the names of the crawls in db.
func Crawls(ctx context.Context, db *store.DB) ([]string, error) {
	if err := ensureTables(ctx, db); err != nil {
		return nil, err
	}
	rows, err := db.SQL().QueryContext(ctx, `SELECT name FROM crawl_crawls ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// discovered is a URL found on a page (or a seed), to enqueue.
type discovered struct {
	URL          string
	Host         string
	Priority     Priority
	Depth, Hops  int
	Parent       string
	Anchor       string
	FromRelevant bool
}

// edge is a hyperlink or redirect between two URLs.
type edge struct {
	Source, Target, Kind, Anchor string
}

// doneRecord is what processing a URL decided.
type doneRecord struct {
	URL      string
	Outcome  string
	Detail   string
	PageID   int64
	FetchSeq int64
	Score    float64
	Relevant bool
	Tokens   int
	SimHash  relevance.SimHash
	Depth    int // the page's own depth (0 when relevant)
	Aliases  []string
	Links    []discovered
	Edges    []edge
	Strategy Strategy
	// HostPageCap bounds the URLs queued per host (0: no cap).
	HostPageCap int
}

// ErrLeaseLost is returned when a worker commits a URL whose lease expired
// and was taken over by another worker: the other's outcome stands.
var ErrLeaseLost = errors.New("lease lost: the URL was taken over by another worker")

// commit records a processed URL in one transaction: its outcome, the
// aliases (redirect targets) marked done, the discovered URLs enqueued or
// their priorities merged, and the edges. Sequence numbers are reserved
// first, outside the transaction (gaps are harmless); the transaction is
// run again after a deadlock between workers.
func (f *frontier) commit(ctx context.Context, d doneRecord) error {
	first, err := f.reserveSeq(ctx, "next_seq", len(d.Aliases)+len(d.Links))
	if err != nil {
		return fmt.Errorf("commit %s: %w", d.URL, err)
	}
	// Links are enqueued in URL order, so that concurrent commits lock
	// shared rows in one order; their sequence numbers keep the order of
	// discovery.
	type seqLink struct {
		discovered
		seq int64
	}
	links := make([]seqLink, len(d.Links))
	for i, l := range d.Links {
		links[i] = seqLink{l, first + int64(len(d.Aliases)+i)}
	}
	sort.SliceStable(links, func(i, j int) bool { return links[i].URL < links[j].URL })
	err = f.db.Tx(ctx, func(tx *sql.Tx) error {
		now := ms(time.Now())
		if err := f.markDone(ctx, tx, d, now); err != nil {
			return err
		}
		for i, a := range d.Aliases {
			_, err := tx.ExecContext(ctx, f.q(`INSERT INTO crawl_frontier (crawl, url, host, state, outcome, priority, depth, hops, parent, seq, discovered_at, done_at)
			VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?, ?, ?, ?)
			ON CONFLICT (crawl, url) DO UPDATE SET state = excluded.state, outcome = excluded.outcome, done_at = excluded.done_at
			WHERE crawl_frontier.state = 'queued'`),
				f.crawl, a, hostOf(a), StateDone, OutcomeAlias, d.URL, first+int64(i), now, now)
			if err != nil {
				return fmt.Errorf("alias %s: %w", a, err)
			}
		}
		for _, l := range links {
			if err := f.upsert(ctx, tx, l.discovered, d.Strategy, l.seq, d.HostPageCap, now); err != nil {
				return err
			}
		}
		for _, e := range d.Edges {
			if _, err := tx.ExecContext(ctx, f.q(`INSERT INTO crawl_edges (crawl, source, target, kind, anchor) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
				f.crawl, e.Source, e.Target, e.Kind, truncate(e.Anchor, 300)); err != nil {
				return fmt.Errorf("edge: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("commit %s: %w", d.URL, err)
	}
	return nil
}

// markDone records the outcome of d's URL. A shared crawl checks that the
// URL is still leased by this process.
func (f *frontier) markDone(ctx context.Context, tx *sql.Tx, d doneRecord, now int64) error {
	q := `UPDATE crawl_frontier SET state = ?, outcome = ?, detail = ?, page_id = ?, fetch_seq = ?, score = ?, relevant = ?,
		tokens = ?, simhash = ?, depth = ?, lease_owner = '', lease_until = 0, done_at = ? WHERE crawl = ? AND url = ?`
	args := []any{StateDone, d.Outcome, truncate(d.Detail, 500), d.PageID, d.FetchSeq, d.Score, d.Relevant, d.Tokens, int64(d.SimHash), d.Depth, now, f.crawl, d.URL}
	if f.shared {
		q += ` AND state = ? AND lease_owner = ?`
		args = append(args, StateLeased, f.owner)
	}
	res, err := tx.ExecContext(ctx, f.q(q), args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		if f.shared {
			return ErrLeaseLost
		}
		return fmt.Errorf("not in the frontier of crawl %s", f.crawl)
	}
	return nil
}

// upsert enqueues a discovered URL with sequence number seq, or merges its
// priority into the queued row (strategy.Merge); done and leased rows keep
// theirs. A new URL of a host that has hostCap URLs already is dropped.
func (f *frontier) upsert(ctx context.Context, tx *sql.Tx, l discovered, s Strategy, seq int64, hostCap int, now int64) error {
	var state string
	var p Priority
	var fromRel bool
	sel := `SELECT state, priority, inherited, from_relevant FROM crawl_frontier WHERE crawl = ? AND url = ?`
	err := tx.QueryRowContext(ctx, f.q(sel), f.crawl, l.URL).Scan(&state, &p.Score, &p.Inherited, &fromRel)
	if err == nil && state == StateQueued && f.pg {
		// Merges of one row by two workers must not lose one: read it
		// again, locked. Only queued rows are locked: a worker's commit
		// holds its own (leased) row, which others' links must not wait
		// for (two pages linking to each other would deadlock).
		err = tx.QueryRowContext(ctx, f.q(sel+` FOR UPDATE`), f.crawl, l.URL).Scan(&state, &p.Score, &p.Inherited, &fromRel)
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return f.insert(ctx, tx, l, s, seq, hostCap, now)
	case err != nil:
		return fmt.Errorf("enqueue %s: %w", l.URL, err)
	case state != StateQueued:
		return nil
	}
	m := s.Merge(p, l.Priority)
	_, err = tx.ExecContext(ctx, f.q(`UPDATE crawl_frontier SET priority = ?, inherited = ?, from_relevant = ?,
		depth = CASE WHEN depth > ? THEN ? ELSE depth END WHERE crawl = ? AND url = ?`),
		m.Score, m.Inherited, fromRel || l.FromRelevant, l.Depth, l.Depth, f.crawl, l.URL)
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", l.URL, err)
	}
	return nil
}

// insert queues a new URL when its host is under the cap. Another worker
// may have queued it meanwhile: its priority is then merged.
func (f *frontier) insert(ctx context.Context, tx *sql.Tx, l discovered, s Strategy, seq int64, hostCap int, now int64) error {
	if ok, err := f.countHost(ctx, tx, l.Host, hostCap); err != nil || !ok {
		return err
	}
	res, err := tx.ExecContext(ctx, f.q(`INSERT INTO crawl_frontier (crawl, url, host, state, priority, inherited, depth, hops, parent, anchor, from_relevant, seq, discovered_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (crawl, url) DO NOTHING`),
		f.crawl, l.URL, l.Host, StateQueued, l.Priority.Score, l.Priority.Inherited, l.Depth, l.Hops, l.Parent, truncate(l.Anchor, 300), l.FromRelevant, seq, now)
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", l.URL, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return f.upsert(ctx, tx, l, s, seq, 0, now)
	}
	return nil
}

// countHost counts one more URL of host in the crawl's host caps, and
// reports false (counting nothing) when host has hostCap URLs already.
func (f *frontier) countHost(ctx context.Context, tx *sql.Tx, host string, hostCap int) (bool, error) {
	if _, err := tx.ExecContext(ctx, f.q(`INSERT INTO crawl_host_pages (crawl, host, pages) VALUES (?, ?, 0) ON CONFLICT DO NOTHING`), f.crawl, host); err != nil {
		return false, fmt.Errorf("host cap of %s: %w", host, err)
	}
	q := `UPDATE crawl_host_pages SET pages = pages + 1 WHERE crawl = ? AND host = ?`
	args := []any{f.crawl, host}
	if hostCap > 0 {
		q += ` AND pages < ?`
		args = append(args, hostCap)
	}
	res, err := tx.ExecContext(ctx, f.q(q), args...)
	if err != nil {
		return false, fmt.Errorf("host cap of %s: %w", host, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// seed enqueues the seed URLs not yet known (counted in the host caps).
func (f *frontier) seed(ctx context.Context, seeds []discovered, s Strategy) error {
	first, err := f.reserveSeq(ctx, "next_seq", len(seeds))
	if err != nil {
		return err
	}
	return f.db.Tx(ctx, func(tx *sql.Tx) error {
		now := ms(time.Now())
		for i, d := range seeds {
			if err := f.upsert(ctx, tx, d, s, first+int64(i), 0, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// reserveSeq reserves n consecutive numbers of the crawl's counter column
// (next_seq or next_fetch_seq) and returns the first.
func (f *frontier) reserveSeq(ctx context.Context, column string, n int) (int64, error) {
	if n == 0 {
		return 0, nil
	}
	var last int64
	err := f.sqldb.QueryRowContext(ctx, f.q(`UPDATE crawl_crawls SET `+column+` = `+column+` + ? WHERE name = ? RETURNING `+column), n, f.crawl).Scan(&last)
	if err != nil {
		return 0, fmt.Errorf("crawl %s: sequence numbers: %w", f.crawl, err)
	}
	return last - int64(n) + 1, nil
}

// simhashes returns the fingerprints of the pages kept so far, for the
// near-duplicate filter after a restart.
func (f *frontier) simhashes(ctx context.Context) ([]relevance.SimHash, error) {
	rows, err := f.sqldb.QueryContext(ctx, f.q(`SELECT simhash FROM crawl_frontier WHERE crawl = ? AND state = ? AND outcome IN (?, ?) ORDER BY fetch_seq`),
		f.crawl, StateDone, OutcomeValidated, OutcomeIrrelevant)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []relevance.SimHash
	for rows.Next() {
		var h int64
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, relevance.SimHash(uint64(h)))
	}
	return out, rows.Err()
}

// FetchedURL is one URL of a crawl that was requested, in fetch order.
type FetchedURL struct {
	URL      string
	Outcome  string
	Relevant bool // the crawler's judgement
	Score    float64
	PageID   int64
	Depth    int
}

// Fetched lists the URLs crawl name requested, in the order they were
// fetched.
func Fetched(ctx context.Context, db *store.DB, name string) ([]FetchedURL, error) {
	if err := ensureTables(ctx, db); err != nil {
		return nil, err
	}
	rows, err := db.SQL().QueryContext(ctx, db.Rebind(`SELECT url, outcome, relevant, score, page_id, depth FROM crawl_frontier
		WHERE crawl = ? AND state = ? AND fetch_seq > 0 ORDER BY fetch_seq`), name, StateDone)
	if err != nil {
		return nil, fmt.Errorf("fetched URLs of crawl %s: %w", name, err)
	}
	defer rows.Close()
	var out []FetchedURL
	for rows.Next() {
		var u FetchedURL
		if err := rows.Scan(&u.URL, &u.Outcome, &u.Relevant, &u.Score, &u.PageID, &u.Depth); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// state returns the state and outcome of URL u ("" when u is not in the
// frontier).
func (f *frontier) state(ctx context.Context, u string) (state, outcome string, err error) {
	err = f.sqldb.QueryRowContext(ctx, f.q(`SELECT state, outcome FROM crawl_frontier WHERE crawl = ? AND url = ?`), f.crawl, u).Scan(&state, &outcome)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil
	}
	return state, outcome, err
}

// keptPages returns the ids of the stored pages the crawl judged (relevant
// or not), in id order.
func (f *frontier) keptPages(ctx context.Context) ([]int64, error) {
	rows, err := f.sqldb.QueryContext(ctx, f.q(`SELECT page_id FROM crawl_frontier WHERE crawl = ? AND state = ? AND outcome IN (?, ?) AND page_id > 0 ORDER BY page_id`),
		f.crawl, StateDone, OutcomeValidated, OutcomeIrrelevant)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
