package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
)

// TestEvalAgreesWithExtract checks that `gleaner eval` measures the pipeline
// `gleaner extract` runs: on every page of big9-dev, import + learn +
// extract --json give the body the evaluation's predictions file holds.
// The evaluation runs last with the same store, so that it takes the tree
// edit distances learn computed from the cache (same values, less time).
func TestEvalAgreesWithExtract(t *testing.T) {
	if testing.Short() {
		t.Skip("learns the templates of big9-dev")
	}
	manifest := filepath.Join(shareddata.Dir(t, "big9-dev"), "manifest.tsv")
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	for _, args := range [][]string{
		{"import", "--manifest", manifest, "--db", db},
		{"learn", "--db", db},
	} {
		if code, _, errs := runGleaner(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	code, out, errs := runGleaner("extract", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("extract: exit %d: %s", code, errs)
	}
	var ext struct{ Sites []extractSiteJSON }
	if err := json.Unmarshal([]byte(out), &ext); err != nil {
		t.Fatal(err)
	}
	extracted := map[string]string{}
	for _, s := range ext.Sites {
		for _, p := range s.Pages {
			extracted[p.Page] = p.Body
		}
	}
	preds := filepath.Join(dir, "p.jsonl")
	if code, _, errs := runGleaner("eval", "--manifest", manifest, "--db", db, "--predictions", preds); code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errs)
	}
	evaluated := readPredictions(t, preds)
	if len(evaluated) != 180 || len(extracted) != len(evaluated) {
		t.Fatalf("%d pages extracted, %d evaluated, want 180", len(extracted), len(evaluated))
	}
	for id, body := range evaluated {
		if got, ok := extracted[id]; !ok || got != body {
			t.Errorf("page %s: extract gave a body of %d bytes, eval %d", id, len(got), len(body))
		}
	}
}

// readPredictions reads a predictions file's bodies by page id.
func readPredictions(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var p struct{ ID, Body string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		out[p.ID] = p.Body
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
