package eval

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Page is one annotated page of a dataset.
type Page struct {
	ID   string
	Site string
	URL  string
	// HTMLPath and GoldPath are absolute (resolved against the manifest's
	// folder).
	HTMLPath string
	GoldPath string
}

// ReadManifest reads a dataset manifest: a TSV file with a header row naming
// at least the columns id, site, html_path and gold_path (url optional);
// paths are relative to the manifest's folder.
//
// TODO(dataset): switch to package dataset's reader once it lands; this
// function is the only place that knows the manifest format.
func ReadManifest(path string) ([]Page, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	defer f.Close()
	dir := filepath.Dir(path)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var pages []Page
	col := map[string]int{}
	line := 0
	seen := map[string]bool{}
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(col) == 0 {
			for i, h := range fields {
				col[strings.TrimSpace(h)] = i
			}
			for _, need := range []string{"id", "site", "html_path", "gold_path"} {
				if _, ok := col[need]; !ok {
					return nil, fmt.Errorf("manifest %s: header lacks column %q", path, need)
				}
			}
			continue
		}
		get := func(name string) string {
			i, ok := col[name]
			if !ok || i >= len(fields) {
				return ""
			}
			return strings.TrimSpace(fields[i])
		}
		p := Page{ID: get("id"), Site: get("site"), URL: get("url"), HTMLPath: get("html_path"), GoldPath: get("gold_path")}
		if p.ID == "" || p.HTMLPath == "" || p.GoldPath == "" {
			return nil, fmt.Errorf("manifest %s line %d: empty id, html_path or gold_path", path, line)
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("manifest %s line %d: duplicate id %q", path, line, p.ID)
		}
		seen[p.ID] = true
		if !filepath.IsAbs(p.HTMLPath) {
			p.HTMLPath = filepath.Join(dir, p.HTMLPath)
		}
		if !filepath.IsAbs(p.GoldPath) {
			p.GoldPath = filepath.Join(dir, p.GoldPath)
		}
		pages = append(pages, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	if len(col) == 0 {
		return nil, fmt.Errorf("manifest %s: empty", path)
	}
	return pages, nil
}

// ReadGold reads a gold text: UTF-8 when the bytes are valid UTF-8 (a BOM is
// dropped), else windows-1252.
func ReadGold(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("gold: %w", err)
	}
	return DecodeGold(b), nil
}

// DecodeGold decodes gold bytes as ReadGold does.
func DecodeGold(b []byte) string {
	b = []byte(strings.TrimPrefix(string(b), "\uFEFF"))
	if utf8.Valid(b) {
		return string(b)
	}
	s, err := charmap.Windows1252.NewDecoder().Bytes(b)
	if err != nil { // cannot happen: every byte maps
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return string(s)
}
