package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/monitor"
	"github.com/gleaner/gleaner/store"
)

// TestMonitorRecord runs "gleaner monitor" on the fixture newsroom, plain
// and rendered, recording by default: every page the monitor stores
// (articles and hubs) has its exchanges, the document's first, and
// rendered pages their subresources; a round's WACZ and the whole
// monitor's then hold response records, not the DOM as a resource.
func TestMonitorRecord(t *testing.T) {
	inPlainAndRendered(t, func(t *testing.T, name string, modeArgs []string) {
		db := filepath.Join(t.TempDir(), "m.db")
		args := append([]string{"monitor", "--fixtures", "--rounds", "2", "--articles", "3", "--per-round", "1", "--db", db}, modeArgs...)
		if code, _, stderr := exportCmd(args...); code != 0 {
			t.Fatalf("monitor: exit %d: %s", code, stderr)
		}
		pages, subresources := checkMonitorExchanges(t, db)
		if pages == 0 || (len(modeArgs) > 0) != (subresources > 0) {
			t.Errorf("%d pages stored, %d subresources recorded", pages, subresources)
		}
		for _, scope := range [][]string{{"--round", "2"}, nil} {
			out := filepath.Join(t.TempDir(), "wacz")
			args := append([]string{"export", "--db", db, "--monitor", "default", "--format", "wacz", "--out", out}, scope...)
			if code, stdout, stderr := exportCmd(args...); code != 0 || strings.Contains(stdout, "not recorded") {
				t.Fatalf("export %v: exit %d: %s %s", scope, code, stdout, stderr)
			}
			types := waczRecordTypes(t, filepath.Join(out, "corpus.wacz"))
			t.Logf("%s: %d pages stored with their exchanges, %d subresources; WACZ %v records %v", name, pages, subresources, scope, types)
			if types["response"] == 0 || types["resource"] != 0 || types["request"] < types["response"] {
				t.Errorf("WACZ %v records: %v", scope, types)
			}
		}
	})
}

// inPlainAndRendered runs test as two subtests, the monitor plain and
// rendered (modeArgs), the rendered one skipped where there is no Chromium.
func inPlainAndRendered(t *testing.T, test func(t *testing.T, name string, modeArgs []string)) {
	for _, tc := range []struct {
		name string
		args []string
	}{{"plain", nil}, {"rendered", []string{"--render"}}} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.args) > 0 {
				if _, err := browser.FindChromium(); err != nil {
					t.Skip(err)
				}
			}
			test(t, tc.name, tc.args)
		})
	}
}

// checkMonitorExchanges checks that every page of the default monitor has
// exchanges, its document's first, and counts the pages and the exchanges
// of other URLs (subresources).
func checkMonitorExchanges(t *testing.T, path string) (pages, subresources int) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, ds := range []string{monitor.Dataset("default"), monitor.HubDataset("default")} {
		ps, err := st.Pages(ctx, store.PageQuery{Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			xs, err := st.Exchanges(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(xs) == 0 || xs[0].URL != p.URL || !strings.HasPrefix(string(xs[0].Response), "HTTP/1.1 200 ") {
				t.Errorf("%s: %d exchanges, the first not the document's", p.URL, len(xs))
				continue
			}
			pages++
			subresources += len(xs) - 1
		}
	}
	return pages, subresources
}

// checkStoredArchived checks that every page the monitor stored with
// exchanges, articles and hubs, is among the archived responses got, and
// that hubs were stored.
func checkStoredArchived(t *testing.T, path string, got map[string]bool) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, ds := range []string{monitor.Dataset("default"), monitor.HubDataset("default")} {
		ps, err := st.Pages(ctx, store.PageQuery{Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 0 {
			t.Errorf("no page stored in %s", ds)
		}
		for _, p := range ps {
			if !got[p.URL] {
				t.Errorf("%s (%s): stored, not archived", p.URL, ds)
			}
		}
	}
}

// waczRecordTypes reads the WARC files of a WACZ (checking their
// digests) and counts their records by type.
func waczRecordTypes(t *testing.T, path string) map[string]int {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	types := map[string]int{}
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "archive/") {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		recs, err := export.ReadWARC(rc, 0)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", zf.Name, err)
		}
		for _, r := range recs {
			types[r.Type()]++
		}
	}
	return types
}

// TestMonitorWARC runs "gleaner monitor --record --warc DIR": the rounds'
// articles are written to WARC files as they are stored, complete once
// the command ends (no partial file), every one read back with its
// digests and by warcio.
func TestMonitorWARC(t *testing.T) {
	dir, db := t.TempDir(), filepath.Join(t.TempDir(), "m.db")
	if code, _, stderr := exportCmd("monitor", "--fixtures", "--rounds", "2", "--articles", "3", "--per-round", "1", "--record",
		"--warc", dir, "--warc-size", "30000", "--db", db); code != 0 {
		t.Fatalf("monitor: exit %d: %s", code, stderr)
	}
	if p := warcFiles(t, dir, ".open"); len(p) != 0 {
		t.Errorf("partial files left: %v", p)
	}
	files := warcFiles(t, dir, ".warc.gz")
	got := checkWARCFiles(t, files)
	t.Logf("%d WARC files, %d responses", len(files), len(got))
	if len(files) < 2 || len(got) == 0 {
		t.Errorf("%d files, %d responses", len(files), len(got))
	}
	checkStoredArchived(t, db, got)
	// The files packaged as they are: one WACZ that replay tools open.
	pkg := filepath.Join(t.TempDir(), "monitor.wacz")
	if code, stdout, stderr := exportCmd(append([]string{"export", "pack", "--out", pkg}, files...)...); code != 0 || !strings.Contains(stdout, "packed") {
		t.Fatalf("export pack: exit %d: %s %s", code, stdout, stderr)
	}
	if types := waczRecordTypes(t, pkg); types["response"]+types["revisit"] != len(got) || types["warcinfo"] != len(files) {
		t.Errorf("packed records %v, %d responses in the files", types, len(got))
	}
	for _, args := range [][]string{{"--out", pkg}, {"--out", "x.zip", files[0]}, {files[0]}} {
		if code, _, _ := exportCmd(append([]string{"export", "pack"}, args...)...); code != 2 {
			t.Errorf("export pack %v: exit %d, want 2", args, code)
		}
	}
	if code, _, stderr := exportCmd("export", "pack", "--out", pkg, filepath.Join(dir, "missing.warc.gz")); code != 1 || !strings.Contains(stderr, "missing.warc.gz") {
		t.Errorf("export pack of a missing file: exit %d: %s", code, stderr)
	}
	if code, _, _ := exportCmd("monitor", "--fixtures", "--rounds", "1", "--record=false", "--warc", dir, "--db", db); code != 2 {
		t.Errorf("--warc with --record=false: exit %d, want 2", code)
	}
}

