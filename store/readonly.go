package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
)

// ErrReadOnlySchema is wrapped by the error of OpenReadOnly, or of Migrate
// on a database so opened, when the schema is not the program's: a read-only
// database cannot be brought up to date.
var ErrReadOnlySchema = errors.New("read-only database with another schema version")

// OpenReadOnly opens an existing SQLite database for reading only, for
// commands that only read (status, export): it works on a database this
// process may not write (a read-only file or folder), where Open fails. It
// never creates the file and never migrates: a schema other than the
// program's is an error wrapping ErrReadOnlySchema. A PostgreSQL URL (see
// IsPostgresURL) opens that database with read-only transactions.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if IsPostgresURL(path) {
		return openPostgresReadOnly(ctx, path)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
	}
	var err error
	// mode=ro reads the live database (write-ahead log included) when its
	// shared-memory file can be made; immutable=1 reads a database nothing
	// can change, such as one in a read-only folder.
	for _, extra := range []string{"", "immutable"} {
		var db *DB
		if db, err = openRO(ctx, path, extra); err == nil {
			return db, nil
		}
	}
	return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
}

// openRO opens path with mode=ro (and the flag extra), and checks that its
// core schema is the program's.
func openRO(ctx context.Context, path, extra string) (*DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	if extra != "" {
		q.Set(extra, "1")
	}
	sdb, err := sql.Open("sqlite3", "file:"+escapePath(path)+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db := &DB{db: sdb, d: sqliteDialect, name: path, readOnly: true}
	if err := db.checkSchema(ctx, coreComponent, migrations); err != nil {
		sdb.Close()
		return nil, err
	}
	return db, nil
}

// checkSchema fails unless component's schema version is len(ms).
func (s *DB) checkSchema(ctx context.Context, component string, ms []Migration) error {
	have, err := s.schemaVersion(ctx, component)
	if err != nil {
		return err
	}
	if have != len(ms) {
		return fmt.Errorf("store: %s: schema version %d of %s, this program's is %d: %w", s.name, have, component, len(ms), ErrReadOnlySchema)
	}
	return nil
}
