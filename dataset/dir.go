package dataset

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// URLListName is the URL list ReadDir looks for in the folder when none is
// given.
const URLListName = "urls.tsv"

// ReadDir describes a plain folder of HTML files as a collection. Each page's
// URL comes from urlList, a TSV file of lines "file<TAB>url[<TAB>label]"
// (file relative to dir; an optional header line "file<TAB>url"), or, when
// urlList is "", from dir/urls.tsv if present, else from baseURL joined with
// the file's path for every .htm/.html file under dir. Pages of a folder are
// identified by URL, so two files with one URL are an error.
func ReadDir(dir, urlList, baseURL string) (*Manifest, error) {
	if err := checkFolder(dir); err != nil {
		return nil, err
	}
	if urlList == "" {
		if _, err := os.Stat(filepath.Join(dir, URLListName)); err == nil {
			urlList = filepath.Join(dir, URLListName)
		}
	}
	m := &Manifest{Dir: dir, Name: datasetName(dir), Columns: []string{"html_path", "url", "label"}}
	switch {
	case urlList != "":
		if err := m.readURLList(urlList); err != nil {
			return nil, err
		}
	case baseURL != "":
		if err := m.walk(baseURL); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("html folder %s: no URLs: give a URL list (file<TAB>url lines) or a base URL", dir)
	}
	if err := m.checkUniqueURLs(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkFolder checks that dir is a directory.
func checkFolder(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("html folder: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("html folder %s: not a directory", dir)
	}
	return nil
}

// checkUniqueURLs checks that no two files of the folder have one URL.
func (m *Manifest) checkUniqueURLs() error {
	seen := map[string]string{}
	for _, e := range m.Entries {
		if prev, dup := seen[e.URL]; dup {
			return fmt.Errorf("html folder %s: files %s and %s have the same URL %s", m.Dir, prev, e.HTMLPath, e.URL)
		}
		seen[e.URL] = e.HTMLPath
	}
	return nil
}

// htmlFiles returns the paths, relative to dir and slash-separated, of the
// regular .htm and .html files under dir.
func htmlFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if !d.Type().IsRegular() || (ext != ".html" && ext != ".htm") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files, err
}

func (m *Manifest) readURLList(list string) error {
	f, err := os.Open(list)
	if err != nil {
		return fmt.Errorf("url list: %w", err)
	}
	defer f.Close()
	m.Path = list
	first := true
	return scanTSV(f, list, func(line int, fields []string) error {
		if first {
			first = false
			if len(fields) >= 2 && strings.EqualFold(strings.TrimSpace(fields[1]), "url") {
				return nil // header
			}
		}
		if len(fields) < 2 || len(fields) > 3 {
			return fmt.Errorf("%s:%d: %d fields, want file<TAB>url[<TAB>label]", list, line, len(fields))
		}
		e := Entry{Line: line, HTMLPath: strings.TrimSpace(fields[0]), URL: strings.TrimSpace(fields[1])}
		if len(fields) == 3 {
			e.Label = strings.TrimSpace(fields[2])
		}
		if e.HTMLPath == "" {
			return fmt.Errorf("%s:%d: empty file name", list, line)
		}
		if err := checkURL(e.URL); err != nil {
			return fmt.Errorf("%s:%d: %w", list, line, err)
		}
		e.Fields = map[string]string{"html_path": e.HTMLPath, "url": e.URL, "label": e.Label}
		m.Entries = append(m.Entries, e)
		return nil
	})
}

// walk lists the .htm and .html files of the folder, each with baseURL
// joined with its path as URL, in path order.
func (m *Manifest) walk(baseURL string) error {
	base, err := url.Parse(baseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return fmt.Errorf("base URL %q is not an absolute http(s) URL", baseURL)
	}
	files, err := htmlFiles(m.Dir)
	if err != nil {
		return fmt.Errorf("html folder %s: %w", m.Dir, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("html folder %s: no .html or .htm files", m.Dir)
	}
	sort.Strings(files)
	for _, f := range files {
		u := *base
		u.Path = path.Join("/", base.Path, f)
		e := Entry{HTMLPath: f, URL: u.String()}
		e.Fields = map[string]string{"html_path": e.HTMLPath, "url": e.URL}
		m.Entries = append(m.Entries, e)
	}
	return nil
}
