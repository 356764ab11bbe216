package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/singlepage"
)

// synthetic returns records of n sites whose page type shows in one
// feature each and whose F1 follows the agreement with go-trafilatura.
func synthetic(n int) []record {
	rng := rand.New(rand.NewPCG(1, 2))
	nf := len(pagetype.FeatureNames)
	var recs []record
	for i := range n {
		c := i % len(pagetype.Types)
		feats := make([]float64, nf)
		for j := range feats {
			feats[j] = rng.Float64()
		}
		feats[c] += 2
		agree := rng.Float64()
		f1 := math.Min(1, math.Max(0, agree+0.1*rng.NormFloat64()))
		recs = append(recs, record{Set: "syn", ID: string(rune('a'+i%26)) + strings.Repeat("x", i/26), Site: "syn/site" + string(rune('a'+i%26)) + strings.Repeat("y", i/26),
			Era: pagetype.Types[c], F1: f1, Method: singlepage.MethodSingle,
			Ev: singlepage.Evidence{Raw: 1, Method: singlepage.MethodSingle, Agreement: agree, BodyWords: 300, PageWords: 900, PageFeatures: feats}})
	}
	return recs
}

func TestFitter(t *testing.T) {
	f := fitter{recs: synthetic(350), folds: 5}
	var out bytes.Buffer
	pt, err := f.pageTypes(&out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "page type accuracy (cross-validated by site): 1.000") {
		t.Errorf("separable types not all found:\n%s", out.String())
	}
	cal := f.calibration(&out)
	for i := 1; i < len(cal.Y); i++ {
		if cal.Y[i] < cal.Y[i-1] || cal.X[i] <= cal.X[i-1] {
			t.Fatalf("isotonic knots not increasing: %v %v", cal.X, cal.Y)
		}
	}
	lo, hi := f.recs[0].Ev, f.recs[0].Ev
	lo.Agreement, hi.Agreement = 0.1, 0.95
	if cl, ch := cal.confidence(lo.Vector(), 0), cal.confidence(hi.Vector(), 0); cl > 0.3 || ch < 0.8 {
		t.Errorf("confidence at agreement 0.1: %.2f, at 0.95: %.2f", cl, ch)
	}
	if !strings.Contains(out.String(), "syn: calibration") || !strings.Contains(out.String(), "calibrated confidence ≥ 0.9") {
		t.Errorf("report:\n%s", out.String())
	}
	// The generated files compile as the package's own (gofmt accepts them).
	dir := t.TempDir()
	if err := writeGo(filepath.Join(dir, "a.go"), pt.goSource()); err != nil {
		t.Fatal(err)
	}
	if err := writeGo(filepath.Join(dir, "b.go"), cal.goSource()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "b.go"))
	if !strings.Contains(string(b), "var confidenceModel = calibrator{") || !strings.Contains(string(b), "go run ./heuristics/internal/fitconfidence") {
		t.Errorf("generated calibration:\n%.400s", b)
	}
}

func TestFoldOfKeepsSites(t *testing.T) {
	if foldOf("a.example", 5) != foldOf("a.example", 5) {
		t.Fatal("fold not stable")
	}
	seen := map[int]bool{}
	for i := range 200 {
		f := foldOf("site"+string(rune('a'+i%26))+strings.Repeat("z", i/26), 5)
		if f < 0 || f >= 5 {
			t.Fatalf("fold %d", f)
		}
		seen[f] = true
	}
	if len(seen) != 5 {
		t.Errorf("folds used: %v", seen)
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	recs := synthetic(10)
	recs[3].Body = "First line of the body.\nReply\nReply"
	if err := writeRecords(path, recs); err != nil {
		t.Fatal(err)
	}
	got, err := readRecords(path)
	if err != nil || len(got) != 10 || got[3].Ev.Agreement != recs[3].Ev.Agreement {
		t.Errorf("read %d records (%v)", len(got), err)
	}
	// Reused records read their body's shape again.
	got, err = loadRecords(context.Background(), true, path, nil, nil, io.Discard)
	if err != nil || got[3].Ev.Lines != 3 || got[3].Ev.RepeatShare != 2.0/3 || got[2].Ev.Lines != 0 {
		t.Errorf("reused: %+v (%v)", got[3].Ev.Shape, err)
	}
	if _, err := readRecords(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: %v", err)
	}
}

// TestOutOfFoldScores: the map is fitted on the scores each example gets
// from the regression that did not see its fold. Two folds with opposite
// relations of y to x: on all examples the regression learns nothing
// (scores near 0.5); out of fold, each fold's examples get the other
// fold's relation, the opposite of their own.
func TestOutOfFoldScores(t *testing.T) {
	var xs [][]float64
	var ys []float64
	var folds []int
	for i := range 40 {
		x := float64(i%2)*2 - 1 // -1, 1
		fold := i / 20
		y := (x + 1) / 2
		if fold == 1 {
			y = 1 - y
		}
		xs, ys, folds = append(xs, []float64{x}), append(ys, y), append(folds, fold)
	}
	all := fitLogistic(xs, ys)
	tests := []struct {
		name  string
		folds []int
		check func(i int, score float64) bool
	}{
		{"two folds: the other fold's relation", folds, func(i int, s float64) bool { return math.Abs(s-ys[i]) > 0.7 }},
		{"one fold: the regression's own scores", make([]int, len(xs)), func(i int, s float64) bool { return math.Abs(s-all.score(xs[i])) < 1e-12 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, s := range outOfFoldScores(xs, ys, tt.folds, all) {
				if !tt.check(i, s) {
					t.Fatalf("example %d (x %v, y %v, fold %d): score %.3f", i, xs[i][0], ys[i], tt.folds[i], s)
				}
			}
		})
	}
}
