package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/store"
)

// runGleaner runs gleaner with args and returns its exit code and output.
func runGleaner(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestImportCommandBig9(t *testing.T) {
	manifest := filepath.Join(shareddata.Dir(t, "big9-dev"), "manifest.tsv")
	db := filepath.Join(t.TempDir(), "g.db")
	for range 2 {
		code, out, errs := runGleaner("import", "--manifest", manifest, "--db", db)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(out, "imported 180 pages (180 with gold)") || !strings.Contains(out, "9 sites") {
			t.Errorf("output %q", out)
		}
	}
	code, out, errs := runGleaner("import", "--manifest", manifest, "--db", db, "--site-from", "manifest")
	if code != 0 || !strings.Contains(out, "forbes, foxnews") {
		t.Fatalf("--site-from manifest: exit %d: %s %s", code, out, errs)
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ps, err := st.Pages(context.Background(), store.PageQuery{})
	if err != nil || len(ps) != 180 {
		t.Errorf("%d pages (%v) after three imports, want 180", len(ps), err)
	}
}

func TestImportCommandErrors(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(tmp, "g.db")
	short := filepath.Join(tmp, "short.tsv")
	os.WriteFile(short, []byte("id\turl\thtml_path\nx\thttp://a.example/\n"), 0o644)
	missing := filepath.Join(tmp, "missing.tsv")
	os.WriteFile(missing, []byte("id\turl\thtml_path\nx\thttp://a.example/\tnope.html\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no source", []string{"import", "--db", db}, 2, "give --manifest M.tsv or --dir D"},
		{"both sources", []string{"import", "--manifest", short, "--dir", tmp, "--db", db}, 2, "not both"},
		{"bad site mode", []string{"import", "--manifest", short, "--site-from", "tld", "--db", db}, 2, `unknown site mode "tld"`},
		{"urls without dir", []string{"import", "--manifest", short, "--urls", "u.tsv", "--db", db}, 2, "go with --dir"},
		{"stray argument", []string{"import", "--manifest", short, "extra", "--db", db}, 2, "unexpected arguments"},
		{"absent manifest", []string{"import", "--manifest", filepath.Join(tmp, "absent.tsv"), "--db", db}, 1, "absent.tsv: no such file"},
		{"short line", []string{"import", "--manifest", short, "--db", db}, 1, "short.tsv:2: 2 fields, the header has 3"},
		{"missing HTML", []string{"import", "--manifest", missing, "--db", db}, 1, "nope.html: no such file"},
		{"dir without URLs", []string{"import", "--dir", tmp, "--db", db}, 1, "no URLs"},
	} {
		code, _, errs := runGleaner(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tc.name, code, errs, tc.code, tc.want)
		}
	}
}

func TestImportCommandDir(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "site", "a"), 0o755)
	os.WriteFile(filepath.Join(dir, "site", "a", "1.html"), []byte("<p>one</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, "site", "2.htm"), []byte("<p>two</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, "site", "notes.txt"), []byte("not a page"), 0o644)
	db := filepath.Join(dir, "g.db")
	code, out, errs := runGleaner("import", "--dir", filepath.Join(dir, "site"), "--base-url", "http://www.example.net/", "--db", db)
	if code != 0 || !strings.Contains(out, `imported 2 pages (0 with gold) of dataset "site"`) || !strings.Contains(out, "example.net") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	list := filepath.Join(dir, "urls.tsv")
	os.WriteFile(list, []byte("a/1.html\thttp://x.example.org/one\n"), 0o644)
	code, out, errs = runGleaner("import", "--dir", filepath.Join(dir, "site"), "--urls", list, "--site-from", "host", "--db", db, "--dataset", "other")
	if code != 0 || !strings.Contains(out, "imported 1 pages") || !strings.Contains(out, "x.example.org") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}
