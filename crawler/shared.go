package crawler

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
)

// A shared crawl is worked on by any number of processes at once, on any
// number of machines sharing one PostgreSQL database (see Join and the
// package documentation, "Workers"). Everything the single-process crawl
// keeps in memory lives in the database there: leases with an expiry, the
// hosts' politeness slots, the host caps and the sequence numbers.

// nowExpr is the database server's clock in milliseconds since the epoch:
// leases and politeness slots of workers on several machines are read
// against one clock.
func nowExpr(pg bool) string {
	if pg {
		return `CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)`
	}
	return `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`
}

// dbSlots are the politeness slots of a shared crawl: one row per host in
// crawl_hosts, shared by every worker and every crawl of the database. One
// fetch per host at a time, and delay (or the Crawl-delay) between the end
// of one and the start of the next, whichever process makes them.
type dbSlots struct {
	fr    queue
	delay time.Duration
	// hold is how long a slot stays taken by a worker that died with it.
	hold time.Duration
	poll time.Duration
	logf func(string, ...any)
}

// Ready is always true: the lease query itself skips the hosts whose slot is
// taken or waiting.
func (s *dbSlots) Ready(string) bool { return true }

func (s *dbSlots) Acquire(ctx context.Context, host string) (func(time.Duration), error) {
	for {
		ok, err := s.fr.takeSlot(ctx, host, s.hold)
		if err != nil {
			return nil, err
		}
		if ok {
			return func(crawlDelay time.Duration) {
				if err := s.fr.freeSlot(context.Background(), host, max(s.delay, crawlDelay)); err != nil {
					// The slot frees itself after hold: politeness is kept.
					s.logf("host slot of %s: %v", host, err)
				}
			}, nil
		}
		t := time.NewTimer(s.poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// takeSlot reserves host's slot for this process when it is free and its
// delay has passed.
func (f *frontier) takeSlot(ctx context.Context, host string, hold time.Duration) (bool, error) {
	if _, err := f.sqldb.ExecContext(ctx, f.q(`INSERT INTO crawl_hosts (host) VALUES (?) ON CONFLICT DO NOTHING`), host); err != nil {
		return false, fmt.Errorf("host slot of %s: %w", host, err)
	}
	res, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_hosts SET owner = ?, busy_until = {{now}} + ?
		WHERE host = ? AND (owner = '' OR busy_until < {{now}}) AND next_at <= {{now}}`), f.owner, hold.Milliseconds(), host)
	if err != nil {
		return false, fmt.Errorf("host slot of %s: %w", host, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// freeSlot ends this process's fetch of host: the next may start after delay.
func (f *frontier) freeSlot(ctx context.Context, host string, delay time.Duration) error {
	_, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_hosts SET owner = '', busy_until = 0, next_at = {{now}} + ? WHERE host = ? AND owner = ?`),
		delay.Milliseconds(), host, f.owner)
	return err
}

// leaseResult says what leaseNext found.
type leaseResult int

const (
	leaseGot      leaseResult = iota // a queued URL, now leased
	leaseTakeover                    // an expired lease of another worker, taken over
	leaseWait                        // nothing ready now (hosts busy or waiting): ask again
	leaseBudget                      // MaxPages requested or leased already
	leaseEmpty                       // nothing queued or leased anywhere: the crawl is over
)

// leaseRequest is what a worker asks leaseNext for.
type leaseRequest struct {
	TTL          time.Duration
	MaxPages     int      // 0: no limit
	OnlyRelevant bool     // only URLs found on relevant pages (ExhaustRelevant)
	Skip         []string // hosts this worker is fetching from or has suspended
}

// leaseNext leases the best queued URL whose host's slot is free, or takes
// over a lease that expired (its worker died), in one transaction. The
// crawl's row is locked first, so that the MaxPages budget (URLs requested
// plus leased, over every worker) is never overshot; queued rows other
// workers are merging priorities into are skipped (SKIP LOCKED), not waited
// for.
func (f *frontier) leaseNext(ctx context.Context, r leaseRequest) (*entry, leaseResult, error) {
	var e *entry
	var res leaseResult
	err := f.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		e, res, err = f.leaseTx(ctx, tx, r)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("crawl %s: lease: %w", f.crawl, err)
	}
	return e, res, nil
}

