package frontier

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gleaner/gleaner/store"
)

// Store is the crawl tables of one database.
type Store struct {
	db    *store.DB
	sqldb *sql.DB
	pg    bool   // PostgreSQL: row locks (FOR UPDATE, SKIP LOCKED)
	now   string // the database server's clock in milliseconds
}

// Open brings the crawl tables of db up to date (once per handle) and
// returns them.
func Open(ctx context.Context, db *store.DB) (*Store, error) {
	if err := db.MigrateOnce(ctx, component, migrations); err != nil {
		return nil, fmt.Errorf("crawl tables: %w", err)
	}
	pg := db.Backend() == "postgres"
	return &Store{db: db, sqldb: db.SQL(), pg: pg, now: nowExpr(pg)}, nil
}

// SharedCrawls reports whether crawls of this database are shared by
// workers (PostgreSQL) rather than run by one process.
func (s *Store) SharedCrawls() bool { return s.pg }

// nowExpr is the database server's clock in milliseconds since the epoch:
// leases and politeness slots of workers on several machines are read
// against one clock.
func nowExpr(pg bool) string {
	if pg {
		return `CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)`
	}
	return `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`
}

// q rebinds a query for the back end and puts the database's clock in
// place of {{now}}.
func (s *Store) q(query string) string {
	return s.db.Rebind(strings.ReplaceAll(query, "{{now}}", s.now))
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// in is a list of n placeholders for an IN clause.
func in(n int) string { return "(?" + strings.Repeat(", ?", n-1) + ")" }

// Crawl returns the row of crawl name, nil when there is none.
func (s *Store) Crawl(ctx context.Context, name string) (*CrawlRow, error) {
	return s.crawl(ctx, s.sqldb, name)
}

// queryer is what reads a row: the database or a transaction.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) crawl(ctx context.Context, db queryer, name string) (*CrawlRow, error) {
	var r CrawlRow
	var lex string
	var until int64
	err := db.QueryRowContext(ctx, s.q(`SELECT config, lexicon, threshold, calibrated, paused, owner, owner_until FROM crawl_crawls WHERE name = ?`), name).
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

// SetPaused sets the paused flag of crawl name (store.ErrNotFound when
// there is no such crawl).
func (s *Store) SetPaused(ctx context.Context, name string, paused bool) error {
	res, err := s.sqldb.ExecContext(ctx, s.q(`UPDATE crawl_crawls SET paused = ?, updated_at = ? WHERE name = ?`), paused, ms(time.Now()), name)
	if err != nil {
		return fmt.Errorf("crawl %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("crawl %s: %w", name, store.ErrNotFound)
	}
	return nil
}

// Counters derives the outcome counters of crawl name from its frontier.
func (s *Store) Counters(ctx context.Context, name string) (Counters, error) {
	c := Counters{Outcomes: map[Outcome]int{}}
	rows, err := s.sqldb.QueryContext(ctx, s.q(`SELECT state, outcome, COUNT(*), COALESCE(SUM(tokens), 0) FROM crawl_frontier WHERE crawl = ? GROUP BY state, outcome`), name)
	if err != nil {
		return c, fmt.Errorf("counters of crawl %s: %w", name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var state State
		var outcome Outcome
		var n int
		var tokens int64
		if err := rows.Scan(&state, &outcome, &n, &tokens); err != nil {
			return c, err
		}
		c.count(state, outcome, n, tokens)
	}
	for _, o := range fetchedOutcomes {
		c.Tried += c.Outcomes[o]
	}
	return c, rows.Err()
}

// count adds n URLs of one state and outcome holding tokens words.
func (c *Counters) count(state State, outcome Outcome, n int, tokens int64) {
	switch state {
	case Queued:
		c.Queued += n
	case Leased:
		c.Leased += n
	case Done:
		c.Outcomes[outcome] += n
		if outcome == Validated {
			c.Validated += n
			c.Tokens += tokens
		}
	}
}

// Names lists the names of the crawls.
func (s *Store) Names(ctx context.Context) ([]string, error) {
	return s.strings(ctx, `SELECT name FROM crawl_crawls ORDER BY name`)
}

// WithWork lists the crawls not paused that have URLs queued or leased.
func (s *Store) WithWork(ctx context.Context) ([]string, error) {
	names, err := s.strings(ctx, `SELECT c.name FROM crawl_crawls c WHERE c.paused = FALSE
		AND EXISTS (SELECT 1 FROM crawl_frontier f WHERE f.crawl = c.name AND f.state IN (?, ?)) ORDER BY c.name`, Queued, Leased)
	if err != nil {
		return nil, fmt.Errorf("running crawls: %w", err)
	}
	return names, nil
}

// strings runs a query of one text column.
func (s *Store) strings(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.sqldb.QueryContext(ctx, s.q(query), args...)
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

// Fetched lists the URLs crawl name requested, in the order they were
// fetched.
func (s *Store) Fetched(ctx context.Context, name string) ([]FetchedURL, error) {
	rows, err := s.sqldb.QueryContext(ctx, s.q(`SELECT url, outcome, relevant, score, page_id, depth FROM crawl_frontier
		WHERE crawl = ? AND state = ? AND fetch_seq > 0 ORDER BY fetch_seq`), name, Done)
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

// Edges returns the edges of crawl name (links and redirects), ordered by
// source, target and kind.
func (s *Store) Edges(ctx context.Context, name string) ([]Edge, error) {
	rows, err := s.sqldb.QueryContext(ctx, s.q(`SELECT source, target, kind, anchor FROM crawl_edges WHERE crawl = ? ORDER BY source, target, kind`), name)
	if err != nil {
		return nil, fmt.Errorf("edges of crawl %s: %w", name, err)
	}
	defer rows.Close()
	var out []Edge
	for rows.Next() {
		var e Edge
		if err := rows.Scan(&e.Source, &e.Target, &e.Kind, &e.Anchor); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
