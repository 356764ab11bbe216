package store

import (
	"context"
	"fmt"
)

// WriteHorizon marks the write transactions running now: once
// WritesEndedBelow returns h or more, every one of them has ended
// (committed or rolled back). On PostgreSQL a page's ID is drawn before
// its transaction commits, so pages commit out of ID order; a reader
// following the pages in ID order (export.Follow) knows with it when no
// page below one it saw can still commit, however long its transaction
// runs. SQLite writes one transaction at a time and numbers its pages
// inside it, so pages commit in ID order: the horizon is 0, always
// passed.
func (s *DB) WriteHorizon(ctx context.Context) (int64, error) {
	// A transaction ID of its own: above every one assigned before
	// (a snapshot's xmax is only one past the highest completed).
	return s.snapshotBound(ctx, `SELECT pg_current_xact_id()::text::bigint`)
}

// WritesEndedBelow is the horizon below which every write transaction has
// ended (see WriteHorizon).
func (s *DB) WritesEndedBelow(ctx context.Context) (int64, error) {
	return s.snapshotBound(ctx, `SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint`)
}

// snapshotBound runs a query of the current snapshot's bounds on
// PostgreSQL; 0 elsewhere.
func (s *DB) snapshotBound(ctx context.Context, q string) (int64, error) {
	if s.d.name != "postgres" {
		return 0, nil
	}
	var h int64
	if err := s.db.QueryRowContext(ctx, q).Scan(&h); err != nil {
		return 0, fmt.Errorf("store: write horizon: %w", err)
	}
	return h, nil
}
