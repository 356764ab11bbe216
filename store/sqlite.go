package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3" // the embedded default backend
)

// BusyTimeout is how long a SQLite connection waits for another writer's lock
// before failing with "database is locked".
const BusyTimeout = 30 * time.Second

var sqliteDialect = dialect{
	name:   "sqlite",
	types:  strings.NewReplacer("{{id}}", "INTEGER PRIMARY KEY", "{{blob}}", "BLOB"),
	rebind: func(q string) string { return q },
	// The busy timeout does not cover every lock: processes opening a new
	// file at once, while it turns to WAL mode, may be told "database is
	// locked" at once.
	retryable: func(err error) bool {
		var se sqlite3.Error
		return errors.As(err, &se) && se.Code == sqlite3.ErrBusy
	},
}

// Open opens the database named by dsn and brings its schema up to date: a
// postgres:// or postgresql:// URL opens that PostgreSQL database (see
// IsPostgresURL), anything else is the path of a SQLite file (see
// openSQLite).
func Open(ctx context.Context, dsn string) (*DB, error) {
	if IsPostgresURL(dsn) {
		return openPostgres(ctx, dsn)
	}
	return openSQLite(ctx, dsn)
}

// openSQLite opens (creating it if needed) the SQLite database at path and
// brings its schema up to date; ":memory:" opens a private database that
// lives as long as the returned DB. The database runs in WAL mode, so
// readers never block the writer, with foreign keys enforced and a busy
// timeout so that concurrent writers, in this process or others, wait for
// each other.
func openSQLite(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, fmt.Errorf("store: open: empty database path")
	}
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "NORMAL")
	// Write transactions take the write lock at BEGIN: a deferred transaction
	// that reads then writes could otherwise fail at once with SQLITE_BUSY
	// instead of waiting its turn.
	q.Set("_txlock", "immediate")
	dsn := "file:" + escapePath(path) + "?" + q.Encode()
	if path == ":memory:" {
		dsn = "file::memory:?" + q.Encode()
	}
	sdb, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if path == ":memory:" {
		// Every connection to ":memory:" is a database of its own: keep one.
		sdb.SetMaxOpenConns(1)
	}
	return newDB(ctx, sdb, sqliteDialect, path)
}

// newDB wraps an opened database of dialect d, shown to users as name, and
// brings its schema up to date; it closes sdb when that fails.
func newDB(ctx context.Context, sdb *sql.DB, d dialect, name string) (*DB, error) {
	db := &DB{db: sdb, d: d, name: name}
	if err := db.migrate(ctx, coreComponent, migrations); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("store: open %s: %w", name, err)
	}
	return db, nil
}

// escapePath makes a file path safe inside a "file:" URI: '?' and '#' would
// otherwise start the query or fragment.
func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}
