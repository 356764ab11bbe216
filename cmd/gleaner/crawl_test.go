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

// TestCrawlCommand runs a plain-HTTP focused crawl of the fixture web from
// the command line, then its status, pause and resume subcommands.
func TestCrawlCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	corpus := filepath.Join(dir, "out", "corpus.jsonl")
	graph := filepath.Join(dir, "graph")
	var out, errb bytes.Buffer
	args := []string{"crawl", "--db", db, "--fixtures", "--fixtures-addr", "127.0.0.1:0", "--plain", "--delay", "1ms", "--timeout", "2s",
		"--max-pages", "40", "--learn-at", "6", "--strategy", "shark", "--corpus", corpus, "--graph", graph}
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	o := out.String()
	for _, want := range []string{"crawl fixtures: 4 seeds, strategy shark", "stopped: max-pages", "tried 40,", "harvest rate (validated/tried)",
		"templates of", "fixtures ground truth:", "extraction vs gold on", "corpus: ", "graph: "} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	b, err := os.ReadFile(corpus)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatal("empty corpus")
	}
	for _, l := range lines {
		var d map[string]any
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("corpus line %q: %v", l, err)
		}
		for _, k := range []string{"url", "site", "title", "text", "method", "relevance"} {
			if _, ok := d[k]; !ok {
				t.Errorf("corpus line lacks %q: %s", k, l)
			}
		}
	}
	csv, err := os.ReadFile(filepath.Join(graph, "links.csv"))
	if err != nil || !strings.HasPrefix(string(csv), "source,target,text\n") || strings.Count(string(csv), "\n") < 100 {
		t.Errorf("links.csv: %v, %.80q", err, csv)
	}
	if gml, err := os.ReadFile(filepath.Join(graph, "links.graphml")); err != nil || !strings.Contains(string(gml), "<graphml") {
		t.Errorf("links.graphml: %v", err)
	}

	out.Reset()
	if code := run(context.Background(), []string{"crawl", "status", "--db", db}, &out, &errb); code != 0 || !strings.Contains(out.String(), "crawl fixtures: tried 40,") {
		t.Errorf("crawl status: exit %d, %q", code, out.String())
	}
	for _, sub := range []string{"status", "pause", "resume"} {
		out.Reset()
		if code := run(context.Background(), []string{"crawl", sub, "--db", db, "--name", "fixtures"}, &out, &errb); code != 0 {
			t.Fatalf("crawl %s: exit %d: %s", sub, code, errb.String())
		}
		if !strings.Contains(out.String(), "tried 40,") {
			t.Errorf("crawl %s: %q", sub, out.String())
		}
	}
}

func TestCrawlCommandConfig(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "c.yaml")
	os.WriteFile(conf, []byte("name: fromyaml\nstrategy: bfs\nmax_pages: 12\ndelay: 1ms\ntimeout: 2s\nlearn_at: -1\n"), 0o644)
	var out, errb bytes.Buffer
	args := []string{"crawl", "--db", filepath.Join(dir, "c.db"), "--config", conf, "--fixtures", "--fixtures-addr", "127.0.0.1:0", "--plain", "--quiet"}
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if o := out.String(); !strings.Contains(o, "crawl fromyaml: 4 seeds, strategy bfs") || !strings.Contains(o, "tried 12,") {
		t.Errorf("output %q", o)
	}
}

func TestCrawlCommandErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: x\nmax_pagez: 3\n"), 0o644)
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"crawl", "--db", db, "--plain", "--terms", "a"}, 2, "no seed URL"},
		{[]string{"crawl", "--db", db, "--plain", "http://example.org/"}, 2, "no topic"},
		{[]string{"crawl", "--db", db, "--plain", "--terms", "a", "--strategy", "dfs", "http://example.org/"}, 2, "unknown crawl strategy"},
		{[]string{"crawl", "--db", db, "--plain", "--terms", "a", "--include", "(", "http://example.org/"}, 2, "include"},
		{[]string{"crawl", "--db", db, "--config", bad}, 1, "max_pagez"},
		{[]string{"crawl", "--db", db, "--config", filepath.Join(dir, "none.yaml")}, 1, "none.yaml"},
		{[]string{"crawl", "pause", "--db", db}, 2, "--name"},
		{[]string{"crawl", "pause", "--db", filepath.Join(dir, "missing.db"), "--name", "x"}, 1, "missing.db"},
		{[]string{"crawl", "harvest", "--pages", "0"}, 2, "--pages"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), tt.args, &out, &errb)
		if code != tt.code || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tt.args[1:], code, errb.String(), tt.code, tt.want)
		}
	}
	// A crawl that exists in no database.
	var out, errb bytes.Buffer
	run(context.Background(), []string{"crawl", "--db", db, "--plain", "--terms", "a", "--max-pages", "1", "--quiet", "http://127.0.0.1:1/"}, &out, &errb)
	if code := run(context.Background(), []string{"crawl", "pause", "--db", db, "--name", "nope"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), `no crawl named "nope"`) {
		t.Errorf("pause of an unknown crawl: exit %d, %q", code, errb.String())
	}
}
