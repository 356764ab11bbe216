package monitor

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestAppendDocuments appends two rounds' documents to one JSON Lines
// file, writes nothing for no path, and names a folder it cannot write.
func TestAppendDocuments(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "docs.jsonl")
	if err := AppendDocuments("", []Document{{URL: "http://a.test/1"}}); err != nil {
		t.Fatal(err)
	}
	for _, round := range [][]Document{{{URL: "http://a.test/1"}, {URL: "http://a.test/2"}}, {{URL: "http://a.test/3"}}} {
		if err := AppendDocuments(path, round); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var urls []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var d Document
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		urls = append(urls, d.URL)
	}
	if len(urls) != 3 || urls[0] != "http://a.test/1" || urls[2] != "http://a.test/3" {
		t.Errorf("lines %q, want the three documents in order", urls)
	}
	if err := AppendDocuments(filepath.Join(dir, "missing", "d.jsonl"), nil); err == nil {
		t.Error("no error for a file in a missing folder")
	}
}
