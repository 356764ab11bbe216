package treediff

import (
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// threadCPU is the CPU time of the calling OS thread (RUSAGE_THREAD): on a
// shared machine it measures the work better than the wall clock.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTED times Distance on every ted-bench pair, by class (tag,
// token, token_kind), and reports the speed-up over APTED's median time on
// the same pair (apted_x: APTED ms / Gleaner ms of wall clock), and the CPU
// time of the benchmarking thread per call (cpu-ms/op), with its own ratio
// (apted_cpu_x), since wall clock on a busy machine mostly measures the
// others' load.
//
//	go test ./treediff -run '^$' -bench TED -benchmem -benchtime 3x
func BenchmarkTED(b *testing.B) {
	dir, rows := readBench(b)
	for _, r := range rows {
		b.Run(r.variant+"/"+r.id, func(b *testing.B) {
			x := readBracket(b, filepath.Join(dir, r.file1))
			y := readBracket(b, filepath.Join(dir, r.file2))
			opt := Options{}
			if r.variant == "token_kind" {
				x, y = asKinds(x), asKinds(y)
				opt.CompareKinds = true
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			cpu0 := threadCPU()
			for b.Loop() {
				d, err := Distance(x, y, opt)
				if err != nil || d != r.want {
					b.Fatalf("distance %d (%v), want %d", d, err, r.want)
				}
			}
			ms := b.Elapsed().Seconds() * 1000 / float64(b.N)
			cpu := (threadCPU() - cpu0).Seconds() * 1000 / float64(b.N)
			b.ReportMetric(cpu, "cpu-ms/op")
			if r.aptedMS > 0 {
				b.ReportMetric(r.aptedMS/ms, "apted_x")
				b.ReportMetric(r.aptedMS/cpu, "apted_cpu_x")
			}
		})
	}
}

// BenchmarkMapping times Mapping on the tag pairs (the mapping of token
// pairs costs about as much again as their distance).
func BenchmarkMapping(b *testing.B) {
	dir, rows := readBench(b)
	for _, r := range rows {
		if r.variant != "tag" {
			continue
		}
		b.Run(r.id, func(b *testing.B) {
			x := readBracket(b, filepath.Join(dir, r.file1))
			y := readBracket(b, filepath.Join(dir, r.file2))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Mapping(x, y, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseAdversarial parses pages built to make a naive tree builder
// quadratic (elements opened against a stack at the depth limit, end tags
// matching nothing): each should cost about as much as a flat page.
func BenchmarkParseAdversarial(b *testing.B) {
	pages := map[string]string{
		"flat":         strings.Repeat("<p>x</p>", 100_000),
		"nested-div":   strings.Repeat("<div>", 100_000),
		"nested-li":    strings.Repeat("<ul><li>", 50_000),
		"stray-end":    strings.Repeat("<span>", 600) + strings.Repeat("</div>", 100_000),
		"unclosed-raw": strings.Repeat("<script>x</script ", 50_000),
	}
	for name, src := range pages {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := Parse(name, []byte(src), ParseOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
