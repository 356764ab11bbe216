package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/monitor"
	"github.com/gleaner/gleaner/store"
)

// TestMonitorKilledWhileLearning: a `gleaner monitor` process is killed
// (SIGKILL) while it learns a site's templates at its round's end; the
// next run of the same monitor redoes the round and loses and doubles no
// article, marks the dead learner's run failed, and finishes the
// learning: every site learned, as many articles extracted against their
// template as a run never killed.
func TestMonitorKilledWhileLearning(t *testing.T) {
	if testing.Short() {
		t.Skip("monitors 4 fixture sites of 60 articles three times")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := fixtures.Start(ctx, fixtures.Options{Seed: 5, Articles: 60, NewsPerRound: 3, Slow: -1, CrawlDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	ref := runMonitorRound(t, monitorArgs(srv, filepath.Join(dir, "ref.db")))
	db := ""
	// A run seen learning may finish between the look and the kill: the
	// kill then lands elsewhere, and the monitor is run again afresh.
	for attempt := 1; db == "" && attempt <= 3; attempt++ {
		db = killedLearning(t, srv, filepath.Join(dir, fmt.Sprintf("m%d.db", attempt)))
	}
	if db == "" {
		t.Fatal("three monitor processes killed, none while it learned")
	}
	redo := runMonitorRound(t, monitorArgs(srv, db))
	if !redo.Resumed || redo.Round != 1 {
		t.Errorf("after the kill: round %d resumed %v, want round 1 redone", redo.Round, redo.Resumed)
	}
	checkAfterKill(t, srv, db, ref, redo)
}

// killedLearning starts a monitor process on store db and kills it
// while it learns; it returns db when the kill left a learning run under
// way, "" when not.
func killedLearning(t *testing.T, srv *fixtures.Server, db string) string {
	t.Helper()
	cmd := gleanerProcess(monitorArgs(srv, db))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !killWhenLearning(t, cmd, db) {
		t.Fatalf("the monitor ended before it was seen learning: %s", out.String())
	}
	st, err := store.OpenReadOnly(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if r := learning(st); r != nil {
		t.Logf("killed while learning %s (run %d)", r.Site, r.ID)
		return db
	}
	t.Logf("the learning run seen had finished when the kill landed")
	return ""
}

// monitorArgs are the arguments of a one-round `gleaner monitor` of the
// fixture sites on store db.
func monitorArgs(srv *fixtures.Server, db string) []string {
	var sites, hosts []string
	for _, s := range srv.Sites {
		u, _ := url.Parse(s.Base)
		sites, hosts = append(sites, s.Base+"/"), append(hosts, u.Host)
	}
	args := []string{"monitor", "--db", db, "--name", "kill", "--delay", "0", "--rounds", "1", "--json", "--allow-hosts", strings.Join(hosts, ",")}
	return append(args, sites...)
}

// gleanerProcess is the gleaner command as a process of its own (see
// TestMain).
func gleanerProcess(args []string) *exec.Cmd {
	b, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GLEANER_MAIN_ARGS="+string(b))
	return cmd
}

// runMonitorRound runs one round in a process of its own and returns its
// report.
func runMonitorRound(t *testing.T, args []string) monitor.Report {
	t.Helper()
	cmd := gleanerProcess(args)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("gleaner %v: %v: %s", args, err, stderr.String())
	}
	var rep monitor.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("report %q: %v", b, err)
	}
	return rep
}

// killWhenLearning watches the store of a monitor process and kills it
// (SIGKILL) as soon as a learning run is under way; it reports whether
// it did before the process ended.
func killWhenLearning(t *testing.T, cmd *exec.Cmd, db string) bool {
	t.Helper()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	var st *store.DB
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		select {
		case <-done:
			return false
		default:
		}
		if st == nil {
			st, _ = store.OpenReadOnly(context.Background(), db)
			continue
		}
		if learning(st) != nil {
			cmd.Process.Kill()
			<-done
			return true
		}
	}
	cmd.Process.Kill()
	<-done
	return false
}

// learning returns a learning run under way in st, nil when none.
func learning(st *store.DB) *store.Run {
	runs, err := st.Runs(context.Background(), "")
	if err != nil {
		return nil
	}
	for _, r := range runs {
		if r.Status == store.RunRunning {
			return r
		}
	}
	return nil
}

// checkAfterKill holds the store after the kill and the redone round to
// what a run never killed stored.
func checkAfterKill(t *testing.T, srv *fixtures.Server, db string, ref, redo monitor.Report) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := monitor.Open(ctx, st, monitor.Config{Name: "kill"})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := m.Documents(ctx, monitor.Selection{Kind: monitor.KindAll})
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	templated := 0
	for _, d := range docs {
		urls = append(urls, d.URL)
		if d.Run > 0 {
			templated++
		}
		if d.PageID == 0 {
			t.Errorf("document %s has no page", d.URL)
		}
	}
	p, r, missed, extra := srv.NewsScore(0, urls)
	t.Logf("after the kill: %d documents, %d templated (never killed: %d new, %d templated); precision %.3f recall %.3f", len(docs), templated, ref.New, ref.Templated, p, r)
	if p != 1 || r != 1 || len(docs) != ref.New {
		t.Errorf("after the kill: precision %.3f recall %.3f (missed %v, extra %v), %d documents; want 1, 1 and %d", p, r, missed, extra, len(docs), ref.New)
	}
	if templated != ref.Templated || redo.Templated != ref.Templated {
		t.Errorf("after the kill: %d documents templated (round report %d), want %d as never killed", templated, redo.Templated, ref.Templated)
	}
	checkRunsAfterKill(t, st)
}

// checkRunsAfterKill: no run left running, the killed one failed as
// interrupted, every site with a finished run.
func checkRunsAfterKill(t *testing.T, st *store.DB) {
	t.Helper()
	runs, err := st.Runs(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	interrupted, done := 0, map[string]bool{}
	for _, r := range runs {
		switch {
		case r.Status == store.RunRunning:
			t.Errorf("run %d of %s left running", r.ID, r.Site)
		case r.Status == store.RunFailed && strings.Contains(r.Message, "interrupted"):
			interrupted++
		case r.Status == store.RunDone:
			done[r.Site] = true
		}
	}
	sites, err := st.Sites(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sites {
		if !done[s.Name] {
			t.Errorf("site %s: no finished learning run", s.Name)
		}
	}
	if interrupted != 1 {
		t.Errorf("%d runs marked interrupted, want the killed one", interrupted)
	}
}
