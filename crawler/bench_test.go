package crawler

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkCrawl measures a plain-HTTP crawl of the fixture web (50 pages,
// no delay, single-page extraction): pages/s covers fetching, storing,
// extraction, scoring and the frontier's transactions.
func BenchmarkCrawl(b *testing.B) {
	w := fixtureWeb(b)
	for _, s := range []string{"bfs", "opic", "shark"} {
		b.Run(s, func(b *testing.B) {
			pages := 0
			start := time.Now()
			for i := 0; i < b.N; i++ {
				db := tempDB(b)
				cfg := fixtureConfig(w, fmt.Sprintf("bench-%s-%d", s, i))
				cfg.Strategy, cfg.Delay, cfg.MaxPages, cfg.LearnAt = s, -1, 50, -1
				c, err := New(db, cfg)
				if err != nil {
					b.Fatal(err)
				}
				sum, err := c.Run(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				pages += sum.Pages
			}
			b.ReportMetric(float64(pages)/time.Since(start).Seconds(), "pages/s")
		})
	}
}
