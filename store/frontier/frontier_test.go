package frontier

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// backends opens an empty store of each back end.
func backends(t *testing.T) map[string]*store.DB {
	t.Helper()
	ctx := context.Background()
	out := map[string]*store.DB{}
	for name, dsn := range map[string]string{"sqlite": filepath.Join(t.TempDir(), "f.db"), "postgres": storetest.PostgresURL(t)} {
		db, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Cleanup(func() { db.Close() })
		out[name] = db
	}
	return out
}

// keepBetter is a strategy's merge: the better score wins.
func keepBetter(old, add Priority) Priority {
	if add.Score > old.Score {
		return add
	}
	return old
}

// seeded is a new local frontier of crawl name with links queued.
func seeded(t *testing.T, db *store.DB, name string, shared bool, links ...Link) *Frontier {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	f := s.Local(name)
	if shared {
		f = s.Shared(name)
	}
	if _, _, err := f.Join(ctx, `{}`, false); err != nil {
		t.Fatal(err)
	}
	if err := f.Seed(ctx, links, keepBetter); err != nil {
		t.Fatal(err)
	}
	return f
}

func link(u, host string, score float64) Link {
	return Link{URL: u, Host: host, Priority: Priority{Score: score}}
}

// TestNextOrder: both frontiers lease the best queued URL whose host is
// not skipped (a Local one asks Ready too) and report an empty frontier.
func TestNextOrder(t *testing.T) {
	ctx := context.Background()
	for backend, db := range backends(t) {
		for _, shared := range []bool{false, true} {
			f := seeded(t, db, "order-"+map[bool]string{false: "local", true: "shared"}[shared], shared,
				link("http://a/1", "a", 1), link("http://b/1", "b", 3), link("http://a/2", "a", 2))
			tests := []struct {
				skip []string
				want string
				res  LeaseResult
			}{
				{nil, "http://b/1", Got},
				{[]string{"a"}, "", Wait},
				{nil, "http://a/2", Got},
				{nil, "http://a/1", Got},
				{nil, "", Wait}, // leased, not done: not over yet
			}
			for i, tt := range tests {
				e, res, err := f.Next(ctx, LeaseRequest{TTL: time.Minute, Skip: tt.skip})
				if err != nil {
					t.Fatalf("%s shared=%v step %d: %v", backend, shared, i, err)
				}
				got := ""
				if e != nil {
					got = e.URL
					if e.State != Leased {
						t.Errorf("%s shared=%v step %d: leased entry in state %s", backend, shared, i, e.State)
					}
				}
				if res == Empty && !shared {
					res = Wait // a local frontier leaves "over" to its caller, which knows its URLs in flight
				}
				if got != tt.want || res != tt.res {
					t.Errorf("%s shared=%v step %d: Next = %q, %v; want %q, %v", backend, shared, i, got, res, tt.want, tt.res)
				}
			}
		}
	}
}

// TestCommit: a commit stores the outcome as its text, merges a link found
// again, drops a link over its host's cap and counts the outcome.
func TestCommit(t *testing.T) {
	ctx := context.Background()
	for backend, db := range backends(t) {
		f := seeded(t, db, "commit", false, link("http://a/", "a", 1))
		e, _, err := f.Next(ctx, LeaseRequest{TTL: time.Minute})
		if err != nil || e == nil {
			t.Fatalf("%s: Next = %v, %v", backend, e, err)
		}
		d := Record{URL: e.URL, Outcome: Validated, Tokens: 7, Merge: keepBetter, HostPageCap: 2,
			Links: []Link{link("http://a/x", "a", 0.5), link("http://a/y", "a", 0.7), link("http://a/z", "a", 0.9)},
			Edges: []Edge{{Source: e.URL, Target: "http://a/x", Kind: LinkEdge}}}
		if err := f.Commit(ctx, d); err != nil {
			t.Fatalf("%s: %v", backend, err)
		}
		cnt, err := f.s.Counters(ctx, "commit")
		if err != nil {
			t.Fatal(err)
		}
		// The seed counted in the cap of 2: one of the three links fits.
		if cnt.Validated != 1 || cnt.Tokens != 7 || cnt.Tried != 1 || cnt.Queued != 1 {
			t.Errorf("%s: counters %+v, want 1 validated of 7 words, 1 tried, 1 queued", backend, cnt)
		}
		var stored string
		if err := db.SQL().QueryRowContext(ctx, db.Rebind(`SELECT outcome FROM crawl_frontier WHERE crawl = ? AND url = ?`), "commit", e.URL).Scan(&stored); err != nil || stored != "validated" {
			t.Errorf("%s: stored outcome %q (%v), want the text validated", backend, stored, err)
		}
		edges, err := f.s.Edges(ctx, "commit")
		if err != nil || len(edges) != 1 || edges[0].Kind != LinkEdge {
			t.Errorf("%s: edges %v (%v), want the one link", backend, edges, err)
		}
	}
}

// TestSharedLeaseLost: a worker that lost its lease (expired, taken over)
// cannot commit the URL; the one that took it over can.
func TestSharedLeaseLost(t *testing.T) {
	ctx := context.Background()
	for backend, db := range backends(t) {
		a := seeded(t, db, "lost", true, link("http://a/", "a", 1))
		b := a.s.Shared("lost")
		e, res, err := a.Next(ctx, LeaseRequest{TTL: time.Millisecond})
		if err != nil || res != Got {
			t.Fatalf("%s: first Next = %v, %v", backend, res, err)
		}
		time.Sleep(20 * time.Millisecond)
		e2, res, err := b.Next(ctx, LeaseRequest{TTL: time.Minute})
		if err != nil || res != Takeover || e2.URL != e.URL {
			t.Fatalf("%s: second Next = %v, %v, %v; want a takeover of %s", backend, e2, res, err, e.URL)
		}
		if err := a.Commit(ctx, Record{URL: e.URL, Outcome: Irrelevant, Merge: keepBetter}); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("%s: commit of a lost lease: %v, want ErrLeaseLost", backend, err)
		}
		if err := b.Commit(ctx, Record{URL: e.URL, Outcome: Validated, Merge: keepBetter}); err != nil {
			t.Errorf("%s: commit of the taken-over lease: %v", backend, err)
		}
		if _, res, err := b.Next(ctx, LeaseRequest{TTL: time.Minute}); err != nil || res != Empty {
			t.Errorf("%s: Next after the last commit = %v, %v; want Empty", backend, res, err)
		}
	}
}

// TestValues: states and outcomes are stored and read as their text.
func TestValues(t *testing.T) {
	for _, v := range []interface{ String() string }{Queued, Leased, Done, Validated, HTTPError, Alias, LinkEdge, RedirectEdge} {
		if s := v.String(); s == "" {
			t.Errorf("%#v: empty text", v)
		}
	}
	if !HTTPError.Fetched() || Robots.Fetched() || !Irrelevant.Kept() || Duplicate.Kept() {
		t.Error("Fetched or Kept wrong")
	}
}
