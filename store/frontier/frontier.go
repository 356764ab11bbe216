package frontier

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"time"

	"github.com/gleaner/gleaner/process"
)

// Frontier is one crawl's tables as one process works on them: Local when
// the process owns the crawl, Shared when workers of any number of
// processes share it.
type Frontier struct {
	s     *Store
	crawl string
	owner string
	// shared: other processes work on the crawl at the same time (leases
	// checked at every update, politeness in crawl_hosts).
	shared bool
}

// Local is the frontier of crawl name run by this process alone (see
// Claim).
func (s *Store) Local(name string) *Frontier {
	return &Frontier{s: s, crawl: name, owner: process.Self().String()}
}

// Shared is the frontier of crawl name as one of its workers (see Join).
func (s *Store) Shared(name string) *Frontier {
	f := s.Local(name)
	f.shared = true
	return f
}

// Owner is this process's name in the crawl's leases and slots.
func (f *Frontier) Owner() string { return f.owner }

// ErrLeaseLost is returned when a worker commits a URL whose lease expired
// and was taken over by another worker: the other's outcome stands.
var ErrLeaseLost = errors.New("lease lost: the URL was taken over by another worker")

// Claim makes this process the crawl's owner, creating the crawl row when
// new. It fails when another live process owns the crawl
// (process.Holds).
func (f *Frontier) Claim(ctx context.Context, config string, ttl time.Duration) (*CrawlRow, error) {
	row, err := f.s.Crawl(ctx, f.crawl)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if row == nil {
		_, err := f.s.sqldb.ExecContext(ctx, f.s.q(`INSERT INTO crawl_crawls (name, config, owner, owner_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`),
			f.crawl, config, f.owner, ms(now.Add(ttl)), ms(now), ms(now))
		if err != nil {
			return nil, fmt.Errorf("create crawl %s: %w", f.crawl, err)
		}
		return &CrawlRow{Config: config}, nil
	}
	if row.Owner != "" && process.Holds(row.Owner, row.OwnerUntil, now) {
		return nil, fmt.Errorf("crawl %s is being run by another process (%s) until %s", f.crawl, row.Owner, row.OwnerUntil.Format(time.RFC3339))
	}
	res, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_crawls SET config = ?, owner = ?, owner_until = ?, updated_at = ? WHERE name = ? AND owner = ?`),
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

// Heartbeat extends the ownership.
func (f *Frontier) Heartbeat(ctx context.Context, ttl time.Duration) error {
	_, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_crawls SET owner_until = ? WHERE name = ? AND owner = ?`), ms(time.Now().Add(ttl)), f.crawl, f.owner)
	return err
}

// Release gives the crawl up.
func (f *Frontier) Release(ctx context.Context) error {
	_, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_crawls SET owner = '', owner_until = 0 WHERE name = ? AND owner = ?`), f.crawl, f.owner)
	return err
}

// Paused reads the crawl's paused flag.
func (f *Frontier) Paused(ctx context.Context) (bool, error) {
	var p bool
	err := f.s.sqldb.QueryRowContext(ctx, f.s.q(`SELECT paused FROM crawl_crawls WHERE name = ?`), f.crawl).Scan(&p)
	return p, err
}

// SaveModel stores the crawl's lexicon (term weights) and threshold.
func (f *Frontier) SaveModel(ctx context.Context, lexicon map[string]float64, threshold float64, calibrated bool) error {
	b, err := json.Marshal(lexicon)
	if err != nil {
		return err
	}
	_, err = f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_crawls SET lexicon = ?, threshold = ?, calibrated = ?, updated_at = ? WHERE name = ?`),
		string(b), threshold, calibrated, ms(time.Now()), f.crawl)
	if err != nil {
		return fmt.Errorf("crawl %s: save lexicon: %w", f.crawl, err)
	}
	return nil
}

const entryCols = `url, host, state, outcome, priority, inherited, depth, hops, parent, anchor, from_relevant, seq, lease_owner, page_id, attempts`

func scanEntry(sc interface{ Scan(...any) error }) (Entry, error) {
	var e Entry
	err := sc.Scan(&e.URL, &e.Host, &e.State, &e.Outcome, &e.Priority.Score, &e.Priority.Inherited, &e.Depth, &e.Hops,
		&e.Parent, &e.Anchor, &e.FromRelevant, &e.Seq, &e.LeaseOwner, &e.PageID, &e.Attempts)
	return e, err
}

