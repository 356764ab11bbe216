package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMonitorCommand runs "gleaner monitor --fixtures" for three rounds
// and checks the per-round JSON and the JSONL of new documents.
func TestMonitorCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "new.jsonl")
	var stdout, stderr bytes.Buffer
	args := []string{"monitor", "--fixtures", "--rounds", "3", "--json", "--articles", "8", "--db", filepath.Join(dir, "m.db"), "--out", out}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	total := 0
	sc := bufio.NewScanner(&stdout)
	for round := 1; sc.Scan(); round++ {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		for _, k := range []string{"round", "sources", "new", "updated", "duplicates", "errors", "requests", "new_precision", "new_recall", "unchanged_refetched"} {
			if _, ok := line[k]; !ok {
				t.Errorf("round %d: no %q in %s", round, k, sc.Text())
			}
		}
		if line["round"] != float64(round) || line["new_precision"] != 1.0 || line["new_recall"] != 1.0 || line["unchanged_refetched"] != 0.0 {
			t.Errorf("round %d: %s", round, sc.Text())
		}
		// The new articles' text against the fixtures' gold (those whose
		// body is in the served HTML: plain HTTP here).
		f1, _ := line["text_f1"].(float64)
		if n, _ := line["text_scored"].(float64); f1 < 0.95 || n == 0 {
			t.Errorf("round %d: text F1 %v on %v articles, want at least 0.95", round, line["text_f1"], line["text_scored"])
		}
		total += int(line["new"].(float64))
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != total || total == 0 {
		t.Fatalf("%d JSONL documents, %d new in the rounds", len(lines), total)
	}
	// The documents of round 2 in French, selected from the store.
	var sel bytes.Buffer
	if code := run(context.Background(), []string{"monitor", "docs", "--db", filepath.Join(dir, "m.db"), "--round", "2", "--lang", "fr"}, &sel, &stderr); code != 0 {
		t.Fatalf("monitor docs: exit %d: %s", code, stderr.String())
	}
	n := 0
	for sc := bufio.NewScanner(&sel); sc.Scan(); n++ {
		var d struct {
			Round int
			Lang  string
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil || d.Round != 2 || d.Lang != "fr" {
			t.Errorf("monitor docs --round 2 --lang fr: %.200s (%v)", sc.Text(), err)
		}
	}
	if n == 0 {
		t.Error("monitor docs --round 2 --lang fr: no document")
	}
	withText, templated := 0, 0
	for _, l := range lines {
		var doc map[string]any
		if err := json.Unmarshal([]byte(l), &doc); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"url", "site", "title", "lang", "published", "first_seen", "round", "kind", "method"} {
			if doc[k] == "" || doc[k] == nil {
				t.Errorf("document without %s: %.300s", k, l)
			}
		}
		for _, k := range []string{"confidence", "relevance", "template"} {
			if _, ok := doc[k].(float64); !ok || doc["kind"] != "article" {
				t.Errorf("document without %s, or of kind %v: %.300s", k, doc["kind"], l)
			}
		}
		if doc["run"] != nil {
			templated++
		}
		if doc["text"] != "" {
			withText++
		}
	}
	// Plain HTTP: the two sites whose body a script loads give no text.
	if withText < len(lines)/3 || templated == 0 {
		t.Errorf("%d of %d documents with text, %d extracted against their template", withText, len(lines), templated)
	}
}

func TestMonitorUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"monitor", "-h"}, 0},
		{[]string{"monitor"}, 2},
		{[]string{"monitor", "--fixtures", "http://example.com/"}, 2},
		{[]string{"monitor", "--rounds", "-1", "http://example.com/"}, 2},
		{[]string{"monitor", "--db", filepath.Join(t.TempDir(), "x.db"), "ftp://example.com/"}, 1},
		{[]string{"monitor", "docs", "-h"}, 0},
		{[]string{"monitor", "docs", "--since", "yesterday"}, 2},
		{[]string{"monitor", "docs", "--kind", "teaser"}, 2},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tc.args, &stdout, &stderr); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, stderr.String())
		}
	}
}

// TestMonitorSeedNote: a sitemap given as the site that lists nothing
// says so in the round's summary.
func TestMonitorSeedNote(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/sitemap.xml" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprint(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	var stdout, stderr bytes.Buffer
	args := []string{"monitor", "--db", filepath.Join(t.TempDir(), "m.db"), "--rounds", "1", "--allow-hosts", u.Host, srv.URL + "/sitemap.xml"}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "note: site " + srv.URL + "/sitemap.xml: the sitemap lists no URL"; !strings.Contains(stdout.String(), want) {
		t.Errorf("output %q, want %q", stdout.String(), want)
	}
}
