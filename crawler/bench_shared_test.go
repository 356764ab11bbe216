package crawler

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/storetest"
)

// BenchmarkSharedWorkers crawls the same budget of the fixture web (plain
// HTTP) alone on SQLite, then with 1, 2 and 4 workers on one PostgreSQL
// database (each worker with its own connections, as separate processes
// would have), and reports the pages per second of each and their ratio to
// SQLite's, measured side by side in each iteration.
//
//	go test ./crawler -run '^$' -bench SharedWorkers -benchtime 2x
func BenchmarkSharedWorkers(b *testing.B) {
	ctx := context.Background()
	srv := ownFixtureWeb(b, fixtures.Options{Seed: 7, Slow: -1, CrawlDelay: -1, Articles: 40})
	dsn := storetest.PostgresURL(b)
	rates := map[string]float64{}
	for i := 0; b.Loop(); i++ {
		cfg := benchConfig(srv, fmt.Sprintf("sqlite%d", i))
		db := tempDB(b)
		start := time.Now()
		c, err := New(db, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Run(ctx); err != nil {
			b.Fatal(err)
		}
		rates["sqlite"] += float64(cfg.MaxPages) / time.Since(start).Seconds()
		for _, n := range []int{1, 2, 4} {
			rates[fmt.Sprintf("pg%d", n)] += runWorkers(b, dsn, benchConfig(srv, fmt.Sprintf("pg%d_%d", n, i)), n)
		}
	}
	for _, k := range []string{"sqlite", "pg1", "pg2", "pg4"} {
		b.ReportMetric(rates[k]/float64(b.N), k+"-pages/s")
		if k != "sqlite" {
			b.ReportMetric(rates[k]/rates["sqlite"], k+"/sqlite")
		}
	}
}

func benchConfig(srv *fixtures.Server, name string) Config {
	cfg := fixtureConfig(srv, name)
	cfg.MaxPages = 80
	cfg.Delay = -1 // one fetch per host at a time, no pause: the database is what is measured
	cfg.Workers = 2
	cfg.LearnAt = -1
	cfg.Exclude = []string{`/live/ticker`, `/archive/full`}
	return cfg
}

// runWorkers crawls cfg with n workers on the database at dsn and returns
// the pages per second.
func runWorkers(b *testing.B, dsn string, cfg Config, n int) float64 {
	ctx := context.Background()
	var dbs []*store.DB
	for range n {
		db, err := store.Open(ctx, dsn)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		dbs = append(dbs, db)
	}
	if err := Create(ctx, dbs[0], cfg); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for _, db := range dbs {
		c, err := Join(ctx, db, cfg.Name, JoinOptions{})
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Run(ctx); err != nil {
				b.Error(err)
			}
		}()
	}
	wg.Wait()
	return float64(cfg.MaxPages) / time.Since(start).Seconds()
}
