package feeds

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any input gives a document or an error of this package's
// kinds, never a panic, and never more than MaxEntries entries.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := Parse("https://fuzz.example/feed", b)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("error of no known kind: %v", err)
			}
			return
		}
		if len(doc.Entries) > MaxEntries || len(doc.Sitemaps) > MaxEntries {
			t.Fatalf("%d entries, %d sitemaps", len(doc.Entries), len(doc.Sitemaps))
		}
		RobotsSitemaps("https://fuzz.example/robots.txt", b)
		Discover("https://fuzz.example/", b)
	})
}
