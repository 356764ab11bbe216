package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/internal/warciotest"
	"github.com/gleaner/gleaner/store"
)

// chainServer serves /a0 … /a(n-1), each an article linking the next two,
// slowly (a crawl of it lasts seconds); served counts the pages sent.
func chainServer(t *testing.T, n int, served *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/a%d", &i); err != nil || i >= n {
			http.NotFound(w, r)
			return
		}
		time.Sleep(20 * time.Millisecond)
		served.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>Wind %d</title></head><body><main><h1>Wind farm report %d</h1>", i, i)
		for p := range 12 {
			fmt.Fprintf(w, "<p>Paragraph %d of report %d: the wind farm near the harbour fed the grid through the storm, the operators said.</p>", p, i)
		}
		fmt.Fprintf(w, "<a href=\"/a%d\">next</a> <a href=\"/a%d\">after</a></main></body></html>", i+1, i+2)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestWARCWrittenAsCrawlRuns kills (SIGKILL) a recording crawl that writes
// WARC files as it runs, once two files are finished: every file named
// .warc.gz is whole (read back, and by warcio, every digest checked), the
// partial file left is not named .warc.gz. The crawl run again
// to its end removes the partial file and goes on: every stored page's
// response is then in a finished file.
func TestWARCWrittenAsCrawlRuns(t *testing.T) {
	var served atomic.Int64
	srv := chainServer(t, 160, &served)
	dir, db := t.TempDir(), filepath.Join(t.TempDir(), "g.db")
	args := []string{"crawl", "--db", db, "--plain", "--record", "--warc", dir, "--warc-size", "20000", "--name", "kill", "--terms", "wind",
		"--quiet", "--learn-at", "-1", "--delay", "1ms", "--max-pages", "1000", "--allow-host", srv.Listener.Addr().String(), srv.URL + "/a0"}
	cmd := gleanerProcess(args)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed while a third file is being written.
	for deadline := time.Now().Add(60 * time.Second); (len(warcFiles(t, dir, ".warc.gz")) < 2 || len(warcFiles(t, dir, ".open")) == 0) &&
		time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	finished, partial := warcFiles(t, dir, ".warc.gz"), warcFiles(t, dir, ".open")
	t.Logf("killed after %d pages served: %d finished files, %d partial", served.Load(), len(finished), len(partial))
	// One partial file, unless the kill fell between a file's close and
	// the next page (the export tests cover the partial file's removal).
	if len(finished) < 2 || len(partial) > 1 || served.Load() >= 160 {
		t.Fatalf("killed mid-crawl? %d finished, %d partial, %d pages served: %s", len(finished), len(partial), served.Load(), cmd.Stdout)
	}
	checkWARCFiles(t, finished)
	if code, _, stderr := exportCmd(args...); code != 0 {
		t.Fatalf("crawl again: exit %d: %s", code, stderr)
	}
	if p := warcFiles(t, dir, ".open"); len(p) != 0 {
		t.Errorf("partial files left after a whole run: %v", p)
	}
	got := checkWARCFiles(t, warcFiles(t, dir, ".warc.gz"))
	checkAllPagesArchived(t, db, got)
}

// warcFiles lists the files of dir whose name ends with suffix; any other
// file fails the test.
func warcFiles(t *testing.T, dir, suffix string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		switch name := e.Name(); {
		case strings.HasSuffix(name, suffix):
			out = append(out, filepath.Join(dir, name))
		case !strings.HasSuffix(name, ".warc.gz") && !strings.HasSuffix(name, ".open"):
			t.Errorf("unexpected file %s", name)
		}
	}
	return out
}

// checkWARCFiles reads each file back and with warcio, and returns the
// target URIs of their response records.
func checkWARCFiles(t *testing.T, files []string) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := export.ReadWARC(f, 0)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
		}
		for _, r := range recs {
			if r.Type() == "response" || r.Type() == "revisit" {
				got[r.TargetURI()] = true
			}
		}
		warcioCheck(t, path)
	}
	return got
}

// warcioCheck has Webrecorder's warcio read a WARC file and check every
// digest (warciotest.Read); ok is false without node or the package.
func warcioCheck(t *testing.T, path string) (s warciotest.Summary, ok bool) {
	t.Helper()
	return warciotest.Read(t, path)
}

// checkAllPagesArchived checks that every page of the crawl stored with
// exchanges has its response in the WARC files.
func checkAllPagesArchived(t *testing.T, db string, archived map[string]bool) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pages, err := st.Pages(ctx, store.PageQuery{Dataset: crawler.Dataset("kill")})
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, p := range pages {
		if xs, _ := st.Exchanges(ctx, p.ID); len(xs) > 0 && !archived[p.URL] {
			missing++
		}
	}
	t.Logf("%d pages stored, %d responses archived, %d missing", len(pages), len(archived), missing)
	if missing > 0 || len(pages) < 100 {
		t.Errorf("%d of %d stored pages not archived", missing, len(pages))
	}
}
