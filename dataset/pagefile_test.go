package dataset_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/dataset"
)

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadPage(t *testing.T) {
	page := []byte("<html><body><p>Grüße</p></body></html>")
	bomb := bytes.Repeat([]byte("a"), 1<<20)
	tests := []struct {
		name    string
		content []byte
		max     int64
		want    []byte
		wantErr string
	}{
		{"plain", page, 0, page, ""},
		{"gzip under any name", gz(t, page), 0, page, ""},
		{"plain over the limit", page, 10, nil, "over the limit of 10 bytes"},
		{"gzip bomb stops at the limit", gz(t, bomb), 4096, nil, "gzip: page too large: over the limit of 4096"},
		{"truncated gzip", gz(t, page)[:12], 0, nil, "gzip:"},
		{"empty file", nil, 0, []byte{}, ""},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.Repeat("p", i+1)+".html")
			if err := os.WriteFile(path, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := dataset.ReadPage(path, tc.max)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want one naming %s and %q", err, path, tc.wantErr)
				}
				return
			}
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := dataset.ReadPageFrom(bytes.NewReader(gz(t, bomb)), 100); !errors.Is(err, dataset.ErrPageTooLarge) {
		t.Errorf("ReadPageFrom(bomb) = %v, want ErrPageTooLarge", err)
	}
}
