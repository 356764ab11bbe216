package siteextract

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibrariesDoNotImportStore checks the layering rule: the algorithm
// packages and browser are usable as libraries without the store (nor cgo
// SQLite); only the assembling packages (siteextract, sitelearn, capture,
// and their callers) import it.
func TestLibrariesDoNotImportStore(t *testing.T) {
	const mod = "github.com/gleaner/gleaner/"
	libs := []string{"treediff", "cluster", "heuristics", "browser"}
	args := []string{"list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}"}
	for _, l := range libs {
		args = append(args, mod+l)
	}
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(libs) {
		t.Fatalf("go list gave %d packages, want %d:\n%s", len(lines), len(libs), out)
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		for _, dep := range fields[1:] {
			if dep == mod+"store" {
				t.Errorf("%s imports %s (directly or not): it must stay free of the store", fields[0], dep)
			}
		}
	}
}
