package tedreport

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// TestCompute: the distance of bracket trees, their mapping (every node
// of both once) and the statistics when asked.
func TestCompute(t *testing.T) {
	for _, tc := range []struct {
		a, b          string
		dist, mapping int
	}{
		{"{a{b}{c}}", "{a{b}{c}}", 0, 3},
		{"{a{b}{c}}", "{a{b}}", 1, 3},
		{"{a{b}}", "{x{b}{c}}", 2, 3},
	} {
		a, err := treediff.ParseBracket("a", tc.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := treediff.ParseBracket("b", tc.b)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Compute(context.Background(), a, b, "", Options{Mapping: true, Stats: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Distance != tc.dist || len(res.Mapping) != tc.mapping || res.Stats == nil || res.A.Nodes != a.Len() {
			t.Errorf("%s %s: distance %d, %d pairs, stats %v; want %d, %d", tc.a, tc.b, res.Distance, len(res.Mapping), res.Stats, tc.dist, tc.mapping)
		}
		plain, err := Compute(context.Background(), a, b, "", Options{})
		if err != nil || plain.Distance != tc.dist || plain.Mapping != nil || plain.Stats != nil {
			t.Errorf("%s %s: without mapping nor stats: %+v %v", tc.a, tc.b, plain, err)
		}
	}
}

// TestRead reads a bracket tree and an HTML page from files, and names the
// file of an error.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	br := filepath.Join(dir, "t.txt")
	page := filepath.Join(dir, "p.html")
	os.WriteFile(br, []byte("{a{b}}\n"), 0o644)
	os.WriteFile(page, []byte("<html><body><p>one</p></body></html>"), 0o644)
	if tr, err := Read(br, nil, true, treediff.TagView); err != nil || tr.Len() != 2 {
		t.Errorf("bracket: %v %v", tr, err)
	}
	if tr, err := Read(page, nil, false, treediff.TagView); err != nil || tr.Len() < 3 {
		t.Errorf("html: %v %v", tr, err)
	}
	if tr, err := Read("-", strings.NewReader("{x}"), true, treediff.TagView); err != nil || tr.Len() != 1 {
		t.Errorf("stdin: %v %v", tr, err)
	}
	if _, err := Read(filepath.Join(dir, "none.html"), nil, false, treediff.TagView); err == nil || !strings.Contains(err.Error(), "none.html") {
		t.Errorf("missing file: %v", err)
	}
}
