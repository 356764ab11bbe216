package crawler

import (
	"context"
	"time"

	"github.com/gleaner/gleaner/relevance"
)

// queue is the crawl's storage as the engine sees it, like colly's queue
// storage: the frontier, its leases and outcomes, the crawl's row, the
// hosts' politeness slots and the jobs run once. Everything the engine
// decides is passed in as values (priorities merged by the Strategy given,
// host caps, lease lengths); sequence numbers are drawn from the storage so
// that any number of workers may share it. frontier implements it in
// portable SQL over the store's database (SQLite or PostgreSQL); the tables
// are migrated once per store, when first used.
type queue interface {
	// The crawl's row.
	claim(ctx context.Context, config string, ttl time.Duration) (*crawlRow, error)
	join(ctx context.Context, config string, update bool) (*crawlRow, bool, error)
	heartbeat(ctx context.Context, ttl time.Duration) error
	release(ctx context.Context) error
	paused(ctx context.Context) (bool, error)
	saveModel(ctx context.Context, lex *relevance.Lexicon, threshold float64, calibrated bool) error

	// The frontier.
	seed(ctx context.Context, seeds []discovered, s Strategy) error
	candidates(ctx context.Context, n int, onlyRelevant bool) ([]entry, error)
	lease(ctx context.Context, u string, ttl time.Duration) (bool, error)
	leaseNext(ctx context.Context, r leaseRequest) (*entry, leaseResult, error)
	leased(ctx context.Context) ([]entry, error)
	renewLeases(ctx context.Context, ttl time.Duration) error
	expireDead(ctx context.Context, delay time.Duration) error
	requeue(ctx context.Context, u string) error
	retry(ctx context.Context, u string) error
	commit(ctx context.Context, d doneRecord) error
	reserveSeq(ctx context.Context, column string, n int) (int64, error)
	count(ctx context.Context, state string) (int, error)
	state(ctx context.Context, u string) (state, outcome string, err error)
	keptPages(ctx context.Context) ([]int64, error)
	simhashesAfter(ctx context.Context, seq int64) ([]relevance.SimHash, int64, error)

	// Shared by the workers.
	takeSlot(ctx context.Context, host string, hold time.Duration) (bool, error)
	freeSlot(ctx context.Context, host string, delay time.Duration) error
	claimJob(ctx context.Context, site, kind string, level int) (bool, error)
}

var _ queue = (*frontier)(nil)