func (f *frontier) leaseTx(ctx context.Context, tx *sql.Tx, r leaseRequest) (*entry, leaseResult, error) {
	skipLocked := ""
	if f.pg {
		skipLocked = " FOR UPDATE SKIP LOCKED"
		var name string
		if err := tx.QueryRowContext(ctx, f.q(`SELECT name FROM crawl_crawls WHERE name = ? FOR NO KEY UPDATE`), f.crawl).Scan(&name); err != nil {
			return nil, 0, err
		}
	}
	e, err := f.pick(ctx, tx, `WHERE crawl = ? AND state = ? AND lease_until < {{now}} ORDER BY seq LIMIT 1`+skipLocked, f.crawl, StateLeased)
	if err != nil || e != nil {
		return e, leaseTakeover, f.take(ctx, tx, e, r.TTL, err)
	}
	if r.MaxPages > 0 {
		n, err := f.requested(ctx, tx)
		if err != nil || n >= r.MaxPages {
			return nil, leaseBudget, err
		}
	}
	where := `fr WHERE crawl = ? AND state = ?`
	args := []any{f.crawl, StateQueued}
	if r.OnlyRelevant {
		where += ` AND from_relevant = TRUE`
	}
	if len(r.Skip) > 0 {
		where += ` AND host NOT IN (?` + strings.Repeat(", ?", len(r.Skip)-1) + `)`
		for _, h := range r.Skip {
			args = append(args, h)
		}
	}
	where += ` AND NOT EXISTS (SELECT 1 FROM crawl_hosts h WHERE h.host = fr.host AND ((h.owner <> '' AND h.busy_until >= {{now}}) OR h.next_at > {{now}}))
		ORDER BY priority DESC, seq LIMIT 1` + skipLocked
	if e, err = f.pick(ctx, tx, where, args...); err != nil || e != nil {
		return e, leaseGot, f.take(ctx, tx, e, r.TTL, err)
	}
	var left int
	err = tx.QueryRowContext(ctx, f.q(`SELECT COUNT(*) FROM crawl_frontier WHERE crawl = ? AND state IN (?, ?)`), f.crawl, StateQueued, StateLeased).Scan(&left)
	if err != nil || left > 0 {
		return nil, leaseWait, err
	}
	return nil, leaseEmpty, nil
}

