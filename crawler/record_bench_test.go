package crawler

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

// BenchmarkCrawlRecord crawls 50 pages of the fixture web in plain mode
// with and without Config.Record, alternating: the crawl, its fixture
// server and its SQLite store all run in this process, so its CPU time
// per page (cpu_ms/page) is the whole cost of capturing each page's
// exchanges and storing them.
//
//	go test ./crawler -run '^$' -bench CrawlRecord -benchtime 4x -count 3
func BenchmarkCrawlRecord(b *testing.B) {
	w := fixtureWeb(b)
	for _, rec := range []bool{false, true} {
		b.Run(fmt.Sprintf("record=%v", rec), func(b *testing.B) {
			pages, recorded := 0, 0
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				db := tempDB(b)
				cfg := fixtureConfig(w, fmt.Sprintf("bench-record-%v-%d", rec, i))
				cfg.Strategy, cfg.Delay, cfg.MaxPages, cfg.LearnAt, cfg.Record = "bfs", -1, 50, -1, rec
				c, err := New(db, cfg)
				if err != nil {
					b.Fatal(err)
				}
				c0 := processCPU()
				sum, err := c.Run(context.Background())
				cpu += processCPU() - c0
				if err != nil {
					b.Fatal(err)
				}
				pages += sum.Pages
				recorded += storedExchanges(b, db, cfg.Name)
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(pages), "cpu_ms/page")
			b.ReportMetric(float64(recorded)/float64(pages), "exchanges/page")
			if rec != (recorded > 0) {
				b.Errorf("record=%v: %d exchanges stored", rec, recorded)
			}
		})
	}
}

// processCPU is this process's CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// storedExchanges counts the exchanges stored with the pages of crawl
// name.
func storedExchanges(b *testing.B, db *store.DB, name string) int {
	ctx := context.Background()
	ps, err := db.Pages(ctx, store.PageQuery{Dataset: Dataset(name)})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, p := range ps {
		xs, err := db.Exchanges(ctx, p.ID)
		if err != nil {
			b.Fatal(err)
		}
		n += len(xs)
	}
	return n
}
