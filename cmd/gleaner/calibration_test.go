package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/pagetype"
)

// TestEvalCalibration checks that `gleaner eval` prints the calibration
// table and that its predictions carry method, confidence and page type.
func TestEvalCalibration(t *testing.T) {
	manifest := filepath.Join("..", "..", "eval", "testdata", "mini", "manifest.tsv")
	pred := filepath.Join(t.TempDir(), "pred.jsonl")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"eval", "--manifest", manifest, "--method", "single", "--predictions", pred}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"confidence", "[0.9, 1.0]", "mean word F1", "confidence ≥ 0.9:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	b, err := os.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var p struct {
			ID         string   `json:"id"`
			Error      string   `json:"error"`
			Method     string   `json:"method"`
			Confidence *float64 `json:"confidence"`
			PageType   string   `json:"page_type"`
		}
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		if p.Confidence == nil || p.Error == "" && (p.Method == "" || p.PageType == "") {
			t.Errorf("prediction %s: %s", p.ID, line)
		}
	}
}

// TestExtractOnePageType checks that `gleaner extract --json` reports the
// page's type.
func TestExtractOnePageType(t *testing.T) {
	got := extractOne(t, storyFile("2"))
	found := false
	for _, pt := range pagetype.Types {
		found = found || got.PageType == pt
	}
	if !found {
		t.Errorf("page type %q, want one of %v", got.PageType, pagetype.Types)
	}
	if got.Confidence < 0 || got.Confidence > 1 {
		t.Errorf("confidence %v", got.Confidence)
	}
}
