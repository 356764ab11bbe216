package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
)

// lockedBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestFixturesManifestCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fx")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"fixtures", "manifest", "--out", dir, "--articles", "20", "--per-site", "3", "--seed", "5"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "manifest: 12 article pages") || !strings.Contains(out.String(), "--seed 5 --articles 20 --addr 127.0.0.1:8700") {
		t.Errorf("output %q", out.String())
	}
	tsv, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(tsv)), "\n")
	if len(lines) != 13 || !strings.HasPrefix(lines[0], "id\tera\tsite\turl\thtml_path\tgold_path") {
		t.Fatalf("manifest has %d lines, header %q", len(lines), lines[0])
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if !strings.HasPrefix(f[3], "http://127.0.0.1:870") {
			t.Errorf("url %q", f[3])
		}
		for _, p := range f[4:6] {
			if st, err := os.Stat(filepath.Join(dir, p)); err != nil || st.Size() == 0 {
				t.Errorf("%s: %v", p, err)
			}
		}
	}
}

func TestFixturesServeCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"fixtures", "serve", "--articles", "10", "--log", "--slow", "0", "--crawl-delay", "0"}, &out, &errb)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "serving seed 1") {
		if time.Now().After(deadline) {
			t.Fatalf("no serving line: %q %q", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var bases []string
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 1 && strings.HasPrefix(f[1], "http://127.0.0.1:") {
			bases = append(bases, f[1])
		}
	}
	if len(bases) != 4 {
		t.Fatalf("site URLs %v in %q", bases, out.String())
	}
	for _, b := range bases {
		resp, err := http.Get(b + "robots.txt")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "User-agent: *") || strings.Contains(string(body), "Crawl-delay") {
			t.Errorf("%srobots.txt: %d %q", b, resp.StatusCode, body)
		}
	}
	if n := strings.Count(out.String(), " 200 "); n != 4 || !strings.Contains(out.String(), "/robots.txt") {
		t.Errorf("access log: %q", out.String())
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exit %d: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve does not stop when interrupted")
	}
	if _, err := http.Get(bases[0]); err == nil {
		t.Error("sites still served after the command returned")
	}
}

func TestFixturesCommandErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"fixtures"}, 2, "subcommand is required"},
		{[]string{"fixtures", "bogus"}, 2, "unknown subcommand"},
		{[]string{"fixtures", "manifest"}, 2, "--out DIR is required"},
		{[]string{"fixtures", "manifest", "--out", dir, "--addr", "127.0.0.1:0"}, 2, "fixed port"},
		{[]string{"fixtures", "serve", "--nope"}, 2, "flag provided but not defined"},
		{[]string{"fixtures", "serve", "--addr", "127.0.0.1:99999"}, 1, "bad port"},
		{[]string{"fixtures", "replay"}, 2, "--manifest M.tsv is required"},
		{[]string{"fixtures", "replay", "--manifest", filepath.Join(dir, "none.tsv")}, 1, "none.tsv"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}

func TestFixturesManifestRendered(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Skipf("no Chromium: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "fx")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"fixtures", "manifest", "--out", dir, "--articles", "12", "--per-site", "1",
		"--rendered", "--addr", "127.0.0.1:0", "--timeout", "20s"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "manifest: 4 rendered article pages") {
		t.Errorf("output %q", out.String())
	}
	// The script-built pages of herald and pulse hold their gold once rendered.
	for _, id := range []string{"herald-000", "pulse-000"} {
		html, _ := os.ReadFile(filepath.Join(dir, "html", id+".html"))
		gold, _ := os.ReadFile(filepath.Join(dir, "gold", id+".txt"))
		last := strings.TrimSpace(string(gold))
		last = last[strings.LastIndex(last, "\n")+1:]
		if !strings.Contains(string(html), last[:40]) {
			t.Errorf("%s: rendered html lacks the end of its gold %.40q", id, last)
		}
	}
}

// TestFixturesReplayCommand replays a small dataset two rounds, a round
// every 50 ms: the second round's pages are served, listed in the feed,
// and the command stops when interrupted.
func TestFixturesReplayCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int, 1)
	manifest := filepath.Join("..", "..", "fixtures", "replay", "testdata", "manifest.tsv")
	go func() {
		done <- run(ctx, []string{"fixtures", "replay", "--manifest", manifest, "--per-round", "1", "--every", "50ms", "--rounds", "2"}, &out, &errb)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "every round published") {
		if time.Now().After(deadline) {
			t.Fatalf("no end of rounds: %q %q", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var bases []string
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(f[1], "http://127.0.0.1:") {
			bases = append(bases, strings.TrimSuffix(f[1], "/"))
		}
	}
	if len(bases) != 2 || !strings.Contains(out.String(), "round 2: 2 pages published (4 in all)") {
		t.Fatalf("output %q", out.String())
	}
	for path, want := range map[string]int{"/news/2020/01/two.html?id=2": 200, "/news/2020/01/three.html": 404} {
		resp, err := http.Get(bases[0] + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: HTTP %d, want %d", path, resp.StatusCode, want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("replay exit %d: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("replay does not stop when interrupted")
	}
}
