package frontier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gleaner/gleaner/process"
	"github.com/gleaner/gleaner/relevance"
)

// Join registers this process as a worker of the crawl: the crawl's row is
// created when new (created true), its configuration replaced when update.
func (f *Frontier) Join(ctx context.Context, config string, update bool) (row *CrawlRow, created bool, err error) {
	now := ms(time.Now())
	res, err := f.s.sqldb.ExecContext(ctx, f.s.q(`INSERT INTO crawl_crawls (name, config, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		f.crawl, config, now, now)
	if err != nil {
		return nil, false, fmt.Errorf("create crawl %s: %w", f.crawl, err)
	}
	n, _ := res.RowsAffected()
	created = n == 1
	if !created && update {
		if _, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_crawls SET config = ?, updated_at = ? WHERE name = ?`), config, now, f.crawl); err != nil {
			return nil, false, fmt.Errorf("crawl %s: %w", f.crawl, err)
		}
	}
	row, err = f.s.Crawl(ctx, f.crawl)
	if err == nil && row == nil {
		err = fmt.Errorf("crawl %s was deleted meanwhile", f.crawl)
	}
	return row, created, err
}

// RenewLeases extends the leases this process holds.
func (f *Frontier) RenewLeases(ctx context.Context, ttl time.Duration) error {
	_, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_frontier SET lease_until = {{now}} + ? WHERE crawl = ? AND state = ? AND lease_owner = ?`),
		ttl.Milliseconds(), f.crawl, Leased, f.owner)
	return err
}

// TakeSlot reserves host's politeness slot for this process when it is
// free and its delay has passed; a slot is one row per host, shared by
// every worker and every crawl of the database, timed by the database
// server's clock. hold is how long the slot stays taken if this process
// dies with it.
func (f *Frontier) TakeSlot(ctx context.Context, host string, hold time.Duration) (bool, error) {
	if _, err := f.s.sqldb.ExecContext(ctx, f.s.q(`INSERT INTO crawl_hosts (host) VALUES (?) ON CONFLICT DO NOTHING`), host); err != nil {
		return false, fmt.Errorf("host slot of %s: %w", host, err)
	}
	res, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_hosts SET owner = ?, busy_until = {{now}} + ?
		WHERE host = ? AND (owner = '' OR busy_until < {{now}}) AND next_at <= {{now}}`), f.owner, hold.Milliseconds(), host)
	if err != nil {
		return false, fmt.Errorf("host slot of %s: %w", host, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// FreeSlot ends this process's fetch of host: the next may start after
// delay.
func (f *Frontier) FreeSlot(ctx context.Context, host string, delay time.Duration) error {
	_, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_hosts SET owner = '', busy_until = 0, next_at = {{now}} + ? WHERE host = ? AND owner = ?`),
		delay.Milliseconds(), host, f.owner)
	return err
}

// Next leases the URL to fetch next: on a Local frontier the best queued
// URL whose host is not skipped and ready (r.Ready); on a Shared one see
// nextShared.
func (f *Frontier) Next(ctx context.Context, r LeaseRequest) (*Entry, LeaseResult, error) {
	if f.shared {
		return f.nextShared(ctx, r)
	}
	cands, err := f.candidates(ctx, 256, r.OnlyRelevant)
	if err != nil || len(cands) == 0 {
		return nil, Empty, err
	}
	i := slices.IndexFunc(cands, func(e Entry) bool {
		return !slices.Contains(r.Skip, e.Host) && (r.Ready == nil || r.Ready(e.Host))
	})
	if i < 0 {
		return nil, Wait, nil
	}
	ok, err := f.lease(ctx, cands[i].URL, r.TTL)
	if err != nil || !ok {
		return nil, Wait, err
	}
	e := cands[i]
	e.State, e.LeaseOwner = Leased, f.owner
	return &e, Got, nil
}

// nextShared leases the best queued URL whose host's slot is free, or
// takes over a lease that expired (its worker died), in one transaction.
// The crawl's row is locked first, so that the MaxPages budget (URLs
// requested plus leased, over every worker) is never overshot; queued rows
// other workers are merging priorities into are skipped (SKIP LOCKED),
// not waited for.
func (f *Frontier) nextShared(ctx context.Context, r LeaseRequest) (*Entry, LeaseResult, error) {
	var e *Entry
	var res LeaseResult
	err := f.s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		e, res, err = f.leaseTx(ctx, tx, r)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("crawl %s: lease: %w", f.crawl, err)
	}
	return e, res, nil
}

func (f *Frontier) leaseTx(ctx context.Context, tx *sql.Tx, r LeaseRequest) (*Entry, LeaseResult, error) {
	skipLocked, err := f.lockCrawl(ctx, tx)
	if err != nil {
		return nil, 0, err
	}
	e, err := f.pick(ctx, tx, `WHERE crawl = ? AND state = ? AND lease_until < {{now}} ORDER BY seq LIMIT 1`+skipLocked, f.crawl, Leased)
	if err != nil || e != nil {
		return e, Takeover, f.take(ctx, tx, e, r.TTL, err)
	}
	if r.MaxPages > 0 {
		n, err := f.requested(ctx, tx)
		if err != nil || n >= r.MaxPages {
			return nil, Budget, err
		}
	}
	where, args := f.nextQueued(r)
	if e, err = f.pick(ctx, tx, where+skipLocked, args...); err != nil || e != nil {
		return e, Got, f.take(ctx, tx, e, r.TTL, err)
	}
	var left int
	err = tx.QueryRowContext(ctx, f.s.q(`SELECT COUNT(*) FROM crawl_frontier WHERE crawl = ? AND state IN (?, ?)`), f.crawl, Queued, Leased).Scan(&left)
	if err != nil || left > 0 {
		return nil, Wait, err
	}
	return nil, Empty, nil
}

// lockCrawl locks the crawl's row on PostgreSQL and returns the clause
// that skips locked rows there ("" on SQLite, whose writers are serial).
func (f *Frontier) lockCrawl(ctx context.Context, tx *sql.Tx) (string, error) {
	if !f.s.pg {
		return "", nil
	}
	var name string
	err := tx.QueryRowContext(ctx, f.s.q(`SELECT name FROM crawl_crawls WHERE name = ? FOR NO KEY UPDATE`), f.crawl).Scan(&name)
	return " FOR UPDATE SKIP LOCKED", err
}

// nextQueued is the query of the best queued URL r may lease: its host
// neither skipped nor busy or waiting in its slot.
func (f *Frontier) nextQueued(r LeaseRequest) (string, []any) {
	where := `fr WHERE crawl = ? AND state = ?`
	args := []any{f.crawl, Queued}
	if r.OnlyRelevant {
		where += ` AND from_relevant = TRUE`
	}
	if len(r.Skip) > 0 {
		where += ` AND host NOT IN ` + in(len(r.Skip))
		for _, h := range r.Skip {
			args = append(args, h)
		}
	}
	where += ` AND NOT EXISTS (SELECT 1 FROM crawl_hosts h WHERE h.host = fr.host AND ((h.owner <> '' AND h.busy_until >= {{now}}) OR h.next_at > {{now}}))
		ORDER BY priority DESC, seq LIMIT 1`
	return where, args
}

// pick reads the one frontier row selected by where, nil when none.
func (f *Frontier) pick(ctx context.Context, tx *sql.Tx, where string, args ...any) (*Entry, error) {
	e, err := scanEntry(tx.QueryRowContext(ctx, f.s.q(`SELECT `+entryCols+` FROM crawl_frontier `+where), args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// take leases e (picked in tx) to this process for ttl.
func (f *Frontier) take(ctx context.Context, tx *sql.Tx, e *Entry, ttl time.Duration, err error) error {
	if err != nil || e == nil {
		return err
	}
	_, err = tx.ExecContext(ctx, f.s.q(`UPDATE crawl_frontier SET state = ?, lease_owner = ?, lease_until = {{now}} + ? WHERE crawl = ? AND url = ?`),
		Leased, f.owner, ttl.Milliseconds(), f.crawl, e.URL)
	e.State, e.LeaseOwner = Leased, f.owner
	return err
}

// requested counts the URLs requested (Babouk's "tried") or leased now.
func (f *Frontier) requested(ctx context.Context, tx *sql.Tx) (int, error) {
	q := `SELECT COUNT(*) FROM crawl_frontier WHERE crawl = ? AND (state = ? OR (state = ? AND outcome IN ` + in(len(fetchedOutcomes)) + `))`
	args := []any{f.crawl, Leased, Done}
	for _, o := range fetchedOutcomes {
		args = append(args, o)
	}
	var n int
	err := tx.QueryRowContext(ctx, f.s.q(q), args...).Scan(&n)
	return n, err
}

// JobKind is a job run once per crawl, site and level; stored as its text.
type JobKind string

// Kinds of jobs.
const (
	LearnJob JobKind = "learn" // template learning of a site at a page count
	FinalJob JobKind = "final" // template learning of a site at the end
)

// ClaimJob records that this process does job (kind, level) of site for
// the crawl, and reports false when another process has already taken it:
// each job runs once, on whichever worker takes it first.
func (f *Frontier) ClaimJob(ctx context.Context, site string, kind JobKind, level int) (bool, error) {
	res, err := f.s.sqldb.ExecContext(ctx, f.s.q(`INSERT INTO crawl_jobs (crawl, site, kind, level, owner, started_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		f.crawl, site, string(kind), level, f.owner, ms(time.Now()))
	if err != nil {
		return false, fmt.Errorf("crawl %s: job %s of %s: %w", f.crawl, kind, site, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// SimHashesAfter returns the fingerprints of the pages kept with a fetch
// sequence number above seq, and the last such number.
func (f *Frontier) SimHashesAfter(ctx context.Context, seq int64) ([]relevance.SimHash, int64, error) {
	rows, err := f.s.sqldb.QueryContext(ctx, f.s.q(`SELECT simhash, fetch_seq FROM crawl_frontier WHERE crawl = ? AND state = ? AND outcome IN (?, ?) AND fetch_seq > ? ORDER BY fetch_seq`),
		f.crawl, Done, Validated, Irrelevant, seq)
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

// ExpireDead ends at once the leases and host slots of workers that ran on
// this machine and are gone (process.AliveOwner): they are taken over
// without waiting for their expiry (a freed host waits delay from now: the
// dead worker's request ended when it died, at the latest). Leases and
// slots of other machines' workers expire with time.
func (f *Frontier) ExpireDead(ctx context.Context, delay time.Duration) error {
	owners, err := f.s.strings(ctx, `SELECT DISTINCT lease_owner FROM crawl_frontier WHERE crawl = ? AND state = ?`, f.crawl, Leased)
	if err != nil {
		return err
	}
	for _, o := range owners {
		if process.AliveOwner(o) {
			continue
		}
		if _, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_frontier SET lease_until = 0 WHERE crawl = ? AND state = ? AND lease_owner = ?`), f.crawl, Leased, o); err != nil {
			return err
		}
		if _, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_hosts SET owner = '', busy_until = 0, next_at = {{now}} + ? WHERE owner = ?`), delay.Milliseconds(), o); err != nil {
			return err
		}
	}
	return nil
}
