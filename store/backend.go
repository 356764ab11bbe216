package store

import (
	"context"
	"database/sql"
)

// Backend names the SQL back end of the database: "sqlite" or "postgres".
// Packages keeping their own tables use it for what portable SQL cannot say
// (row locks such as FOR UPDATE SKIP LOCKED, the server's clock).
func (s *DB) Backend() string { return s.d.name }

// Tx runs f in a write transaction, committed when f returns nil. A
// transaction the back end rolled back for a deadlock or a serialization
// failure is run again (a few times, after a random pause), so f must only
// write its results, not accumulate them outside the transaction.
func (s *DB) Tx(ctx context.Context, f func(*sql.Tx) error) error { return s.tx(ctx, f) }
