package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser/chromeproc"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/process"
)

// heraldHint is the hint the crawler passes for the fixture herald's
// articles (crawler's TestRegionHintReachesRenderer logs it): the body
// rule template learning stores, the story block with its headline and
// byline, whose body a script fills from a JSON the server delays, in
// place of a spinner; and half the median length of the bodies extracted
// with it.
var heraldHint = PageOptions{ContentSelectors: []string{"div#page > div.layout-grid > div.col-main > div.story"}, MinRegionChars: 1100}

// BenchmarkRegionHint renders the fixture herald's script-made articles
// while each page keeps an unrelated request in flight (an analytics
// beacon the server holds for a minute: fixtures.Options.Beacon), side by
// side without and with the learned body rule as the page's content
// region, 2 tabs, guarded as `gleaner render` is. It reports pages/s,
// bodies captured (share of pages holding every gold paragraph), the
// share of pages ready by their region, and CPU seconds per page
// (Chromium's process tree and this process).
//
//	go test ./browser -run '^$' -bench RegionHint -benchtime 1x
//
// One run on a loaded 2-core machine: with the beacon 0.337 pages/s
// without the hint, 1.304 with it (3.9x); without the beacon 1.287 and
// 1.284 (1.0x); bodies 20/20 in all four.
func BenchmarkRegionHint(b *testing.B) {
	needChromium(b)
	for _, beacon := range []time.Duration{time.Minute, 0} {
		web, err := fixtures.Start(context.Background(), fixtures.Options{Seed: 1, Articles: 40, Beacon: beacon})
		if err != nil {
			b.Fatal(err)
		}
		var pages []scriptBody
		for _, a := range fixtureSite(b, web, "herald").Articles {
			if a.Kind == fixtures.KindArticle && a.Scripted && len(pages) < 20 {
				pages = append(pages, scriptBody{web.ArticleURL(a), goldParagraphs(a)})
			}
		}
		for _, hint := range []bool{false, true} {
			b.Run(fmt.Sprintf("beacon=%v/hint=%v", beacon > 0, hint), func(b *testing.B) {
				o := Options{Tabs: 2, Logf: func(string, ...any) {}}
				loopbackOnly(&o)
				r := newRenderer(b, o)
				defer r.Close()
				var po PageOptions
				if hint {
					po = heraldHint
				}
				if _, err := r.FetchPage(context.Background(), pages[0].url, po); err != nil { // start the browser
					b.Fatal(err)
				}
				runRegionPages(b, r, pages, o.Tabs, po)
			})
		}
		web.Close()
	}
}

// runRegionPages renders every page b.N times with tabs workers and
// reports the figures.
func runRegionPages(b *testing.B, r *Renderer, pages []scriptBody, tabs int, po PageOptions) {
	total := b.N * len(pages)
	got := make([]*Page, total) // checked after the clock stops
	var next, failed atomic.Int64
	pid := r.BrowserPID()
	b.ResetTimer()
	cpu0, self0, start := chromeproc.TreeCPU(pid), process.CPU(), time.Now()
	var wg sync.WaitGroup
	for range tabs {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < total; i = int(next.Add(1)) - 1 {
				p, err := r.FetchPage(context.Background(), pages[i%len(pages)].url, po)
				if err != nil {
					failed.Add(1)
					continue
				}
				got[i] = p
			}
		})
	}
	wg.Wait()
	el := time.Since(start)
	cpu := chromeproc.TreeCPU(pid) - cpu0 + process.CPU() - self0
	b.StopTimer()
	good, byRegion := 0, 0
	for i, p := range got {
		if p == nil {
			continue
		}
		if pages[i%len(pages)].hasBody(b, p.HTML) {
			good++
		}
		for _, n := range p.Notes {
			if strings.HasPrefix(n, NoteRegionReady) {
				byRegion++
			}
		}
	}
	n := float64(total)
	b.ReportMetric(n/el.Seconds(), "pages/s")
	b.ReportMetric(float64(good)/n, "bodies")
	b.ReportMetric(float64(byRegion)/n, "region_ready")
	b.ReportMetric(cpu.Seconds()/n, "cpu_s/page")
	b.ReportMetric(float64(failed.Load()), "failed")
}
