package dashboard

import (
	"archive/zip"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"

	"github.com/gleaner/gleaner/chain"
	"github.com/gleaner/gleaner/export"
)

// exportFormats lists package export's formats, sorted.
func exportFormats() []string {
	out := make([]string, 0, len(export.Formats))
	for f := range export.Formats {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// needsChain reports whether a format annotates text (package export).
func needsChain(format string) bool { return format != "warc" && format != "graph" }

// handleExport writes the corpus (of ?site=) in ?format= with package export
// into a temporary folder and sends the file, or a zip of the files when
// the format writes several.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	formats, err := export.ParseFormats(q.Get("format"))
	if err != nil || len(formats) != 1 {
		s.fail(w, http.StatusBadRequest, fmt.Errorf("format %q: want one of %v", q.Get("format"), exportFormats()))
		return
	}
	dir, err := os.MkdirTemp("", "gleaner-dashboard-export-")
	if err != nil {
		s.failFor(w, err)
		return
	}
	defer os.RemoveAll(dir)
	var c *chain.Chain
	if needsChain(formats[0]) {
		if c, err = chain.New(chain.Config{}); err != nil {
			s.failFor(w, fmt.Errorf("linguistic chain: %w", err))
			return
		}
		defer c.Close()
	}
	stats, err := export.Corpus(r.Context(), s.db, c, export.CorpusOptions{Formats: formats, Out: dir, Site: q.Get("site")})
	if err != nil {
		s.fail(w, http.StatusUnprocessableEntity, err)
		return
	}
	if err := sendFiles(w, dir, formats[0], stats.Files); err != nil {
		s.opt.Logf("dashboard: export %s: %v", formats[0], err)
	}
}

// sendFiles sends one file (full paths under dir) as is, several as a zip
// named for the format.
func sendFiles(w http.ResponseWriter, dir, format string, files []string) error {
	w.Header().Set("Cache-Control", "no-store")
	if len(files) == 1 {
		f, err := os.Open(files[0])
		if err != nil {
			return err
		}
		defer f.Close()
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, filepath.Base(files[0])))
		_, err = io.Copy(w, f)
		return err
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="gleaner-%s.zip"`, format))
	z := zip.NewWriter(w)
	for _, name := range files {
		if err := addToZip(z, dir, name); err != nil {
			return err
		}
	}
	return z.Close()
}

// addToZip adds file path under its name relative to dir.
func addToZip(z *zip.Writer, dir, path string) error {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw, err := z.Create(filepath.ToSlash(rel))
	if err != nil {
		return err
	}
	_, err = io.Copy(zw, f)
	return err
}
