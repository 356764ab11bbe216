package browser

import (
	"context"
	"fmt"
	"github.com/gleaner/gleaner/process"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkRender renders article pages of the four fixture sites with 1, 2
// and 4 tabs, with the default resource blocking and without it. It reports
// pages/s and the peak memory of Chromium's process tree (RSS summed over
// its processes, and PSS), sampled every 100ms.
//
//	go test ./browser/ -run '^$' -bench Render -benchtime 24x -count 3
func BenchmarkRender(b *testing.B) {
	w := fixtureWeb(b)
	var urls []string
	for _, s := range w.Sites {
		for _, a := range s.Articles {
			urls = append(urls, w.ArticleURL(a))
		}
	}
	for _, tabs := range []int{1, 2, 4} {
		for _, block := range []bool{true, false} { // interleaved: the machine's load drifts
			name := fmt.Sprintf("tabs=%d/block=%v", tabs, block)
			b.Run(name, func(b *testing.B) {
				r := newRenderer(b, Options{Tabs: tabs, NoBlock: !block, Logf: func(string, ...any) {}})
				defer r.Close()
				if _, err := r.Fetch(context.Background(), urls[0]); err != nil { // start the browser
					b.Fatal(err)
				}
				stop := make(chan struct{})
				var sampler sync.WaitGroup
				sampler.Go(func() {
					for {
						r.Memory()
						select {
						case <-stop:
							return
						case <-time.After(100 * time.Millisecond):
						}
					}
				})
				var next atomic.Int64
				var failed atomic.Int64
				b.ResetTimer()
				start := time.Now()
				var wg sync.WaitGroup
				for range tabs {
					wg.Go(func() {
						for {
							i := int(next.Add(1)) - 1
							if i >= b.N {
								return
							}
							if _, err := r.Fetch(context.Background(), urls[(i*7)%len(urls)]); err != nil {
								failed.Add(1)
								b.Log(err)
							}
						}
					})
				}
				wg.Wait()
				el := time.Since(start)
				b.StopTimer()
				close(stop)
				sampler.Wait()
				if failed.Load() > 0 {
					b.Errorf("%d pages failed", failed.Load())
				}
				b.ReportMetric(float64(b.N)/el.Seconds(), "pages/s")
				st := r.Stats()
				b.ReportMetric(float64(st.PeakRSS)/(1<<20), "peakRSS_MiB")
				b.ReportMetric(float64(st.PeakPSS)/(1<<20), "peakPSS_MiB")
			})
		}
	}
}

// BenchmarkMemoryWatch renders article pages of the fixture sites with 2
// tabs with the renderers' memory watched (the default) and not, side by
// side, and reports pages/s and this process's CPU time per page (the
// watcher's cost: reading /proc every 100 ms while pages run).
//
//	go test ./browser/ -run '^$' -bench MemoryWatch -benchtime 40x -count 3
func BenchmarkMemoryWatch(b *testing.B) {
	w := fixtureWeb(b)
	var urls []string
	for _, s := range w.Sites {
		for _, a := range s.Articles {
			urls = append(urls, w.ArticleURL(a))
		}
	}
	for _, watched := range []bool{true, false} {
		b.Run(fmt.Sprintf("watched=%v", watched), func(b *testing.B) {
			o := Options{Tabs: 2, Logf: func(string, ...any) {}}
			if !watched {
				o.MaxRendererMemory = -1
			}
			r := newRenderer(b, o)
			defer r.Close()
			if _, err := r.Fetch(context.Background(), urls[0]); err != nil { // start the browser
				b.Fatal(err)
			}
			var next atomic.Int64
			b.ResetTimer()
			cpu0, start := process.CPU(), time.Now()
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() {
					for i := int(next.Add(1)) - 1; i < b.N; i = int(next.Add(1)) - 1 {
						if _, err := r.Fetch(context.Background(), urls[(i*7)%len(urls)]); err != nil {
							b.Error(err)
						}
					}
				})
			}
			wg.Wait()
			el, cpu := time.Since(start), process.CPU()-cpu0
			b.StopTimer()
			b.ReportMetric(float64(b.N)/el.Seconds(), "pages/s")
			b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "selfCPU_ms/page")
		})
	}
}
