package treediff

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
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
// token, token_kind), with the CPU time of the benchmarking thread per call
// (cpu-ms/op), since wall clock on a busy machine mostly measures the
// others' load.
//
// With GLEANER_APTED_TIMES=<tsv> (written by testdata/apted/run.sh, APTED
// run on this machine in this session; scripts/bench-ted does both in
// alternating rounds) it reports the speed-up over APTED on the same pair:
// apted_x (APTED wall ms / Gleaner wall ms) and apted_cpu_x (APTED thread
// CPU / Gleaner thread CPU). Without it, it reports the ratios to the
// timings stored in ted-bench's pairs.tsv, measured on another machine
// and day, under names that say so: stored_apted_x, stored_apted_cpu_x.
//
//	go test ./treediff -run '^$' -bench TED -benchmem -benchtime 3x
func BenchmarkTED(b *testing.B) {
	dir, rows := readBench(b)
	same := readAptedTimes(b, os.Getenv("GLEANER_APTED_TIMES"))
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
			reportAptedRatios(b, r, same, ms, cpu)
		})
	}
}

// aptedTime is APTED's median time on one pair, measured in this session.
type aptedTime struct{ wallMS, cpuMS float64 }

// reportAptedRatios reports the speed-up over the same-session APTED times
// when they were given, else over the stored ones under distinct names.
func reportAptedRatios(b *testing.B, r benchRow, same map[string]aptedTime, ms, cpu float64) {
	prefix, wall, cpuMS := "stored_", r.aptedMS, r.aptedMS
	if same != nil {
		t, ok := same[r.id]
		if !ok {
			return
		}
		prefix, wall, cpuMS = "", t.wallMS, t.cpuMS
	}
	if wall > 0 {
		b.ReportMetric(wall/ms, prefix+"apted_x")
	}
	// A call shorter than the clock tick can show no thread CPU at all.
	if cpuMS > 0 && cpu > 0 {
		b.ReportMetric(cpuMS/cpu, prefix+"apted_cpu_x")
	}
}

// readAptedTimes reads the TSV named by GLEANER_APTED_TIMES; an empty path
// means none was given (nil map).
func readAptedTimes(tb testing.TB, path string) map[string]aptedTime {
	tb.Helper()
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("GLEANER_APTED_TIMES: %v", err)
	}
	times, err := parseAptedTimes(string(data))
	if err != nil {
		tb.Fatalf("GLEANER_APTED_TIMES %s: %v", path, err)
	}
	return times
}

// parseAptedTimes parses the TSV of testdata/apted/TedBench.java: comment
// lines, then a header naming at least id, apted_ms and apted_cpu_ms, then
// one row per pair.
func parseAptedTimes(data string) (map[string]aptedTime, error) {
	out := map[string]aptedTime{}
	var col map[string]int
	for n, line := range strings.Split(data, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(line, "\t")
		if col == nil {
			var err error
			if col, err = columns(cells, "id", "apted_ms", "apted_cpu_ms"); err != nil {
				return nil, err
			}
			continue
		}
		t, err := parseAptedTime(cells, col)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		out[cells[col["id"]]] = t
	}
	if col == nil {
		return nil, errors.New("no header line")
	}
	return out, nil
}

// columns maps the header's names to indexes, failing if one is missing.
func columns(head []string, need ...string) (map[string]int, error) {
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, k := range need {
		if _, ok := col[k]; !ok {
			return nil, fmt.Errorf("no column %q in header %q", k, head)
		}
	}
	return col, nil
}

func parseAptedTime(cells []string, col map[string]int) (aptedTime, error) {
	if len(cells) != len(col) {
		return aptedTime{}, fmt.Errorf("%d cells, want %d", len(cells), len(col))
	}
	wall, err := strconv.ParseFloat(cells[col["apted_ms"]], 64)
	if err != nil {
		return aptedTime{}, fmt.Errorf("apted_ms: %w", err)
	}
	cpu, err := strconv.ParseFloat(cells[col["apted_cpu_ms"]], 64)
	if err != nil {
		return aptedTime{}, fmt.Errorf("apted_cpu_ms: %w", err)
	}
	return aptedTime{wallMS: wall, cpuMS: cpu}, nil
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