// pick reads the one frontier row selected by where, nil when none.
func (f *frontier) pick(ctx context.Context, tx *sql.Tx, where string, args ...any) (*entry, error) {
	e, err := scanEntry(tx.QueryRowContext(ctx, f.q(`SELECT `+entryCols+` FROM crawl_frontier `+where), args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// take leases e (picked in tx) to this process for ttl.
func (f *frontier) take(ctx context.Context, tx *sql.Tx, e *entry, ttl time.Duration, err error) error {
	if err != nil || e == nil {
		return err
	}
	_, err = tx.ExecContext(ctx, f.q(`UPDATE crawl_frontier SET state = ?, lease_owner = ?, lease_until = {{now}} + ? WHERE crawl = ? AND url = ?`),
		StateLeased, f.owner, ttl.Milliseconds(), f.crawl, e.URL)
	e.State, e.LeaseOwner = StateLeased, f.owner
	return err
}

// requested counts the URLs requested (Babouk's "tried") or leased now.
func (f *frontier) requested(ctx context.Context, tx *sql.Tx) (int, error) {
	q := `SELECT COUNT(*) FROM crawl_frontier WHERE crawl = ? AND (state = ? OR (state = ? AND outcome IN (?` + strings.Repeat(", ?", len(fetchedOutcomes)-1) + `)))`
	args := []any{f.crawl, StateLeased, StateDone}
	for _, o := range fetchedOutcomes {
		args = append(args, o)
	}
	var n int
	err := tx.QueryRowContext(ctx, f.q(q), args...).Scan(&n)
	return n, err
}

// renewLeases extends the leases this process holds.
func (f *frontier) renewLeases(ctx context.Context, ttl time.Duration) error {
	_, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_frontier SET lease_until = {{now}} + ? WHERE crawl = ? AND state = ? AND lease_owner = ?`),
		ttl.Milliseconds(), f.crawl, StateLeased, f.owner)
	return err
}

// join registers this process as a worker of the crawl: the crawl's row is
// created when new (created true), its configuration replaced when update.
func (f *frontier) join(ctx context.Context, config string, update bool) (row *crawlRow, created bool, err error) {
	now := ms(time.Now())
	res, err := f.sqldb.ExecContext(ctx, f.q(`INSERT INTO crawl_crawls (name, config, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		f.crawl, config, now, now)
	if err != nil {
		return nil, false, fmt.Errorf("create crawl %s: %w", f.crawl, err)
	}
	n, _ := res.RowsAffected()
	created = n == 1
	if !created && update {
		if _, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_crawls SET config = ?, updated_at = ? WHERE name = ?`), config, now, f.crawl); err != nil {
			return nil, false, fmt.Errorf("crawl %s: %w", f.crawl, err)
		}
	}
	row, err = loadCrawl(ctx, f.db, f.crawl)
	if err == nil && row == nil {
		err = fmt.Errorf("crawl %s was deleted meanwhile", f.crawl)
	}
	return row, created, err
}

// idle reports whether nothing of the crawl is queued or leased.
func (f *frontier) idle(ctx context.Context) (bool, error) {
	var n int
	err := f.sqldb.QueryRowContext(ctx, f.q(`SELECT COUNT(*) FROM crawl_frontier WHERE crawl = ? AND state IN (?, ?)`), f.crawl, StateQueued, StateLeased).Scan(&n)
	return n == 0, err
}

// claimJob records that this process does job (kind, level) of site for
// the crawl, and reports false when another process has already taken it:
// each job runs once, on whichever worker takes it first.
func (f *frontier) claimJob(ctx context.Context, site, kind string, level int) (bool, error) {
	res, err := f.sqldb.ExecContext(ctx, f.q(`INSERT INTO crawl_jobs (crawl, site, kind, level, owner, started_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		f.crawl, site, kind, level, f.owner, ms(time.Now()))
	if err != nil {
		return false, fmt.Errorf("crawl %s: job %s of %s: %w", f.crawl, kind, site, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// simhashesAfter returns the fingerprints of the pages kept with a fetch
// sequence number above seq, and the last such number.
func (f *frontier) simhashesAfter(ctx context.Context, seq int64) ([]relevance.SimHash, int64, error) {
	rows, err := f.sqldb.QueryContext(ctx, f.q(`SELECT simhash, fetch_seq FROM crawl_frontier WHERE crawl = ? AND state = ? AND outcome IN (?, ?) AND fetch_seq > ? ORDER BY fetch_seq`),
		f.crawl, StateDone, OutcomeValidated, OutcomeIrrelevant, seq)
	if err != nil {
		return nil, seq, err
	}
	defer rows.Close()
	var out []relevance.SimHash
	for rows.Next() {
		var h int64
		if err := rows.Scan(&h, &seq); err != nil {
			return nil, seq, err
		}
		out = append(out, relevance.SimHash(uint64(h)))
	}
	return out, seq, rows.Err()
}

// RunningCrawls lists the crawls of db that have work left: not paused,
// with URLs queued or leased, their limits (MaxPages, MaxDocs, MaxTokens)
// not reached.
func RunningCrawls(ctx context.Context, db *store.DB) ([]string, error) {
	if err := ensureTables(ctx, db); err != nil {
		return nil, err
	}
	rows, err := db.SQL().QueryContext(ctx, db.Rebind(`SELECT c.name FROM crawl_crawls c WHERE c.paused = FALSE
		AND EXISTS (SELECT 1 FROM crawl_frontier f WHERE f.crawl = c.name AND f.state IN (?, ?)) ORDER BY c.name`), StateQueued, StateLeased)
	if err != nil {
		return nil, fmt.Errorf("running crawls: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	var out []string
	for _, n := range names {
		cfg, err := StoredConfig(ctx, db, n)
		if err != nil {
			return nil, err
		}
		cnt, err := CrawlCounters(ctx, db, n)
		if err != nil {
			return nil, err
		}
		if cfg.limitReached(cnt, cnt.Leased) == "" {
			out = append(out, n)
		}
	}
	return out, nil
}

// expireDead ends at once the leases and host slots of workers that ran on
// this machine and are gone (ownerAlive): they are taken over without
// waiting for their expiry (a freed host waits delay from now: the dead
// worker's request ended when it died, at the latest). Leases and slots of
// other machines' workers expire with time.
func (f *frontier) expireDead(ctx context.Context, delay time.Duration) error {
	rows, err := f.sqldb.QueryContext(ctx, f.q(`SELECT DISTINCT lease_owner FROM crawl_frontier WHERE crawl = ? AND state = ?`), f.crawl, StateLeased)
	if err != nil {
		return err
	}
	var dead []string
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			rows.Close()
			return err
		}
		if !ownerAlive(o) {
			dead = append(dead, o)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, o := range dead {
		if _, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_frontier SET lease_until = 0 WHERE crawl = ? AND state = ? AND lease_owner = ?`), f.crawl, StateLeased, o); err != nil {
			return err
		}
		if _, err := f.sqldb.ExecContext(ctx, f.q(`UPDATE crawl_hosts SET owner = '', busy_until = 0, next_at = {{now}} + ? WHERE owner = ?`), delay.Milliseconds(), o); err != nil {
			return err
		}
	}
	return nil
}
