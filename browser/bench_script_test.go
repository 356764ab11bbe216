package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gleaner/gleaner/browser/chromeproc"
	"github.com/gleaner/gleaner/process"
)

// scriptBody is a fixture article whose body only JavaScript makes: the
// served HTML lacks it (herald fetches it as JSON the server delays, pulse
// is a single-page application).
type scriptBody struct {
	url  string
	gold []string
}

// scriptBodies returns n such articles of herald and pulse, alternating.
func scriptBodies(b *testing.B, n int) []scriptBody {
	w := fixtureWeb(b)
	plain := &HTTPFetcher{Guard: loopback}
	var per [2][]scriptBody
	for k, name := range []string{"herald", "pulse"} {
		for _, a := range fixtureSite(b, w, name).Articles {
			if !a.Kind.IsArticle() {
				continue
			}
			u := w.ArticleURL(a)
			p, err := plain.Fetch(context.Background(), u)
			if err != nil {
				b.Fatal(err)
			}
			gold := goldParagraphs(a)
			if strings.Contains(pageText(b, p.HTML), gold[len(gold)-1]) {
				continue // served with its body
			}
			per[k] = append(per[k], scriptBody{u, gold})
		}
	}
	var out []scriptBody
	for i := 0; len(out) < n && (i < len(per[0]) || i < len(per[1])); i++ {
		for k := range per {
			if i < len(per[k]) && len(out) < n {
				out = append(out, per[k][i])
			}
		}
	}
	if len(out) < n {
		b.Fatalf("only %d fixture articles have a script-made body, want %d", len(out), n)
	}
	return out
}

// hasBody reports whether html holds every gold paragraph of a.
func (a scriptBody) hasBody(b *testing.B, html string) bool {
	text := pageText(b, html)
	for _, g := range a.gold {
		if !strings.Contains(text, g) {
			return false
		}
	}
	return true
}

// loopbackOnly is the benchmark's crawl guard: requests and connections to
// 127.0.0.1 only, as `gleaner render` runs on the fixtures (AllowRequest and
// Dial both set).
func loopbackOnly(o *Options) {
	o.AllowRequest = func(_ context.Context, u *url.URL) error {
		if ip, err := netip.ParseAddr(u.Hostname()); err != nil || !ip.IsLoopback() {
			return fmt.Errorf("%s is not loopback", u.Host)
		}
		return nil
	}
	d := &net.Dialer{Timeout: 5 * time.Second}
	o.Dial = func(ctx context.Context, network, address string) (net.Conn, error) {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !ap.Addr().IsLoopback() {
			return nil, fmt.Errorf("dial %s: not loopback: %w", address, ErrRefused)
		}
		return d.DialContext(ctx, network, address)
	}
}

// baseline is the minimal chromedp crawler of the comparison: one headless
// Chromium with chromedp's default flags, a new tab per page, ready at the
// load event, outerHTML read, tab closed.
type baseline struct {
	ctx    context.Context
	cancel func()
}

func newBaseline(b *testing.B) *baseline {
	exec, err := FindChromium()
	if err != nil {
		b.Skip(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exec),
		chromedp.ModifyCmdFunc(chromeproc.SetProcAttr), chromedp.Flag("no-sandbox", os.Geteuid() == 0))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		acancel()
		b.Fatal(err)
	}
	return &baseline{ctx: ctx, cancel: func() { cancel(); acancel() }}
}

func (bl *baseline) pid() int { return chromedp.FromContext(bl.ctx).Browser.Process().Pid }

func (bl *baseline) fetch(u string) (string, error) {
	tctx, cancel := chromedp.NewContext(bl.ctx)
	defer cancel()
	tctx, cancelT := context.WithTimeout(tctx, 30*time.Second)
	defer cancelT()
	if err := chromedp.Do(tctx, chromedp.Navigate(u)); err != nil {
		return "", err
	}
	return chromedp.Run(tctx, chromedp.Evaluate[string]("document.documentElement.outerHTML"))
}

// BenchmarkRenderScriptBodies renders the 60 fixture articles whose body
// JavaScript makes (herald: JSON delayed 400 ms by the server; pulse: a
// single-page application) with Gleaner's renderer (guarded as `gleaner
// render` is: AllowRequest and the proxy's dialer) and with a minimal
// chromedp crawler that is ready at the load event, at 1, 2 and 4 tabs,
// interleaved. It reports pages/s, correct pages/s (the page holds every
// gold paragraph), CPU seconds per page (Chromium's process tree plus this
// process, which also serves the fixtures) and the bodies captured.
//
//	go test ./browser -run '^$' -bench RenderScriptBodies -benchtime 1x -count 3
func BenchmarkRenderScriptBodies(b *testing.B) {
	needChromium(b)
	pages := scriptBodies(b, 60)
	for _, tabs := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("tabs=%d/gleaner", tabs), func(b *testing.B) {
			o := Options{Tabs: tabs, Logf: func(string, ...any) {}}
			loopbackOnly(&o)
			r := newRenderer(b, o)
			defer r.Close()
			fetch := func(u string) (string, error) {
				p, err := r.Fetch(context.Background(), u)
				if err != nil {
					return "", err
				}
				return p.HTML, nil
			}
			if _, err := fetch(pages[0].url); err != nil { // start the browser
				b.Fatal(err)
			}
			runScriptBodies(b, pages, tabs, r.BrowserPID(), fetch)
		})
		b.Run(fmt.Sprintf("tabs=%d/chromedp-load", tabs), func(b *testing.B) {
			bl := newBaseline(b)
			defer bl.cancel()
			runScriptBodies(b, pages, tabs, bl.pid(), bl.fetch)
		})
	}
}

// runScriptBodies fetches every page b.N times with tabs workers and
// reports the figures.
func runScriptBodies(b *testing.B, pages []scriptBody, tabs, pid int, fetch func(string) (string, error)) {
	var next, failed atomic.Int64
	total := b.N * len(pages)
	got := make([]string, total) // checked after the clock stops
	b.ResetTimer()
	cpu0, self0, start := chromeproc.TreeCPU(pid), process.CPU(), time.Now()
	var wg sync.WaitGroup
	var logMu sync.Mutex
	for range tabs {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= total {
					return
				}
				pg := pages[i%len(pages)]
				html, err := fetch(pg.url)
				if err != nil {
					failed.Add(1)
					logMu.Lock()
					b.Log(err)
					logMu.Unlock()
				}
				got[i] = html
			}
		})
	}
	wg.Wait()
	el := time.Since(start)
	cpu := chromeproc.TreeCPU(pid) - cpu0 + process.CPU() - self0
	b.StopTimer()
	good := 0
	for i, html := range got {
		if html != "" && pages[i%len(pages)].hasBody(b, html) {
			good++
		}
	}
	if pid == 0 {
		b.Error(errors.New("no browser pid: CPU not measured"))
	}
	n := float64(total)
	b.ReportMetric(n/el.Seconds(), "pages/s")
	b.ReportMetric(float64(good)/el.Seconds(), "correct_pages/s")
	b.ReportMetric(cpu.Seconds()/n, "cpu_s/page")
	b.ReportMetric(float64(good)/float64(b.N), "bodies/60")
	b.ReportMetric(float64(failed.Load()), "failed")
}
