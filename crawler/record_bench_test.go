package crawler

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/browser/chromeproc"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/process"
	"github.com/gleaner/gleaner/store"
)

// BenchmarkCrawlRecord crawls 50 pages of the fixture web without and with
// Config.Record, alternating crawl by crawl (off, on, on, off, off, on…)
// so that a change in the machine's load falls on both alike, plain and rendered
// (Chromium, 2 tabs: the honest case, a page's subresources recorded too).
// The crawl, its fixture server and its SQLite store run in this process,
// Chromium in its own process tree; cpu_ms/page counts both (the tree's
// reaped children included), so it is the whole cost of capturing each
// page's exchanges and storing them (a first crawl, not counted, warms
// the process up). cost_% is on's CPU per page over off's, minus one.
//
//	go test ./crawler -run '^$' -bench CrawlRecord -benchtime 3x
func BenchmarkCrawlRecord(b *testing.B) {
	w := fixtureWeb(b)
	for _, rendered := range []bool{false, true} {
		if rendered {
			if _, err := browser.FindChromium(); err != nil {
				b.Log(err)
				continue
			}
		}
		b.Run(fmt.Sprintf("rendered=%v", rendered), func(b *testing.B) {
			crawlCost(b, w, rendered, false, -1) // warm-up: what a process does once
			var cost [2]recordCost
			for i := 0; i < b.N; i++ {
				order := []int{0, 1} // off, on; then on, off: neither always goes second
				if i%2 == 1 {
					order = []int{1, 0}
				}
				for _, r := range order {
					cost[r].add(crawlCost(b, w, rendered, r == 1, i))
				}
			}
			off, on := cost[0].perPage(), cost[1].perPage()
			b.ReportMetric(off, "off_cpu_ms/page")
			b.ReportMetric(on, "on_cpu_ms/page")
			b.ReportMetric(100*(on/off-1), "cost_%")
			b.ReportMetric(float64(cost[1].exchanges)/float64(max(cost[1].pages, 1)), "exchanges/page")
			if cost[0].exchanges != 0 || cost[1].exchanges == 0 {
				b.Errorf("exchanges stored: off %d, on %d", cost[0].exchanges, cost[1].exchanges)
			}
		})
	}
}

// recordCost sums crawls' pages, CPU and stored exchanges.
type recordCost struct {
	pages, exchanges int
	cpu              time.Duration
}

func (c *recordCost) add(d recordCost) {
	c.pages += d.pages
	c.exchanges += d.exchanges
	c.cpu += d.cpu
}

func (c recordCost) perPage() float64 {
	return float64(c.cpu.Microseconds()) / 1000 / float64(max(c.pages, 1))
}

// crawlCost crawls 50 pages of w into a fresh store and returns what it
// cost: a rendering crawl's browser is started before the clock starts
// (its start is no page's cost) and its tree read before it closes.
func crawlCost(b *testing.B, w *fixtures.Server, rendered, rec bool, i int) recordCost {
	b.Helper()
	db := tempDB(b)
	cfg := fixtureConfig(w, fmt.Sprintf("bench-record-%v-%v-%d", rendered, rec, i))
	cfg.Strategy, cfg.Delay, cfg.MaxPages, cfg.LearnAt, cfg.Record = "bfs", -1, 50, -1, rec
	pid := func() int { return 0 }
	if rendered {
		cfg.Timeout = 20 * time.Second
		f, err := cfg.Renderer("", 2, func(string, ...any) {})
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Fetch(context.Background(), w.Sites[0].Base+"/robots.txt"); err != nil {
			b.Fatal(err)
		}
		cfg.Fetcher = f
		pid = f.(interface{ BrowserPID() int }).BrowserPID
	}
	c, err := New(db, cfg)
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := process.CPU() + chromeproc.TreeCPU(pid())
	sum, err := c.Run(context.Background())
	cpu := process.CPU() + chromeproc.TreeCPU(pid()) - cpu0
	if err != nil {
		b.Fatal(err)
	}
	return recordCost{pages: sum.Pages, cpu: cpu, exchanges: storedExchanges(b, db, cfg.Name)}
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
