package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
)

func runTEDCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"ted"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

func TestTEDCommand(t *testing.T) {
	td := filepath.Join("testdata", "ted")
	a, b := filepath.Join(td, "a.html"), filepath.Join(td, "b.html")
	ta, tb := filepath.Join(td, "a.tree"), filepath.Join(td, "b.tree")
	cases := []struct {
		name string
		args []string
		want string
	}{
		// Tag view: A has one more <p> (its <style> and B's <script> are dropped).
		{"tag", []string{a, b}, "1\n"},
		// Token view: Old->New, and the 5 words of A's extra paragraph plus its
		// <p>, one extra: 1 + 6 = 7.
		{"token", []string{"--view", "token", a, b}, "7\n"},
		{"flags after files", []string{a, b, "--view", "token", "--kinds"}, "7\n"},
		{"bracket", []string{"--bracket", ta, tb}, "2\n"},
		{"same file", []string{"--view", "token", a, a}, "0\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := runTEDCmd(t, c.args...)
			if code != 0 || out != c.want {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errs, c.want)
			}
		})
	}
}

func TestTEDCommandMapping(t *testing.T) {
	td := filepath.Join("testdata", "ted")
	out, errs, code := runTEDCmd(t, "--mapping", "--stats", "--view", "token", "--kinds",
		filepath.Join(td, "a.html"), filepath.Join(td, "b.html"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res tedResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if res.Distance != 7 || res.View != "token" || res.Stats == nil || res.Stats.PeakRSSMB <= 0 {
		t.Fatalf("distance %d, view %q, stats %+v", res.Distance, res.View, res.Stats)
	}
	ops := map[string]int{}
	seenA, seenB := map[int]bool{}, map[int]bool{}
	for _, p := range res.Mapping {
		ops[p.Op]++
		if p.A != nil {
			seenA[p.A.Index] = true
		}
		if p.B != nil {
			seenB[p.B.Index] = true
		}
		if p.Op == "rename" && (p.A.Label != "Old" || p.B.Label != "New" || p.A.Path != "/html/body[1]/div[2]/h1[1]/text()[1]") {
			t.Errorf("unexpected rename %+v -> %+v", p.A, p.B)
		}
	}
	if len(seenA) != res.A.Nodes || len(seenB) != res.B.Nodes {
		t.Errorf("mapping covers %d/%d and %d/%d nodes", len(seenA), res.A.Nodes, len(seenB), res.B.Nodes)
	}
	if ops["rename"] != 1 || ops["delete"] != 6 || ops["insert"] != 0 || ops["rename"]+ops["delete"]+ops["insert"] != res.Distance {
		t.Errorf("ops %v", ops)
	}
}

// TestTEDCommandBench runs the CLI on a ted-bench pair with --stats.
func TestTEDCommandBench(t *testing.T) {
	dir := shareddata.Dir(t, "ted-bench")
	out, errs, code := runTEDCmd(t, "--bracket", "--stats",
		filepath.Join(dir, "pairs", "b09-obama-4.tag.tree"), filepath.Join(dir, "pairs", "b09-obama-3.tag.tree"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	fields := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "\t")
		fields[f[0]] = f[1:]
	}
	if got := fields["distance"]; len(got) != 1 || got[0] != "57" {
		t.Errorf("distance %v, want 57 (pairs.tsv s31-tag)", got)
	}
	if got := fields["nodes"]; len(got) != 2 || got[0] != "328" || got[1] != "333" {
		t.Errorf("nodes %v", got)
	}
	if rss, err := strconv.ParseFloat(fields["peak_rss_mb"][0], 64); err != nil || rss <= 0 {
		t.Errorf("peak_rss_mb %v", fields["peak_rss_mb"])
	}
}

func TestTEDCommandErrors(t *testing.T) {
	td := filepath.Join("testdata", "ted")
	empty := filepath.Join(t.TempDir(), "empty.html")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"one input", []string{filepath.Join(td, "a.html")}, 2, "want two inputs"},
		{"bad view", []string{"--view", "dom", filepath.Join(td, "a.html"), filepath.Join(td, "b.html")}, 2, "unknown tree view"},
		{"missing file", []string{filepath.Join(td, "a.html"), filepath.Join(td, "nope.html")}, 1, "nope.html"},
		{"empty page", []string{empty, filepath.Join(td, "a.html")}, 1, "empty document"},
		{"bad bracket", []string{"--bracket", filepath.Join(td, "a.html"), filepath.Join(td, "b.tree")}, 1, "a.html"},
		{"over budget", []string{"--max-cells", "50", filepath.Join(td, "a.html"), filepath.Join(td, "b.html")}, 1, "over budget"},
		{"over time budget", []string{"--max-work", "50", filepath.Join(td, "a.html"), filepath.Join(td, "b.html")}, 1, "subproblems"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := runTEDCmd(t, c.args...)
			if code != c.code || !strings.Contains(errs, c.contains) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, errs, c.code, c.contains)
			}
		})
	}
}
