package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunMini(t *testing.T) {
	rep, err := Run(context.Background(), filepath.Join("testdata", "mini", "manifest.tsv"), Options{Extract: Single})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]PageResult{}
	for _, p := range rep.Pages {
		byID[p.ID] = p
	}
	bridge, storm, lost := byID["bridge"], byID["storm"], byID["lost"]
	if !bridge.Accurate || bridge.Relation != Equal || bridge.F1 != 1 || bridge.Cos < 0.999999 {
		t.Errorf("bridge: %+v, want an exact extraction", bridge.PageScore)
	}
	// storm's gold has 68 words, the last four ("Café owners were
	// pleased") not on the page: 65 gold shingles, 61 predicted, all right.
	if storm.Relation != Inside || !near(storm.Recall, 61.0/65) || storm.Precision != 1 || storm.Cos < 0.95 {
		t.Errorf("storm: %+v, want T⊂T*, R = 61/65, P = 1", storm.PageScore)
	}
	if lost.Err == "" || lost.Text != "" || lost.Cos != 0 || lost.Recall != 0 {
		t.Errorf("lost: %+v, want an error and an empty text", lost.PageScore)
	}
	if rep.Pages[0].ID != "lost" || rep.Pages[len(rep.Pages)-1].ID != "bridge" {
		t.Errorf("pages not listed failing first: %s ... %s", rep.Pages[0].ID, rep.Pages[len(rep.Pages)-1].ID)
	}
	o := rep.Overall
	if o.Pages != 3 || o.Errors != 1 || o.Exact != 2 || !near(o.Precision, 1) || !near(o.Recall, (1+61.0/65+0)/3) || !near(o.Accuracy, 1.0/3) {
		t.Errorf("overall = %+v", o)
	}
	if len(rep.Sources) != 2 || rep.Sources[0].Source != "2005" || rep.Sources[0].Pages != 2 || rep.Sources[1].Source != "2024" || rep.Sources[1].F1 != 1 {
		t.Errorf("sources = %+v", rep.Sources)
	}
	if len(rep.Sites) != 2 || rep.Sites[0].Site != "gazette" || rep.Sites[1].Site != "times" || rep.Sites[1].Pages != 2 {
		t.Errorf("sites = %+v", rep.Sites)
	}

	var buf bytes.Buffer
	if err := rep.WritePredictions(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d prediction lines, want 3", len(lines))
	}
	var first Prediction
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.ID != "bridge" || first.Text != first.Title+"\n\n"+first.Body || first.Error != "" ||
		first.Source != "2024" || first.Date != "2024-03-01T10:00:00Z" || first.Author != "Jane Doe" || first.Title != "Council approves new bridge" {
		t.Errorf("first prediction = %+v", first)
	}
	var last Prediction
	if err := json.Unmarshal([]byte(lines[1]), &last); err != nil {
		t.Fatal(err)
	}
	if last.ID != "lost" || last.Text != "" || last.Error == "" {
		t.Errorf("lost prediction = %+v, want empty text and an error", last)
	}

	buf.Reset()
	if err := rep.WriteTables(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"gazette", "times", "overall", "exactitude", "F1", "source", "2005"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("tables lack %q:\n%s", want, buf.String())
		}
	}
}

func TestLoadDatasetErrors(t *testing.T) {
	dir := t.TempDir()
	const head = "id\tsite\turl\thtml_path\tgold_path\n"
	tests := []struct {
		name, content, want string
	}{
		{"nogoldcol", "id\tsite\turl\thtml_path\na\ts\thttp://x.example/a\ta.html\n", "has no gold_path"},
		{"nogold", head + "a\ts\thttp://x.example/a\ta.html\tmissing.txt\n", "gold"},
		{"dup", head + "a\ts\thttp://x.example/a\th\tg\na\ts\thttp://x.example/b\th\tg\n", `id "a" already`},
		{"noheader", "", "empty manifest"},
	}
	for _, tt := range tests {
		p := filepath.Join(dir, tt.name+".tsv")
		if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadDataset(p)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v, want one naming %s and %q", tt.name, err, p, tt.want)
		}
	}
	if _, err := LoadDataset(filepath.Join(dir, "absent.tsv")); err == nil {
		t.Error("absent manifest: no error")
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, filepath.Join("testdata", "mini", "manifest.tsv"), Options{}); err == nil {
		t.Error("cancelled run: no error")
	}
}

// TestRunBodyOnly checks that the pages of a source listed in BodyOnly are
// scored on their body alone: bridge's gold holds its headline, so leaving
// the title out costs recall there, and only there.
func TestRunBodyOnly(t *testing.T) {
	manifest := filepath.Join("testdata", "mini", "manifest.tsv")
	for _, tt := range []struct {
		bodyOnly []string
		titled   bool
	}{{nil, true}, {[]string{"2005"}, true}, {[]string{"2024"}, false}} {
		rep, err := Run(context.Background(), manifest, Options{Extract: Single, BodyOnly: tt.bodyOnly})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Pages {
			if p.ID != "bridge" {
				continue
			}
			if got := p.Text == p.Title+"\n\n"+p.Body; got != tt.titled {
				t.Errorf("BodyOnly %v: bridge scored with title %v, want %v", tt.bodyOnly, got, tt.titled)
			}
			if tt.titled != (p.Recall == 1) {
				t.Errorf("BodyOnly %v: bridge recall %v", tt.bodyOnly, p.Recall)
			}
		}
	}
}
