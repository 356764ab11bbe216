package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalCommand(t *testing.T) {
	manifest := filepath.Join("..", "..", "eval", "testdata", "mini", "manifest.tsv")
	dir := t.TempDir()
	pred := filepath.Join(dir, "pred.jsonl")
	for _, method := range []string{"single", "gleaner"} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"eval", "--manifest", manifest, "--method", method, "--pages", "--predictions", pred, "--db", filepath.Join(dir, method+".db")}, &out, &errb)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", method, code, errb.String())
		}
		for _, want := range []string{"exactitude", "gazette", "times", "overall", "F1", "lost", "error:"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: output lacks %q:\n%s", method, want, out.String())
			}
		}
		b, err := os.ReadFile(pred)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n != 3 {
			t.Errorf("%s: %d prediction lines, want 3", method, n)
		}
	}

	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"eval", "--manifest", manifest, "--method", "single", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errb.String())
	}
	var rep struct {
		Overall struct {
			Pages  int     `json:"pages"`
			F1     float64 `json:"f1"`
			Errors int     `json:"errors"`
		} `json:"overall"`
		Sites []struct {
			Site string `json:"site"`
		} `json:"sites"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out.String())
	}
	if rep.Overall.Pages != 3 || rep.Overall.Errors != 1 || len(rep.Sites) != 2 || rep.Overall.F1 < 0.5 {
		t.Errorf("--json report = %+v", rep)
	}
}

func TestEvalCommandUsage(t *testing.T) {
	tests := [][]string{
		{"eval"},
		{"eval", "--manifest", "m.tsv", "extra"},
		{"eval", "--manifest", "m.tsv", "--method", "magic"},
		{"eval", "--bogus"},
	}
	for _, args := range tests {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != 2 {
			t.Errorf("%q: exit %d, want 2 (usage)", args, code)
		}
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"eval", "--manifest", filepath.Join(t.TempDir(), "absent.tsv")}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "absent.tsv") {
		t.Errorf("absent manifest: exit %d, stderr %q", code, errb.String())
	}
	if code := run(context.Background(), []string{"eval", "--manifest", "m.tsv", "--compare", "boilerpipe"}, &out, &errb); code != 2 {
		t.Errorf("--compare boilerpipe: exit %d, want 2", code)
	}
}

// TestEvalCompare runs --compare trafilatura with a stand-in for
// gleaner-evalcmp on the PATH (the real one is built from its own module,
// whose tests cover it) and checks the arguments it is given, and the
// error naming the build command when there is none.
func TestEvalCompare(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho \"evalcmp $*\"\n"
	if err := os.WriteFile(filepath.Join(dir, evalcmpName), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"eval", "--manifest", "m.tsv", "--method", "single", "--compare", "trafilatura", "--json"}, &out, &errb)
	if code != 0 || strings.TrimSpace(out.String()) != "evalcmp --manifest m.tsv --methods single,trafilatura --json" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	t.Setenv("PATH", t.TempDir())
	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"eval", "--manifest", "m.tsv", "--compare", "trafilatura"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "go build -o ../bin/"+evalcmpName) {
		t.Errorf("no evalcmp: exit %d, stderr %q", code, errb.String())
	}
}
