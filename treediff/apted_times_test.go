package treediff

import (
	"strings"
	"testing"
)

// TestParseAptedTimes checks the reader of the same-session APTED timings
// (testdata/apted/TedBench.java's TSV) that BenchmarkTED divides by: the
// format it writes is read back, and malformed files are refused with the
// line or column at fault rather than giving ratios of zero.
func TestParseAptedTimes(t *testing.T) {
	const head = "# APTED on ted-bench\n# runs: 3\nid\tvariant\tdistance\tapted_ms\tapted_cpu_ms\n"
	tests := []struct {
		name, data string
		want       map[string]aptedTime
		err        string
	}{
		{name: "rows", data: head + "x08-tag\ttag\t715\t369.45\t320.81\ns33-token\ttoken\t767\t192.5\t180\n",
			want: map[string]aptedTime{"x08-tag": {369.45, 320.81}, "s33-token": {192.5, 180}}},
		{name: "header only", data: head, want: map[string]aptedTime{}},
		{name: "no header", data: "# nothing\n", err: "no header"},
		{name: "missing column", data: "id\tapted_ms\nx\t1\n", err: `no column "apted_cpu_ms"`},
		{name: "bad number", data: head + "x08-tag\ttag\t715\tfast\t320\n", err: "line 4: apted_ms"},
		{name: "short row", data: head + "x08-tag\ttag\t715\n", err: "line 4: 3 cells, want 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseAptedTimes(tc.data)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for id, w := range tc.want {
				if got[id] != w {
					t.Errorf("%s: got %+v, want %+v", id, got[id], w)
				}
			}
		})
	}
}