// TestMonitorRecordUpdates runs "gleaner monitor --record --updates
// --warc DIR", plain and rendered: a page a recheck found changed is
// fetched again through the monitor's fetcher and stored as a capture of
// its own (a page with a later Version: HTML and exchanges of that
// fetch, rendered with its subresources under --render), and every
// capture is archived, by --warc and by export --monitor. Before, the
// changed page was stored again under its first ID with the conditional
// GET's raw HTML and no exchanges of its own, and never archived again.
func TestMonitorRecordUpdates(t *testing.T) {
	inPlainAndRendered(t, func(t *testing.T, name string, modeArgs []string) {
		dir, db := t.TempDir(), filepath.Join(t.TempDir(), "m.db")
		args := append([]string{"monitor", "--fixtures", "--rounds", "3", "--articles", "6", "--per-round", "2", "--record", "--updates",
			"--warc", dir, "--db", db}, modeArgs...)
		if code, _, stderr := exportCmd(args...); code != 0 {
			t.Fatalf("monitor: exit %d: %s", code, stderr)
		}
		captures := checkVersions(t, db, len(modeArgs) > 0)
		archived := archivedCaptures(t, warcFiles(t, dir, ".warc.gz"))
		for u, n := range captures {
			if archived[u] < n {
				t.Errorf("%s: %d captures stored, %d archived by --warc", u, n, archived[u])
			}
		}
		out := t.TempDir()
		if code, _, stderr := exportCmd("export", "--db", db, "--monitor", "default", "--format", "warc", "--out", out); code != 0 {
			t.Fatalf("export: exit %d: %s", code, stderr)
		}
		exported := archivedCaptures(t, []string{filepath.Join(out, "corpus.warc.gz")})
		for u, n := range captures {
			if exported[u] < n {
				t.Errorf("%s: %d captures stored, %d exported", u, n, exported[u])
			}
		}
	})
}

// checkVersions checks the later captures of the default monitor's
// articles and returns the captures by URL of the URLs that have some.
func checkVersions(t *testing.T, path string, rendered bool) map[string]int {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ps, err := st.Pages(ctx, store.PageQuery{Dataset: monitor.Dataset("default"), WithContent: true})
	if err != nil {
		t.Fatal(err)
	}
	byURL, later := map[string]int{}, 0
	for _, p := range ps { // in ID order: a URL's first capture first
		byURL[p.URL]++
		if byURL[p.URL] > 1 {
			later++
			checkLaterCapture(t, st, p, byURL[p.URL], rendered)
		}
	}
	if later == 0 {
		t.Fatal("no page stored again after a recheck: the test tests nothing")
	}
	for u, n := range byURL {
		if n < 2 {
			delete(byURL, u)
		}
	}
	t.Logf("%d pages, %d later captures of %d URLs", len(ps), later, len(byURL))
	return byURL
}

// checkLaterCapture checks capture n of a URL: its own exchanges, the
// document's first; rendered with its subresources, or its HTML the
// payload as served.
func checkLaterCapture(t *testing.T, st *store.DB, p *store.Page, n int, rendered bool) {
	t.Helper()
	xs, err := st.Exchanges(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case len(xs) == 0 || xs[0].URL != p.URL:
		t.Errorf("%s (capture %d): %d exchanges, the first not the document's", p.URL, n, len(xs))
	case rendered && (len(p.RenderedHTML) == 0 || len(xs) < 2):
		t.Errorf("%s (capture %d): not rendered with its subresources (%d exchanges)", p.URL, n, len(xs))
	case !rendered && utf8.Valid(decoded(t, xs[0])) && !bytes.Equal(p.RawHTML, decoded(t, xs[0])):
		// (A page in another charset is stored decoded.)
		t.Errorf("%s (capture %d): the page's HTML is not its exchange's payload", p.URL, n)
	}
}

// archivedCaptures counts the response and revisit records of each URL in
// WARC files.
func archivedCaptures(t *testing.T, files []string) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := export.ReadWARC(bytes.NewReader(b), 0)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, r := range recs {
			if r.Type() == "response" || r.Type() == "revisit" {
				n[r.TargetURI()]++
			}
		}
	}
	return n
}

// decoded is an exchange's payload as served, gunzipped when it was
// served gzip.
func decoded(t *testing.T, x store.Exchange) []byte {
	t.Helper()
	if !bytes.Contains(bytes.ToLower(x.Response), []byte("\r\ncontent-encoding: gzip\r\n")) {
		return x.Payload
	}
	zr, err := gzip.NewReader(bytes.NewReader(x.Payload))
	if err != nil {
		t.Fatalf("%s: %v", x.URL, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", x.URL, err)
	}
	return b
}
