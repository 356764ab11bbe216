// Package pgtest provides PostgreSQL databases to tests: a throwaway cluster
// started once per test binary (initdb in a temporary directory, listening
// only on a Unix socket there, stopped and removed when the tests end), or
// the server named by GLEANER_TEST_POSTGRES, and a fresh schema per test.
//
// A test package that uses it runs its tests through Main:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// When the PostgreSQL binaries are missing (Debian package postgresql, which
// scripts/setup.sh installs), tests fail under CI=true and skip otherwise.
package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// EnvURL names the environment variable that points the tests at an
// existing server (a postgres:// URL) instead of a throwaway cluster.
const EnvURL = "GLEANER_TEST_POSTGRES"

var (
	once    sync.Once
	shared  *server // the cluster or server of this test binary
	openErr error
	schemas atomic.Int64
)

// server is where the tests' schemas live.
type server struct {
	url     string   // base URL, without search_path
	admin   *sql.DB  // creates and drops schemas
	cluster *cluster // nil for GLEANER_TEST_POSTGRES
}

// Main runs the tests of m and then stops the cluster if one was started.
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		shared.admin.Close()
		if shared.cluster != nil {
			if err := shared.cluster.stop(); err != nil {
				fmt.Fprintln(os.Stderr, "pgtest:", err)
			}
		}
	}
	return code
}

// URL returns the URL of a new, empty schema for t (search_path set to it),
// dropped when t ends. Every store opened on it sees only t's tables.
func URL(t testing.TB) string {
	t.Helper()
	srv := get(t)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), schemas.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.admin.ExecContext(ctx, `CREATE SCHEMA `+name); err != nil {
		t.Fatalf("pgtest: create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := srv.admin.Exec(`DROP SCHEMA ` + name + ` CASCADE`); err != nil {
			t.Errorf("pgtest: drop schema %s: %v", name, err)
		}
	})
	return withParam(srv.url, "search_path", name)
}

// get returns the shared server, starting it on first use; it fails or
// skips t when there is none.
func get(t testing.TB) *server {
	t.Helper()
	once.Do(func() { shared, openErr = start() })
	if openErr != nil {
		if _, missing := openErr.(errMissing); missing && os.Getenv("CI") != "true" {
			t.Skipf("pgtest: %v (install Debian's postgresql: bash scripts/setup.sh, or set %s)", openErr, EnvURL)
		}
		t.Fatalf("pgtest: %v", openErr)
	}
	return shared
}

// start connects to GLEANER_TEST_POSTGRES or starts a throwaway cluster.
func start() (*server, error) {
	srv := &server{url: os.Getenv(EnvURL)}
	if srv.url == "" {
		c, err := startCluster()
		if err != nil {
			return nil, err
		}
		srv.cluster, srv.url = c, c.url
	}
	var err error
	if srv.admin, err = sql.Open("pgx", srv.url); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		err = srv.admin.PingContext(ctx)
	}
	if err != nil {
		if srv.cluster != nil {
			srv.cluster.stop()
		}
		return nil, fmt.Errorf("connect to %s: %w", srv.url, err)
	}
	return srv, nil
}

// withParam returns rawURL with the query parameter k set to v.
func withParam(rawURL, k, v string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		sep := "?"
		if strings.Contains(rawURL, "?") {
			sep = "&"
		}
		return rawURL + sep + url.QueryEscape(k) + "=" + url.QueryEscape(v)
	}
	q := u.Query()
	q.Set(k, v)
	u.RawQuery = q.Encode()
	return u.String()
}
