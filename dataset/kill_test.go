package dataset_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/store"
)

// TestKilledImport kills an import process at several moments: the database
// must then hold either no page of the collection or all of them, and open
// cleanly.
func TestKilledImport(t *testing.T) {
	if os.Getenv("DATASET_IMPORT_CHILD") != "" {
		t.Skip("child process")
	}
	dir := t.TempDir()
	const pages = 200
	var list strings.Builder
	body := strings.Repeat("<div class=\"story\"><p>Words of a story, repeated to weigh.</p></div>\n", 2500)
	for i := range pages {
		name := fmt.Sprintf("p%03d.html", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("<!-- %d -->%s", i, body)), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&list, "%s\thttp://kill.example/%d\n", name, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "urls.tsv"), []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(kill time.Duration) (string, time.Duration) {
		db := filepath.Join(t.TempDir(), "k.db")
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledImportChild$")
		cmd.Env = append(os.Environ(), "DATASET_IMPORT_CHILD="+dir, "DATASET_IMPORT_DB="+db)
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if kill > 0 {
			time.Sleep(kill)
			cmd.Process.Kill()
			cmd.Wait()
		} else if err := cmd.Wait(); err != nil {
			t.Fatalf("import child: %v", err)
		}
		return db, time.Since(start)
	}
	// A full run measures how long an import takes; the kills fall inside it.
	_, full := run(0)
	for i, frac := range []float64{0, 0.2, 0.5, 0.8, 0.95, 1.2} {
		var db string
		after := time.Duration(frac * float64(full))
		if i == 0 {
			db, _ = run(0)
		} else {
			db, _ = run(after)
		}
		st, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatalf("killed after %v: reopen: %v", after, err)
		}
		var ok string
		if err := st.SQL().QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
			t.Errorf("killed after %v: integrity %q %v", after, ok, err)
		}
		ps, err := st.Pages(context.Background(), store.PageQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && len(ps) != pages {
			t.Fatalf("uninterrupted import: %d pages, want %d", len(ps), pages)
		}
		if len(ps) != 0 && len(ps) != pages {
			t.Errorf("killed after %v: %d pages stored, want 0 or %d", after, len(ps), pages)
		}
		t.Logf("killed after %v: %d pages stored", after, len(ps))
		st.Close()
	}
}

// TestKilledImportChild is the process TestKilledImport kills.
func TestKilledImportChild(t *testing.T) {
	dir := os.Getenv("DATASET_IMPORT_CHILD")
	if dir == "" {
		t.Skip("run by TestKilledImport")
	}
	st, err := store.Open(context.Background(), os.Getenv("DATASET_IMPORT_DB"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := dataset.ReadDir(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(context.Background(), st, m, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
}
