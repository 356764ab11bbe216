package main

import (
	"context"
	"flag"

	"github.com/gleaner/gleaner/store"
)

// defaultDB is the database every command uses unless told otherwise.
const defaultDB = "gleaner.db"

// addDBFlag adds the --db flag shared by every command that reads or writes
// the store.
func addDBFlag(fs *flag.FlagSet) *string {
	return fs.String("db", defaultDB, "database `path` (SQLite; created if missing)")
}

// openStore opens the store at path, creating it and bringing its schema up to
// date as needed.
func openStore(ctx context.Context, path string) (store.Store, error) {
	return store.Open(ctx, path)
}
