package browser

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkRecord renders the script-made fixture articles (herald's JSON
// bodies, pulse's single-page application) with recording off and on, as a
// guarded crawl renders them (proxy and AllowRequest: the record rides on
// the proxy already there) and unguarded (recording starts the proxy),
// interleaved, 2 tabs. The recorded run also gzips every exchange as the
// store does, so cpu_s/page (Chromium's process tree plus this process,
// which serves the fixtures and runs the proxy) is the cost of capture up
// to the database; exchanges/page and KiB/page say what was kept.
//
//	go test ./browser -run '^$' -bench Record -benchtime 1x -count 3
func BenchmarkRecord(b *testing.B) {
	needChromium(b)
	pages := scriptBodies(b, 60)
	for _, guarded := range []bool{true, false} {
		for _, rec := range []bool{false, true} {
			b.Run(fmt.Sprintf("guarded=%v/record=%v", guarded, rec), func(b *testing.B) {
				o := Options{Tabs: 2, Logf: func(string, ...any) {}, Record: RecordOptions{On: rec}}
				if guarded {
					loopbackOnly(&o)
				}
				r := newRenderer(b, o)
				defer r.Close()
				var kept, bytesKept atomic.Int64
				fetch := func(u string) (string, error) {
					p, err := r.Fetch(context.Background(), u)
					if err != nil {
						return "", err
					}
					kept.Add(int64(len(p.Exchanges)))
					for _, x := range p.Exchanges {
						bytesKept.Add(x.Size())
						storeCompress(x.Request, x.Response, x.Payload)
					}
					return p.HTML, nil
				}
				if _, err := fetch(pages[0].url); err != nil { // start the browser
					b.Fatal(err)
				}
				kept.Store(0)
				bytesKept.Store(0)
				runScriptBodies(b, pages, 2, r.BrowserPID(), fetch)
				n := float64(b.N * len(pages))
				b.ReportMetric(float64(kept.Load())/n, "exchanges/page")
				b.ReportMetric(float64(bytesKept.Load())/1024/n, "KiB/page")
			})
		}
	}
}

// benchWriters are reused BestSpeed gzip writers, as the store's.
var benchWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// storeCompress gzips blobs as the store does before writing them.
func storeCompress(blobs ...[]byte) {
	for _, blob := range blobs {
		var buf bytes.Buffer
		w := benchWriters.Get().(*gzip.Writer)
		w.Reset(&buf)
		w.Write(blob)
		w.Close()
		benchWriters.Put(w)
	}
}
