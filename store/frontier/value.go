package frontier

import "database/sql/driver"

// Value stores a state as its text.
func (s State) Value() (driver.Value, error) { return string(s), nil }

// Value stores an outcome as its text.
func (o Outcome) Value() (driver.Value, error) { return string(o), nil }

// Value stores an edge kind as its text.
func (k EdgeKind) Value() (driver.Value, error) { return string(k), nil }
