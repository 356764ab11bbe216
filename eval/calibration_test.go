package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestCalibrationTable(t *testing.T) {
	tests := []struct {
		name          string
		points        []ConfidencePoint
		pages         map[int]int     // decile -> pages
		meanF1        map[int]float64 // decile -> mean F1
		confident     int
		confidentGood float64
	}{
		{"empty", nil, map[int]int{0: 0, 9: 0}, nil, 0, 0},
		{"edges", []ConfidencePoint{{0, 0.1}, {0.0999, 0.3}, {0.1, 1}, {1, 1}, {0.95, 0.5}, {0.9, 0.8}, {-0.2, 0}, {1.3, 0.9}},
			map[int]int{0: 3, 1: 1, 9: 4}, map[int]float64{0: 0.4 / 3, 1: 1, 9: 3.2 / 4}, 4, 0.75},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CalibrationTable(tt.points)
			if len(c.Deciles) != 10 || c.Deciles[3].Low != 0.3 || c.Deciles[9].High != 1 {
				t.Fatalf("deciles %+v", c.Deciles)
			}
			for d, n := range tt.pages {
				if c.Deciles[d].Pages != n {
					t.Errorf("decile %d: %d pages, want %d", d, c.Deciles[d].Pages, n)
				}
			}
			for d, f := range tt.meanF1 {
				if !near(c.Deciles[d].MeanF1, f) {
					t.Errorf("decile %d: mean F1 %v, want %v", d, c.Deciles[d].MeanF1, f)
				}
			}
			if c.Confident != tt.confident || !near(c.ConfidentGood, tt.confidentGood) {
				t.Errorf("confident %d (%v good), want %d (%v)", c.Confident, c.ConfidentGood, tt.confident, tt.confidentGood)
			}
		})
	}
}

// TestRunCalibration checks that a run's report carries the calibration
// of its pages and that the predictions carry method, confidence and page
// type.
func TestRunCalibration(t *testing.T) {
	rep, err := Run(context.Background(), filepath.Join("testdata", "mini", "manifest.tsv"), Options{Extract: Single})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range rep.Calibration.Deciles {
		n += d.Pages
	}
	if n != 3 || rep.Calibration.Deciles[0].Pages < 1 {
		t.Errorf("calibration counts %d pages (want 3, the failed one at 0): %+v", n, rep.Calibration.Deciles)
	}
	var out bytes.Buffer
	if err := WriteCalibration(&out, rep.Calibration); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[0.9, 1.0]", "mean word F1", "confidence ≥ 0.9"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("calibration table lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := rep.WritePredictions(&out); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var p Prediction
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		if p.Error == "" && (p.Method == "" || p.PageType == "" || p.Confidence <= 0 || p.Confidence > 1) {
			t.Errorf("prediction %s: method %q, page type %q, confidence %v", p.ID, p.Method, p.PageType, p.Confidence)
		}
	}
}
