// Package warciotest has Webrecorder's warcio, the real tool from npm
// (export/testdata/npm, installed by scripts/setup.sh), read a WARC file
// for the tests of the packages that write them: every record read, every
// block and payload digest checked (export/testdata/npm/check.mjs).
package warciotest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Summary is what check.mjs prints of a WARC file warcio read.
type Summary struct {
	Records        int            `json:"records"`
	Types          map[string]int `json:"types"`
	BlockDigests   int            `json:"blockDigests"`
	PayloadDigests int            `json:"payloadDigests"`
	// Responses are the response and revisit records: their payload's
	// SHA-256 as warcio read it (hex) and their WARC-Payload-Digest (a
	// revisit's names the payload it did not repeat).
	Responses []struct {
		Type, URL, IP, SHA256, PayloadDigest string
		Status, Bytes                        int
	} `json:"responses"`
	Requests []struct{ URL, Method string } `json:"requests"`
	Errors   []string                       `json:"errors"`
}

// Read has warcio read the WARC file path and check its digests; each
// error warcio reports fails t. ok is false when node or warcio is not
// installed (fatal in CI, where scripts/setup.sh installs them).
func Read(t testing.TB, path string) (s Summary, ok bool) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	npm := filepath.Join(filepath.Dir(file), "../../export/testdata/npm")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(filepath.Join(npm, "node_modules/warcio/package.json")); err != nil || serr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have node and warcio (scripts/setup.sh): %v %v", err, serr)
		}
		t.Log("node or warcio missing: run scripts/setup.sh")
		return s, false
	}
	abs, _ := filepath.Abs(path)
	cmd := exec.Command(node, "check.mjs", abs)
	cmd.Dir = npm
	out, err := cmd.Output()
	if jerr := json.Unmarshal(out, &s); jerr != nil {
		t.Fatalf("warcio on %s: %v %v: %s", path, err, jerr, out)
	}
	t.Logf("warcio on %s: %d records %v, %d block and %d payload digests checked, %d errors",
		filepath.Base(path), s.Records, s.Types, s.BlockDigests, s.PayloadDigests, len(s.Errors))
	for _, e := range s.Errors {
		t.Errorf("warcio: %s", e)
	}
	if s.Records == 0 {
		t.Errorf("warcio read no record of %s", path)
	}
	return s, len(s.Errors) == 0 && s.Records > 0
}
