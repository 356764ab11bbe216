package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/store"
)

func storyFile(n string) string {
	return filepath.Join("..", "..", "heuristics", "testdata", "pair", "story-"+n+".html")
}

func TestExtractCommandFile(t *testing.T) {
	code, out, errs := runGleaner("extract", storyFile("2"), "--medoid", storyFile("1"), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got extractPageJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Method != "pair-diff" || got.Selector != "div#page > div.story > div.story-body" ||
		got.Title != "Council delays the river vote" || got.Date != "2024-03-02T10:00:00Z" || got.Author != "Ann Writer" {
		t.Errorf("extraction %+v", got)
	}
	if strings.Contains(got.Body, "reader") || strings.Contains(got.Body, "Advertisement") || len(strings.Fields(got.Body)) < 100 {
		t.Errorf("body %q", got.Body)
	}
	// Without a medoid the page is extracted alone; text output.
	code, out, errs = runGleaner("extract", storyFile("2"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "method: single-page\n") || !strings.Contains(out, "title: Council delays the river vote\n") {
		t.Errorf("output %q", out)
	}
}

func TestExtractCommandUsage(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"extract", storyFile("1"), storyFile("2")}, 2, "one page"},
		{[]string{"extract", "--plain"}, 2, "one page"},
		{[]string{"extract", storyFile("1"), "--plain"}, 2, "--plain applies to a URL"},
		{[]string{"extract", "http://127.0.0.1:1/x", "--url", "http://a.test/"}, 2, "--url"},
		{[]string{"extract", "--medoid", storyFile("1")}, 2, "--medoid needs a FILE"},
		{[]string{"extract", storyFile("1"), "--site", "x"}, 2, "--site"},
		{[]string{"extract", "--min-confidence", "2", storyFile("1")}, 2, "--min-confidence"},
		{[]string{"extract", "--bogus"}, 2, "bogus"},
		{[]string{"extract", filepath.Join(t.TempDir(), "absent.html")}, 1, "absent.html"},
		{[]string{"extract", storyFile("1"), "--medoid", filepath.Join(t.TempDir(), "m.html")}, 1, "m.html"},
	}
	for _, c := range cases {
		code, _, errs := runGleaner(c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
}

func TestExtractCommandStore(t *testing.T) {
	db := learnDB(t)
	// Before any learning run: single-page extraction, said on stderr.
	code, out, errs := runGleaner("extract", "--db", db, "--site", "ab.test")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "no learning run") || !strings.Contains(out, "site ab.test: run 0") {
		t.Errorf("stdout %q stderr %q", out, errs)
	}
	if code, _, errs := runGleaner("learn", "--db", db, "--seed", "3"); code != 0 {
		t.Fatalf("learn: exit %d: %s", code, errs)
	}
	// The synthetic pages repeat a small vocabulary, so that many words match
	// by chance: the pair diff is sure of itself only under a lower bar.
	code, out, errs = runGleaner("extract", "--db", db, "--json", "--min-confidence", "0.2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Sites []extractSiteJSON `json:"sites"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	bySite := map[string]extractSiteJSON{}
	for _, s := range got.Sites {
		bySite[s.Site] = s
	}
	ab := bySite["ab.test"]
	if ab.Run == 0 || len(ab.Pages) != 13 {
		t.Fatalf("ab.test: run %d, %d pages", ab.Run, len(ab.Pages))
	}
	methods := map[string]int{}
	for _, p := range ab.Pages {
		if p.Page == "http://ab.test/empty" {
			if p.Error == "" {
				t.Errorf("unparseable page without error: %+v", p)
			}
			continue
		}
		if p.Error != "" || p.Body == "" || p.Title == "" {
			t.Errorf("page %+v", p)
		}
		methods[p.Method]++
	}
	if methods["pair-diff"]+methods["cluster-rule"] < 6 {
		t.Errorf("methods %v: templates unused", methods)
	}
	if one := bySite["one.test"]; len(one.Pages) != 1 || one.Pages[0].Method != "single-page" {
		t.Errorf("one.test: %+v", one)
	}
	// What was printed was stored: extractions and rules of the run.
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	xs, err := st.Extractions(context.Background(), store.ExtractionQuery{Site: "ab.test", RunID: ab.Run})
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 12 {
		t.Errorf("%d extractions stored for ab.test, want 12", len(xs))
	}
	rules, err := st.Rules(context.Background(), ab.Run)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != len(ab.Rules) || len(rules) == 0 {
		t.Fatalf("stored rules %+v, printed %+v", rules, ab.Rules)
	}
	for _, r := range rules {
		if r.Field == "body" && !strings.Contains(r.Selector, "article") && !strings.Contains(r.Selector, "td") {
			t.Errorf("body rule %+v", r)
		}
	}
	// Extracting again replaces, and gives the same output.
	code, out2, _ := runGleaner("extract", "--db", db, "--json", "--min-confidence", "0.2")
	if code != 0 || out2 != out {
		t.Errorf("second run differs (exit %d)", code)
	}
	// With the stored rules, the template pages are extracted by them
	// alone, with the same bodies.
	code, out3, errs := runGleaner("extract", "--db", db, "--site", "ab.test", "--json", "--rules-first", "--min-confidence", "0.2")
	if code != 0 {
		t.Fatalf("rules first: exit %d: %s", code, errs)
	}
	var fast struct {
		Sites []extractSiteJSON `json:"sites"`
	}
	if err := json.Unmarshal([]byte(out3), &fast); err != nil || len(fast.Sites) != 1 {
		t.Fatalf("%v\n%s", err, out3)
	}
	byPage := map[string]extractPageJSON{}
	for _, p := range ab.Pages {
		byPage[p.Page] = p
	}
	rulePages := 0
	for _, p := range fast.Sites[0].Pages {
		if p.Method != "cluster-rule" {
			continue
		}
		rulePages++
		if p.Selector != byPage[p.Page].Selector {
			t.Errorf("%s: rule selected %s, pair diff %s", p.Page, p.Selector, byPage[p.Page].Selector)
		}
	}
	if rulePages < 6 {
		t.Errorf("only %d pages extracted by stored rules:\n%s", rulePages, out3)
	}
}
