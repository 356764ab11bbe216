// Package store persists what Gleaner gathers and learns: sites, pages (raw and
// rendered HTML, compressed, with their capture metadata and gold annotations),
// template-learning runs with their clusters and memberships, a cache of tree
// edit distances keyed by page content hash, extractions and learned cluster
// rules.
//
// Store is the interface every backend implements. Open chooses the backend
// from its argument: a postgres:// or postgresql:// URL opens PostgreSQL
// (github.com/jackc/pgx/v5 through database/sql), anything else is the path of
// the embedded default, a SQLite file (github.com/mattn/go-sqlite3) in WAL mode
// with a busy timeout and foreign keys on. The SQL is portable (standard
// types, ON CONFLICT upserts, RETURNING, "?" placeholders rebound per
// dialect); what differs is the dialect: column types, placeholders, an
// advisory lock serialising migrations on PostgreSQL, and write transactions
// run again when PostgreSQL rolls them back for a deadlock or a serialization
// failure.
//
// The store's tests run on both backends; for PostgreSQL they start a
// throwaway cluster (see store/internal/pgtest) or use the server named by
// GLEANER_TEST_POSTGRES.
//
// # Schema migrations
//
// The store's own schema is the numbered list of migrations in
// migrations.go, applied in order at Open and recorded in the
// schema_migrations table under the component "store". To change it, append a
// Migration with the next Version to that list; never edit or renumber a
// migration that has been committed, since databases in the field recorded
// it.
//
// A package that keeps its own tables in the same database (the crawler's
// frontier, the linguistic chain's annotations) does not edit that list: it
// declares its own numbered list and calls DB.Migrate(ctx, "crawler", list)
// when it starts, then queries through DB.SQL with DB.Rebind. Its versions
// are counted separately, so parallel work on several components never
// collides, and its tables may reference the store's (pages(id)…).
//
// In migration statements write {{id}} for an auto-increment primary key
// column and {{blob}} for a binary column; everything else must be standard
// SQL that SQLite and PostgreSQL both accept (TEXT, BIGINT, INTEGER, DOUBLE
// PRECISION, BOOLEAN; times as BIGINT Unix milliseconds; upserts as INSERT …
// ON CONFLICT … DO UPDATE; "?" placeholders, rebound per backend).
package store
