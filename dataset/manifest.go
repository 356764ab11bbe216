package dataset

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Entry is one page of a collection.
type Entry struct {
	// Line is the entry's line in its list file (1-based), 0 when the entry
	// was not read from a file.
	Line int
	// ID is the page's id in the manifest; "" for plain HTML folders, whose
	// pages are identified by URL.
	ID string
	// Label is the page's annotation used to judge clusters: the era column
	// (or a label column).
	Label string
	// Site is the manifest's site column, used only with SiteFromManifest.
	Site string
	URL  string
	// HTMLPath and GoldPath are as written in the list, relative to the
	// collection's folder; GoldPath is "" when the page has no gold.
	HTMLPath string
	GoldPath string
	// Fields holds every column of the manifest line by header name.
	Fields map[string]string
}

// Manifest is a collection of pages to import.
type Manifest struct {
	// Path is the list file read ("" for a folder walked without one).
	Path string
	// Dir is the folder relative paths are resolved against.
	Dir string
	// Name names the dataset in the store: by default the base name of Dir.
	Name    string
	Columns []string
	Entries []Entry
}

// HTMLFile returns the path of e's HTML file.
func (m *Manifest) HTMLFile(e Entry) string { return m.resolve(e.HTMLPath) }

// GoldFile returns the path of e's gold file, "" when it has none.
func (m *Manifest) GoldFile(e Entry) string {
	if e.GoldPath == "" {
		return ""
	}
	return m.resolve(e.GoldPath)
}

func (m *Manifest) resolve(p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(m.Dir, p)
}

// requiredColumns must be present in a manifest's header.
var requiredColumns = []string{"id", "url", "html_path"}

// ReadManifest reads an annotated dataset's manifest. Errors name the file
// and, for a bad line, the line.
func ReadManifest(path string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	defer f.Close()
	m, err := ParseManifest(f, path)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// maxLine bounds one line of a list file.
const maxLine = 1 << 20

// ParseManifest reads a manifest from r; name is its path, used for the
// folder that relative paths are resolved against and in error messages.
func ParseManifest(r io.Reader, name string) (*Manifest, error) {
	dir := filepath.Dir(name)
	mp := &manifestParser{
		m:    &Manifest{Path: name, Dir: dir, Name: datasetName(dir)},
		name: name, col: map[string]int{}, seen: map[string]int{},
	}
	if err := scanTSV(r, name, mp.line); err != nil {
		return nil, err
	}
	if mp.m.Columns == nil {
		return nil, fmt.Errorf("%s: empty manifest (no header)", name)
	}
	return mp.m, nil
}

// manifestParser reads a manifest line by line: its header, then its
// entries, each checked.
type manifestParser struct {
	m    *Manifest
	name string
	col  map[string]int // column name -> index
	seen map[string]int // entry ID -> its line
}

// line reads one line of the manifest, the header first.
func (mp *manifestParser) line(line int, fields []string) error {
	if mp.m.Columns == nil {
		return mp.header(line, fields)
	}
	e, err := mp.entry(line, fields)
	if err != nil {
		return err
	}
	mp.m.Entries = append(mp.m.Entries, e)
	return nil
}

// header reads the column names: each named once, the required ones
// present.
func (mp *manifestParser) header(line int, fields []string) error {
	for i, h := range fields {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			return fmt.Errorf("%s:%d: header column %d is empty", mp.name, line, i+1)
		}
		if _, dup := mp.col[h]; dup {
			return fmt.Errorf("%s:%d: header names column %q twice", mp.name, line, h)
		}
		mp.col[h] = i
		mp.m.Columns = append(mp.m.Columns, h)
	}
	for _, need := range requiredColumns {
		if _, ok := mp.col[need]; !ok {
			return fmt.Errorf("%s:%d: header lacks column %q (have %s)", mp.name, line, need, strings.Join(mp.m.Columns, ", "))
		}
	}
	return nil
}

// entry reads the entry on a line and checks it.
func (mp *manifestParser) entry(line int, fields []string) (Entry, error) {
	name := mp.name
	if len(fields) != len(mp.m.Columns) {
		return Entry{}, fmt.Errorf("%s:%d: %d fields, the header has %d", name, line, len(fields), len(mp.m.Columns))
	}
	e := newEntry(line, mp.m.Columns, fields)
	if e.ID == "" {
		return e, fmt.Errorf("%s:%d: empty id", name, line)
	}
	if prev, dup := mp.seen[e.ID]; dup {
		return e, fmt.Errorf("%s:%d: id %q already on line %d", name, line, e.ID, prev)
	}
	mp.seen[e.ID] = line
	if e.HTMLPath == "" {
		return e, fmt.Errorf("%s:%d: page %q: empty html_path", name, line, e.ID)
	}
	if err := checkURL(e.URL); err != nil {
		return e, fmt.Errorf("%s:%d: page %q: %w", name, line, e.ID, err)
	}
	return e, nil
}

// newEntry makes the entry of a line's fields under the header columns:
// the label is the "label" column, else the "era".
func newEntry(line int, columns, fields []string) Entry {
	e := Entry{Line: line, Fields: make(map[string]string, len(fields))}
	for i, f := range fields {
		e.Fields[columns[i]] = strings.TrimSpace(f)
	}
	e.ID, e.URL, e.HTMLPath = e.Fields["id"], e.Fields["url"], e.Fields["html_path"]
	e.Site, e.GoldPath = e.Fields["site"], e.Fields["gold_path"]
	e.Label = e.Fields["era"]
	if l := e.Fields["label"]; l != "" {
		e.Label = l
	}
	return e
}

// scanTSV calls f with the tab-separated fields of each line of r, skipping
// blank lines and lines starting with '#'. It strips a UTF-8 byte order mark
// and carriage returns.
func scanTSV(r io.Reader, name string, f func(line int, fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		text := strings.TrimRight(string(b), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if err := f(line, strings.Split(text, "\t")); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return nil
}

// checkURL accepts absolute http(s) URLs with a host.
func checkURL(raw string) error {
	if raw == "" {
		return fmt.Errorf("empty url")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("bad url %q: %w", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url %q is not an absolute http(s) URL", raw)
	}
	return nil
}

func datasetName(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return filepath.Base(dir)
}
