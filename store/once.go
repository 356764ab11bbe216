package store

import "context"

// MigrateOnce is Migrate done at most once per component for this handle:
// a component that reaches its tables from many entry points asks before
// each, and only the first asking migrates.
func (s *DB) MigrateOnce(ctx context.Context, component string, ms []Migration) error {
	if _, ok := s.migrated.Load(component); ok {
		return nil
	}
	if err := s.Migrate(ctx, component, ms); err != nil {
		return err
	}
	s.migrated.Store(component, struct{}{})
	return nil
}
