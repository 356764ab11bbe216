//go:build ignore

// Benchtable prints the side-by-side table of scripts/bench-ted from the
// files of its rounds: apted-N.tsv (TedBench.java) and go-N.txt (go test
// -bench output of BenchmarkTED), N = 1, 2, ...
//
//	go run treediff/testdata/apted/benchtable.go DIR
//
// Times are medians over the rounds; ratios are medians of the per-round
// ratios, each taken between APTED and Gleaner measured back to back, which
// cancels most of the drift of a shared machine's load.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// sample is one pair's times in one round.
type sample struct{ aptedMS, aptedCPU, goMS, goCPU float64 }

// pair is one ted-bench row over all rounds.
type pair struct {
	id, variant string
	rounds      []sample
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: benchtable DIR")
		os.Exit(2)
	}
	pairs, n, err := load(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	printTable(pairs, n)
}

// load reads every round of dir and joins APTED's and Gleaner's times by id.
func load(dir string) (map[string]*pair, int, error) {
	pairs := map[string]*pair{}
	n := 0
	for ; ; n++ {
		apted := filepath.Join(dir, fmt.Sprintf("apted-%d.tsv", n+1))
		if _, err := os.Stat(apted); errors.Is(err, os.ErrNotExist) {
			break
		}
		a, err := readApted(apted)
		if err != nil {
			return nil, 0, err
		}
		g, err := readGo(filepath.Join(dir, fmt.Sprintf("go-%d.txt", n+1)))
		if err != nil {
			return nil, 0, err
		}
		if err := join(pairs, a, g, n+1); err != nil {
			return nil, 0, err
		}
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("%s: no apted-1.tsv", dir)
	}
	return pairs, n, nil
}

func join(pairs map[string]*pair, a map[string][3]string, g map[string][2]float64, round int) error {
	for id, row := range a {
		gt, ok := g[id]
		if !ok {
			return fmt.Errorf("round %d: %s timed by APTED but not by BenchmarkTED", round, id)
		}
		wall, err1 := strconv.ParseFloat(row[1], 64)
		cpu, err2 := strconv.ParseFloat(row[2], 64)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("round %d: %s: %w", round, id, err)
		}
		p := pairs[id]
		if p == nil {
			p = &pair{id: id, variant: row[0]}
			pairs[id] = p
		}
		p.rounds = append(p.rounds, sample{wall, cpu, gt[0], gt[1]})
	}
	return nil
}

// readApted reads TedBench's TSV: id -> {variant, apted_ms, apted_cpu_ms}.
func readApted(path string) (map[string][3]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string][3]string{}
	for _, line := range strings.Split(string(data), "\n") {
		c := strings.Split(line, "\t")
		if strings.HasPrefix(line, "#") || len(c) != 5 || c[0] == "id" {
			continue
		}
		out[c[0]] = [3]string{c[1], c[3], c[4]}
	}
	return out, nil
}

var benchLine = regexp.MustCompile(`^BenchmarkTED/[^/]+/(\S+?)(-\d+)?\s+\d+\s+(.*)$`)

// readGo reads go test -bench output: id -> {ms/op, cpu-ms/op}.
func readGo(path string) (map[string][2]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][2]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		metrics := map[string]float64{}
		fields := strings.Fields(m[3])
		for i := 0; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q: %w", path, sc.Text(), err)
			}
			metrics[fields[i+1]] = v
		}
		out[m[1]] = [2]float64{metrics["ns/op"] / 1e6, metrics["cpu-ms/op"]}
	}
	return out, sc.Err()
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// med returns the median over rounds of f.
func (p *pair) med(f func(sample) float64) float64 {
	xs := make([]float64, len(p.rounds))
	for i, s := range p.rounds {
		xs[i] = f(s)
	}
	return median(xs)
}

func printTable(pairs map[string]*pair, rounds int) {
	fmt.Printf("APTED (in-JVM, JVM start excluded) vs Gleaner treediff.Distance, %d alternating round(s); "+
		"times = medians over rounds, ratios = medians of per-round ratios (APTED / Gleaner).\n"+
		"median = the pair with the median APTED time among the pairs of that variant measured in this run "+
		"(by default the stored median and slowest pairs; --all: all 17); worst = the slowest for APTED.\n\n", rounds)
	fmt.Println("| variant | pair | id | pairs measured | APTED ms | APTED CPU ms | Gleaner ms | Gleaner CPU ms | wall ratio | CPU ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, v := range []string{"tag", "token", "token_kind"} {
		var ps []*pair
		for _, p := range pairs {
			if p.variant == v {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			continue
		}
		aptedMS := func(p *pair) float64 { return p.med(func(s sample) float64 { return s.aptedMS }) }
		slices.SortFunc(ps, func(a, b *pair) int {
			if c := compare(aptedMS(a), aptedMS(b)); c != 0 {
				return c
			}
			return strings.Compare(a.id, b.id)
		})
		row(v, "median", ps[(len(ps)-1)/2], len(ps))
		row(v, "worst", ps[len(ps)-1], len(ps))
	}
}

func compare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func row(variant, role string, p *pair, n int) {
	fmt.Printf("| %s | %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f× | %.1f× |\n",
		variant, role, p.id, n,
		p.med(func(s sample) float64 { return s.aptedMS }),
		p.med(func(s sample) float64 { return s.aptedCPU }),
		p.med(func(s sample) float64 { return s.goMS }),
		p.med(func(s sample) float64 { return s.goCPU }),
		p.med(func(s sample) float64 { return s.aptedMS / s.goMS }),
		p.med(func(s sample) float64 { return s.aptedCPU / s.goCPU }))
}
