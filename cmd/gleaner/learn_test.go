package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// learnDB imports the cluster package's synthetic sites into a fresh
// database: ab.test (two templates and an unparseable page), one.test (one
// page) and same.test (identical pages).
func learnDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "g.db")
	if code, _, errs := runGleaner("import", "--db", db, "--dir", filepath.Join("..", "..", "cluster", "testdata", "sites")); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	return db
}

func TestLearnCommandJSON(t *testing.T) {
	db := learnDB(t)
	code, out, errs := runGleaner("learn", "--db", db, "--json", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// Exactly the documented shape: no other keys anywhere.
	var raw struct {
		Sites []map[string]json.RawMessage `json:"sites"`
		Cost  map[string]json.RawMessage   `json:"cost"`
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil || len(top) != 2 || json.Unmarshal([]byte(out), &raw) != nil || raw.Sites == nil || raw.Cost == nil {
		t.Fatalf("output is not {\"sites\":[…],\"cost\":{…}}: %v\n%s", err, out)
	}
	for _, s := range raw.Sites {
		var keys []string
		for k := range s {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if want := []string{"clusters", "cost", "k", "mode", "outliers", "silhouette", "site"}; !reflect.DeepEqual(keys, want) {
			t.Errorf("site keys %v, want %v", keys, want)
		}
	}
	var got learnJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	bySite := map[string]learnSiteJSON{}
	for _, s := range got.Sites {
		bySite[s.Site] = s
	}
	ab := bySite["ab.test"]
	if ab.K != 2 || len(ab.Clusters) != 2 || len(ab.Silhouette) == 0 || ab.Silhouette["2"] < 0.5 {
		t.Fatalf("ab.test: %+v", ab)
	}
	for _, c := range ab.Clusters {
		tmpl := c.Members[0][len("http://ab.test/"):][:3] // "new" or "old": the template
		if len(c.Members) != 6 || !strings.Contains(c.Medoid, tmpl) {
			t.Errorf("ab.test cluster %d: medoid %s members %v", c.ID, c.Medoid, c.Members)
		}
		for _, m := range c.Members {
			if !strings.Contains(m, tmpl) {
				t.Errorf("ab.test cluster %d mixes templates: %v", c.ID, c.Members)
			}
		}
	}
	if len(ab.Outliers) != 1 || ab.Outliers[0].Page != "http://ab.test/empty" || !strings.Contains(ab.Outliers[0].Reason, "empty document") {
		t.Errorf("ab.test outliers %+v", ab.Outliers)
	}
	one := bySite["one.test"]
	if one.K != 1 || len(one.Outliers) != 1 || !strings.Contains(one.Outliers[0].Reason, "only page") {
		t.Errorf("one.test: %+v", one)
	}
	// The cost report: the pages parsed, the distances computed (none for a
	// site of one page: it is not compared), CPU and peak memory.
	if c := ab.Cost; c.Pages != 13 || c.Fast != 12*11/2 || c.Exact != 0 || c.CPUSeconds <= 0 || c.PeakRSSMB <= 0 {
		t.Errorf("ab.test cost %+v, want 13 pages, 66 fast distances", c)
	}
	if c := one.Cost; c.Pages != 1 || c.Fast != 0 || c.Exact != 0 {
		t.Errorf("one.test cost %+v, want 1 page and no distance", c)
	}
	if got.Cost.Pages < 13 || got.Cost.Fast < 66 || got.Cost.PeakRSSMB <= 0 {
		t.Errorf("total cost %+v", got.Cost)
	}
	same := bySite["same.test"]
	if same.K != 1 || len(same.Clusters) != 1 || len(same.Clusters[0].Members) != 3 || len(same.Outliers) != 0 || len(same.Silhouette) != 0 {
		t.Errorf("same.test: %+v", same)
	}

	// Same pages, same seed, from scratch: the same clusters.
	code, again, errs := runGleaner("learn", "--db", db, "--json", "--seed", "3", "--relearn")
	if code != 0 || withoutCost(t, again) != withoutCost(t, out) {
		t.Errorf("relearning with the same seed changed the output (exit %d, %s):\n%s\nvs\n%s", code, errs, out, again)
	}
}

// withoutCost is the learn --json output with its costs zeroed: they vary
// from run to run.
func withoutCost(t *testing.T, out string) string {
	t.Helper()
	var j learnJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	j.Cost = learnCostJSON{}
	for i := range j.Sites {
		j.Sites[i].Cost = learnCostJSON{}
	}
	b, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLearnCommandText(t *testing.T) {
	db := learnDB(t)
	code, out, errs := runGleaner("learn", "--db", db, "--site", "ab.test", "--medoid", "true")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"site ab.test: 13 pages, k = 2", "cost: 13 pages, 66 fast distances, 0 exact TEDs", "silhouette: k=2 ", "cluster 0: 6 pages, medoid ", "cluster 1: 6 pages", "outlier http://ab.test/empty: unusable: parse:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "one.test") {
		t.Errorf("--site ab.test printed another site:\n%s", out)
	}
	code, out, _ = runGleaner("learn", "--db", db, "--site", "ab.test", "--medoid", "true")
	if code != 0 || !strings.Contains(out, "unchanged") {
		t.Errorf("second run without new pages: exit %d, output:\n%s", code, out)
	}
}

func TestLearnCommandErrors(t *testing.T) {
	db := learnDB(t)
	empty := filepath.Join(t.TempDir(), "empty.db")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"learn", "--db", db, "--medoid", "middle"}, 2, `unknown medoid rule "middle"`},
		{[]string{"learn", "--db", db, "--max-k", "1"}, 2, "--max-k 1"},
		{[]string{"learn", "--db", db, "extra"}, 2, "unexpected arguments"},
		{[]string{"learn", "--db", db, "--site", "absent.test"}, 1, "absent.test: no pages"},
		{[]string{"learn", "--db", empty}, 1, "no pages in"},
	} {
		code, _, errs := runGleaner(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}
