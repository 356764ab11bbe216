package store

import "testing"

func TestPostgresPlaceholders(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`WHERE a = ? AND b = ?`, `WHERE a = $1 AND b = $2`},
		{`VALUES (?, ?), (?, ?)`, `VALUES ($1, $2), ($3, $4)`},
		{`WHERE a = '?' AND b = ?`, `WHERE a = '?' AND b = $1`},
		{`WHERE "we?rd" = ? AND c = 'it''s ?'`, `WHERE "we?rd" = $1 AND c = 'it''s ?'`},
		{`WHERE é = ?`, `WHERE é = $1`},
	} {
		if got := dollarPlaceholders(tc.in); got != tc.want {
			t.Errorf("dollarPlaceholders(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