// Leased returns the URLs left leased (by a process that died).
func (f *Frontier) Leased(ctx context.Context) ([]Entry, error) {
	return f.entries(ctx, `WHERE crawl = ? AND state = ? ORDER BY seq`, f.crawl, Leased)
}

// entries returns the frontier rows selected by the SQL clauses where.
func (f *Frontier) entries(ctx context.Context, where string, args ...any) ([]Entry, error) {
	rows, err := f.s.sqldb.QueryContext(ctx, f.s.q(`SELECT `+entryCols+` FROM crawl_frontier `+where), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
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
func (f *Frontier) candidates(ctx context.Context, n int, onlyRelevant bool) ([]Entry, error) {
	cond := ""
	if onlyRelevant {
		cond = " AND from_relevant = TRUE"
	}
	out, err := f.entries(ctx, `WHERE crawl = ? AND state = ?`+cond+` ORDER BY priority DESC, seq LIMIT ?`, f.crawl, Queued, n)
	if err != nil {
		return nil, fmt.Errorf("frontier of %s: %w", f.crawl, err)
	}
	return out, nil
}

// lease marks a queued URL leased by this process.
func (f *Frontier) lease(ctx context.Context, u string, ttl time.Duration) (bool, error) {
	res, err := f.s.sqldb.ExecContext(ctx, f.s.q(`UPDATE crawl_frontier SET state = ?, lease_owner = ?, lease_until = ? WHERE crawl = ? AND url = ? AND state = ?`),
		Leased, f.owner, ms(time.Now().Add(ttl)), f.crawl, u, Queued)
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", u, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Requeue puts a leased URL back in the queue; retry counts a transient
// failure against it.
func (f *Frontier) Requeue(ctx context.Context, u string, retry bool) error {
	attempts := ""
	if retry {
		attempts = `, attempts = attempts + 1`
	}
	q, args := f.mine(`UPDATE crawl_frontier SET state = ?, lease_owner = '', lease_until = 0`+attempts+` WHERE crawl = ? AND url = ? AND state = ?`,
		Queued, f.crawl, u, Leased)
	if _, err := f.s.sqldb.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("requeue %s: %w", u, err)
	}
	return nil
}

// mine restricts an update of a leased row to this process's lease when
// the crawl is shared (another worker may have taken an expired lease over).
func (f *Frontier) mine(q string, args ...any) (string, []any) {
	if f.shared {
		q += ` AND lease_owner = ?`
		args = append(args, f.owner)
	}
	return f.s.q(q), args
}

// Count returns how many URLs of the crawl are in state.
func (f *Frontier) Count(ctx context.Context, state State) (int, error) {
	var n int
	err := f.s.sqldb.QueryRowContext(ctx, f.s.q(`SELECT COUNT(*) FROM crawl_frontier WHERE crawl = ? AND state = ?`), f.crawl, state).Scan(&n)
	return n, err
}

// Commit records a processed URL in one transaction: its outcome, the
// aliases (redirect targets) marked done, the discovered URLs enqueued or
// their priorities merged, and the edges. Sequence numbers are reserved
// first, outside the transaction (gaps are harmless); the transaction is
// run again after a deadlock between workers.
func (f *Frontier) Commit(ctx context.Context, d Record) error {
	first, err := f.ReserveSeq(ctx, NextSeq, len(d.Aliases)+len(d.Links))
	if err != nil {
		return fmt.Errorf("commit %s: %w", d.URL, err)
	}
	links := sortedLinks(d, first)
	err = f.s.db.Tx(ctx, func(tx *sql.Tx) error {
		now := ms(time.Now())
		if err := f.markDone(ctx, tx, d, now); err != nil {
			return err
		}
		if err := f.putAliases(ctx, tx, d, first, now); err != nil {
			return err
		}
		for _, l := range links {
			if err := f.upsert(ctx, tx, l.Link, d.Merge, l.seq, d.HostPageCap, now); err != nil {
				return err
			}
		}
		return f.putEdges(ctx, tx, d.Edges)
	})
	if err != nil {
		return fmt.Errorf("commit %s: %w", d.URL, err)
	}
	return nil
}

// seqLink is a link with its sequence number.
type seqLink struct {
	Link
	seq int64
}

// sortedLinks numbers d's links from first (after its aliases), in the
// order of discovery, and sorts them by URL, so that concurrent commits
// lock shared rows in one order.
func sortedLinks(d Record, first int64) []seqLink {
	links := make([]seqLink, len(d.Links))
	for i, l := range d.Links {
		links[i] = seqLink{l, first + int64(len(d.Aliases)+i)}
	}
	sort.SliceStable(links, func(i, j int) bool { return links[i].URL < links[j].URL })
	return links
}

// putAliases marks done the redirect targets of d's URL, numbered from
// first.
func (f *Frontier) putAliases(ctx context.Context, tx *sql.Tx, d Record, first, now int64) error {
	for i, a := range d.Aliases {
		_, err := tx.ExecContext(ctx, f.s.q(`INSERT INTO crawl_frontier (crawl, url, host, state, outcome, priority, depth, hops, parent, seq, discovered_at, done_at)
			VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?, ?, ?, ?)
			ON CONFLICT (crawl, url) DO UPDATE SET state = excluded.state, outcome = excluded.outcome, done_at = excluded.done_at
			WHERE crawl_frontier.state = ?`),
			f.crawl, a, hostOf(a), Done, Alias, d.URL, first+int64(i), now, now, Queued)
		if err != nil {
			return fmt.Errorf("alias %s: %w", a, err)
		}
	}
	return nil
}

// putEdges records edges (once each).
func (f *Frontier) putEdges(ctx context.Context, tx *sql.Tx, edges []Edge) error {
	for _, e := range edges {
		if _, err := tx.ExecContext(ctx, f.s.q(`INSERT INTO crawl_edges (crawl, source, target, kind, anchor) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
			f.crawl, e.Source, e.Target, e.Kind, truncate(e.Anchor, 300)); err != nil {
			return fmt.Errorf("edge: %w", err)
		}
	}
	return nil
}

// markDone records the outcome of d's URL. A shared crawl checks that the
// URL is still leased by this process.
func (f *Frontier) markDone(ctx context.Context, tx *sql.Tx, d Record, now int64) error {
	q := `UPDATE crawl_frontier SET state = ?, outcome = ?, detail = ?, page_id = ?, fetch_seq = ?, score = ?, relevant = ?,
		tokens = ?, simhash = ?, depth = ?, lease_owner = '', lease_until = 0, done_at = ? WHERE crawl = ? AND url = ?`
	args := []any{Done, d.Outcome, truncate(d.Detail, 500), d.PageID, d.FetchSeq, d.Score, d.Relevant, d.Tokens, int64(d.SimHash), d.Depth, now, f.crawl, d.URL}
	if f.shared {
		q += ` AND state = ? AND lease_owner = ?`
		args = append(args, Leased, f.owner)
	}
	res, err := tx.ExecContext(ctx, f.s.q(q), args...)
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
// priority into the queued row (merge); done and leased rows keep theirs.
// A new URL of a host that has hostCap URLs already is dropped.
func (f *Frontier) upsert(ctx context.Context, tx *sql.Tx, l Link, merge Merge, seq int64, hostCap int, now int64) error {
	state, p, fromRel, err := f.queuedRow(ctx, tx, l.URL)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return f.insert(ctx, tx, l, merge, seq, hostCap, now)
	case err != nil:
		return fmt.Errorf("enqueue %s: %w", l.URL, err)
	case state != Queued:
		return nil
	}
	m := merge(p, l.Priority)
	_, err = tx.ExecContext(ctx, f.s.q(`UPDATE crawl_frontier SET priority = ?, inherited = ?, from_relevant = ?,
		depth = CASE WHEN depth > ? THEN ? ELSE depth END WHERE crawl = ? AND url = ?`),
		m.Score, m.Inherited, fromRel || l.FromRelevant, l.Depth, l.Depth, f.crawl, l.URL)
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", l.URL, err)
	}
	return nil
}

// queuedRow reads the state, priority and provenance of URL u; a queued
// row is read again locked on PostgreSQL, where merges of one row by two
// workers must not lose one. Only queued rows are locked: a worker's
// commit holds its own (leased) row, which others' links must not wait
// for (two pages linking to each other would deadlock).
func (f *Frontier) queuedRow(ctx context.Context, tx *sql.Tx, u string) (state State, p Priority, fromRel bool, err error) {
	sel := `SELECT state, priority, inherited, from_relevant FROM crawl_frontier WHERE crawl = ? AND url = ?`
	err = tx.QueryRowContext(ctx, f.s.q(sel), f.crawl, u).Scan(&state, &p.Score, &p.Inherited, &fromRel)
	if err == nil && state == Queued && f.s.pg {
		err = tx.QueryRowContext(ctx, f.s.q(sel+` FOR UPDATE`), f.crawl, u).Scan(&state, &p.Score, &p.Inherited, &fromRel)
	}
	return state, p, fromRel, err
}

// insert queues a new URL when its host is under the cap. Another worker
// may have queued it meanwhile: its priority is then merged.
func (f *Frontier) insert(ctx context.Context, tx *sql.Tx, l Link, merge Merge, seq int64, hostCap int, now int64) error {
	if ok, err := f.countHost(ctx, tx, l.Host, hostCap); err != nil || !ok {
		return err
	}
	res, err := tx.ExecContext(ctx, f.s.q(`INSERT INTO crawl_frontier (crawl, url, host, state, priority, inherited, depth, hops, parent, anchor, from_relevant, seq, discovered_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (crawl, url) DO NOTHING`),
		f.crawl, l.URL, l.Host, Queued, l.Priority.Score, l.Priority.Inherited, l.Depth, l.Hops, l.Parent, truncate(l.Anchor, 300), l.FromRelevant, seq, now)
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", l.URL, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return f.upsert(ctx, tx, l, merge, seq, 0, now)
	}
	return nil
}

// countHost counts one more URL of host in the crawl's host caps, and
// reports false (counting nothing) when host has hostCap URLs already.
func (f *Frontier) countHost(ctx context.Context, tx *sql.Tx, host string, hostCap int) (bool, error) {
	if _, err := tx.ExecContext(ctx, f.s.q(`INSERT INTO crawl_host_pages (crawl, host, pages) VALUES (?, ?, 0) ON CONFLICT DO NOTHING`), f.crawl, host); err != nil {
		return false, fmt.Errorf("host cap of %s: %w", host, err)
	}
	q := `UPDATE crawl_host_pages SET pages = pages + 1 WHERE crawl = ? AND host = ?`
	args := []any{f.crawl, host}
	if hostCap > 0 {
		q += ` AND pages < ?`
		args = append(args, hostCap)
	}
	res, err := tx.ExecContext(ctx, f.s.q(q), args...)
	if err != nil {
		return false, fmt.Errorf("host cap of %s: %w", host, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Seed enqueues the seed URLs not yet known (counted in the host caps).
func (f *Frontier) Seed(ctx context.Context, seeds []Link, merge Merge) error {
	first, err := f.ReserveSeq(ctx, NextSeq, len(seeds))
	if err != nil {
		return err
	}
	return f.s.db.Tx(ctx, func(tx *sql.Tx) error {
		now := ms(time.Now())
		for i, d := range seeds {
			if err := f.upsert(ctx, tx, d, merge, first+int64(i), 0, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// ReserveSeq reserves n consecutive numbers of the crawl's counter c and
// returns the first.
func (f *Frontier) ReserveSeq(ctx context.Context, c Counter, n int) (int64, error) {
	if n == 0 {
		return 0, nil
	}
	column := string(c)
	var last int64
	err := f.s.sqldb.QueryRowContext(ctx, f.s.q(`UPDATE crawl_crawls SET `+column+` = `+column+` + ? WHERE name = ? RETURNING `+column), n, f.crawl).Scan(&last)
	if err != nil {
		return 0, fmt.Errorf("crawl %s: sequence numbers: %w", f.crawl, err)
	}
	return last - int64(n) + 1, nil
}

// State returns the state and outcome of URL u ("" when u is not in the
// frontier).
func (f *Frontier) State(ctx context.Context, u string) (state State, outcome Outcome, err error) {
	err = f.s.sqldb.QueryRowContext(ctx, f.s.q(`SELECT state, outcome FROM crawl_frontier WHERE crawl = ? AND url = ?`), f.crawl, u).Scan(&state, &outcome)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil
	}
	return state, outcome, err
}

// KeptPages returns the ids of the stored pages the crawl judged
// (relevant or not), in id order.
func (f *Frontier) KeptPages(ctx context.Context) ([]int64, error) {
	rows, err := f.s.sqldb.QueryContext(ctx, f.s.q(`SELECT page_id FROM crawl_frontier WHERE crawl = ? AND state = ? AND outcome IN (?, ?) AND page_id > 0 ORDER BY page_id`),
		f.crawl, Done, Validated, Irrelevant)
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

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// hostOf returns the host (with port) of a URL, "" when it has none.
func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Host
}
