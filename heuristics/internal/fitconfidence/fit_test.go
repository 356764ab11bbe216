package main

import (
	"bytes"
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
	if err := writeRecords(path, recs); err != nil {
		t.Fatal(err)
	}
	got, err := readRecords(path)
	if err != nil || len(got) != 10 || got[3].Ev.Agreement != recs[3].Ev.Agreement {
		t.Errorf("read %d records (%v)", len(got), err)
	}
	if _, err := readRecords(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: %v", err)
	}
}
