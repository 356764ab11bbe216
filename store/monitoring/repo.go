// Package monitoring keeps a news monitor's state in the store: its
// sources with their validators and schedule, every URL it met with its
// state, its documents, the URLs linked to them as duplicates, its rounds
// and the back-off of sites whose template learning failed (tables
// monitor_*, component "monitor" of store.DB.Migrate; SQLite or
// PostgreSQL). Package monitor decides; this package is the only one that
// writes its SQL.
package monitoring

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/gleaner/gleaner/store"
)

// Repo is one monitor's state in a store: every query is scoped to the
// monitor's name. It is safe for concurrent use.
type Repo struct {
	db   *sql.DB
	name string
	// rebind rewrites "?" placeholders for the store's backend: the
	// dialect is decided here, once, for every query.
	rebind func(string) string
}

// Open migrates the monitor's tables in db and returns the repository of
// monitor name.
func Open(ctx context.Context, db *store.DB, name string) (*Repo, error) {
	if err := db.Migrate(ctx, "monitor", migrations); err != nil {
		return nil, fmt.Errorf("monitor %s: %w", name, err)
	}
	return &Repo{db: db.SQL(), name: name, rebind: db.Rebind}, nil
}

// Name is the monitor's name.
func (r *Repo) Name() string { return r.name }

func (r *Repo) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return r.db.ExecContext(ctx, r.rebind(q), args...)
}

func (r *Repo) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return r.db.QueryRowContext(ctx, r.rebind(q), args...)
}

// each runs query q and calls scan on each row.
func (r *Repo) each(ctx context.Context, q string, args []any, scan func(*sql.Rows) error) error {
	rows, err := r.db.QueryContext(ctx, r.rebind(q), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// count runs a COUNT(*) query.
func (r *Repo) count(ctx context.Context, q string, args ...any) (int, error) {
	var n int
	err := r.queryRow(ctx, q, args...).Scan(&n)
	return n, err
}

// affected reports whether an exec changed a row.
func affected(res sql.Result) bool {
	n, err := res.RowsAffected()
	return err == nil && n > 0
}

// noRow turns sql.ErrNoRows into found = false.
func noRow(err error) (found bool, _ error) {
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// truncate bounds a stored message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
