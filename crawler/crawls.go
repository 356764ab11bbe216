package crawler

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/frontier"
)

// Pause asks the running crawl name (in this or another process) to stop
// leasing URLs; Run returns with StopPaused once the URLs in flight are done.
func Pause(ctx context.Context, db *store.DB, name string) error {
	return setPaused(ctx, db, name, true)
}

// Resume clears the paused flag: the next Run of the crawl continues it.
func Resume(ctx context.Context, db *store.DB, name string) error {
	return setPaused(ctx, db, name, false)
}

func setPaused(ctx context.Context, db *store.DB, name string, paused bool) error {
	fs, err := frontier.Open(ctx, db)
	if err != nil {
		return err
	}
	return fs.SetPaused(ctx, name, paused)
}

// CrawlCounters derives the outcome counters of crawl name from its frontier.
func CrawlCounters(ctx context.Context, db *store.DB, name string) (Counters, error) {
	fs, err := frontier.Open(ctx, db)
	if err != nil {
		return Counters{}, err
	}
	return fs.Counters(ctx, name)
}

// Crawls lists the names of the crawls in db.
func Crawls(ctx context.Context, db *store.DB) ([]string, error) {
	fs, err := frontier.Open(ctx, db)
	if err != nil {
		return nil, err
	}
	return fs.Names(ctx)
}

// Fetched lists the URLs crawl name requested, in the order they were
// fetched.
func Fetched(ctx context.Context, db *store.DB, name string) ([]FetchedURL, error) {
	fs, err := frontier.Open(ctx, db)
	if err != nil {
		return nil, err
	}
	return fs.Fetched(ctx, name)
}

// RunningCrawls lists the crawls of db that have work left: not paused,
// with URLs queued or leased, their limits (MaxPages, MaxDocs, MaxTokens)
// not reached.
func RunningCrawls(ctx context.Context, db *store.DB) ([]string, error) {
	fs, err := frontier.Open(ctx, db)
	if err != nil {
		return nil, err
	}
	names, err := fs.WithWork(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		cfg, err := storedConfig(ctx, fs, n)
		if err != nil {
			return nil, err
		}
		cnt, err := fs.Counters(ctx, n)
		if err != nil {
			return nil, err
		}
		if cfg.limitReached(cnt, cnt.Leased) == "" {
			out = append(out, n)
		}
	}
	return out, nil
}

// StoredConfig returns the configuration crawl name was created with.
func StoredConfig(ctx context.Context, db *store.DB, name string) (Config, error) {
	fs, err := frontier.Open(ctx, db)
	if err != nil {
		return Config{}, err
	}
	return storedConfig(ctx, fs, name)
}

func storedConfig(ctx context.Context, fs *frontier.Store, name string) (Config, error) {
	var cfg Config
	row, err := fs.Crawl(ctx, name)
	if err != nil {
		return cfg, err
	}
	if row == nil {
		return cfg, fmt.Errorf("crawl %s: %w", name, store.ErrNotFound)
	}
	if err := json.Unmarshal([]byte(row.Config), &cfg); err != nil {
		return cfg, fmt.Errorf("crawl %s: stored configuration: %w", name, err)
	}
	if cfg.Delay == 0 {
		// Stored with its defaults applied: 0 is "no delay" (asked as a
		// negative one), not the default delay.
		cfg.Delay = -1
	}
	return cfg, nil
}
