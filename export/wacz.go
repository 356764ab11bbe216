package export

import (
	"archive/zip"
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// WACZ writes a Web Archive Collection Zipped package (WACZ 1.1.1): the
// WARC files of the pages under archive/ (rolled at a size), their CDXJ
// index under indexes/, the pages list under pages/ and datapackage.json
// with the SHA-256 of every file, so that a replay tool (ReplayWeb.page,
// pywb) opens it. Records go to temporary WARC files as pages come;
// Close packages them and moves the package into place at once.
type WACZ struct {
	path, tmp string
	opt       WACZOptions
	warcs     []string // names under archive/, in order
	f         *os.File
	buf       *bufio.Writer
	w         *WARC
	inFile    int // pages in the current WARC file
	seen      map[string]seenPayload
	index     []string
	pages     []waczPage
}

// WACZOptions configure a WACZ package. The zero value is usable.
type WACZOptions struct {
	// Title names the package (default "Gleaner capture").
	Title string
	// Text puts each page's extracted text in pages/pages.jsonl (for
	// full-text search in replay tools).
	Text bool
	// MaxWARCBytes rolls to a new WARC file once one is this big (default
	// 1 GiB).
	MaxWARCBytes int64
	// WARC configures the WARC files.
	WARC WARCOptions
}

// waczPage is a line of pages/pages.jsonl.
type waczPage struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	TS    string `json:"ts"`
	Title string `json:"title,omitempty"`
	Text  string `json:"text,omitempty"`
}

// NewWACZ starts a package to be written at path by Close.
func NewWACZ(path string, opt WACZOptions) (*WACZ, error) {
	if opt.Title == "" {
		opt.Title = "Gleaner capture"
	}
	if opt.MaxWARCBytes <= 0 {
		opt.MaxWARCBytes = 1 << 30
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), ".wacz-*")
	if err != nil {
		return nil, fmt.Errorf("wacz: %w", err)
	}
	// The first WARC file is started by the first page: a package of
	// finished files only (AddWARC) has none of its own.
	return &WACZ{path: path, tmp: tmp, opt: opt, seen: map[string]seenPayload{}}, nil
}

// roll closes the current WARC file, if any, and starts the next one.
func (z *WACZ) roll() error {
	if err := z.closeWARC(); err != nil {
		return err
	}
	name := z.archiveName(fmt.Sprintf("data-%05d.warc.gz", len(z.warcs)))
	f, err := os.Create(filepath.Join(z.tmp, name))
	if err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	z.f, z.buf = f, bufio.NewWriterSize(f, 256<<10)
	z.warcs = append(z.warcs, name)
	z.inFile = 0
	if z.w, err = NewWARCWith(z.buf, z.opt.WARC); err != nil {
		return err
	}
	z.w.seen = z.seen // revisits refer across the package's files
	z.w.OnRecord(func(ri RecordInfo) { z.indexRecord(name, ri) })
	return nil
}

func (z *WACZ) closeWARC() error {
	if z.f == nil {
		return nil
	}
	err := z.buf.Flush()
	if cerr := z.f.Close(); err == nil {
		err = cerr
	}
	z.f = nil
	if err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	return nil
}

// AddPage writes the page's records (see WARC) and lists the page.
func (z *WACZ) AddPage(p *Page) error {
	if z.w == nil || (z.inFile > 0 && z.w.Offset() >= z.opt.MaxWARCBytes) {
		if err := z.roll(); err != nil {
			return err
		}
	}
	if err := z.w.WritePage(p); err != nil {
		return err
	}
	z.inFile++
	ts := p.FetchedAt
	if ts.IsZero() {
		ts = time.Now()
	}
	wp := waczPage{ID: p.ID, URL: p.URL, TS: ts.UTC().Format(time.RFC3339), Title: cmp.Or(p.PageTitle, p.Title)}
	if z.opt.Text {
		wp.Text = p.Text
	}
	z.pages = append(z.pages, wp)
	return nil
}

// indexed are the record types a replay looks up.
var indexed = map[string]bool{"response": true, "revisit": true, "resource": true}

// indexRecord adds a CDXJ line for a record of the WARC file name.
func (z *WACZ) indexRecord(name string, ri RecordInfo) {
	if !indexed[ri.Type] || ri.URI == "" {
		return
	}
	mime := ri.Mime
	if ri.Type == "revisit" {
		mime = "warc/revisit"
	}
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = strings.TrimSpace(mime[:i])
	}
	fields := map[string]string{"url": ri.URI, "mime": mime, "digest": ri.Digest,
		"length": fmt.Sprint(ri.Length), "offset": fmt.Sprint(ri.Offset), "filename": name}
	if ri.Status > 0 {
		fields["status"] = fmt.Sprint(ri.Status)
	}
	if ri.Type == "resource" {
		fields["status"] = "200"
	}
	b, _ := json.Marshal(fields) // map keys sorted: stable lines
	z.index = append(z.index, SURT(ri.URI)+" "+ri.Date.UTC().Format("20060102150405")+" "+string(b))
}

// Abort removes what the package wrote so far.
func (z *WACZ) Abort() {
	z.closeWARC()
	os.RemoveAll(z.tmp)
}

// Close writes the package at its path (atomically: a reader never sees
// half a package) and removes the temporary files.
func (z *WACZ) Close() error {
	defer os.RemoveAll(z.tmp)
	if err := z.closeWARC(); err != nil {
		return err
	}
	sort.Strings(z.index)
	tmp, err := os.CreateTemp(filepath.Dir(z.path), ".wacz-*.zip")
	if err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := z.writeZip(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	if err := os.Rename(tmp.Name(), z.path); err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	return nil
}

// resource is a file of the package as datapackage.json lists it.
type resource struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Hash  string `json:"hash"`
	Bytes int64  `json:"bytes"`
}

// writeZip writes the package's files to f.
func (z *WACZ) writeZip(f io.Writer) error {
	zw := zip.NewWriter(f)
	var res []resource
	for _, name := range z.warcs {
		r, err := z.zipFile(zw, "archive/"+name, zip.Store, func(w io.Writer) error {
			src, err := os.Open(filepath.Join(z.tmp, name))
			if err != nil {
				return err
			}
			defer src.Close()
			_, err = io.Copy(w, src)
			return err
		})
		if err != nil {
			return err
		}
		res = append(res, r)
	}
	r, err := z.zipBytes(zw, "indexes/index.cdxj", []byte(strings.Join(z.index, "\n")+"\n"))
	if err != nil {
		return err
	}
	res = append(res, r)
	if r, err = z.zipBytes(zw, "pages/pages.jsonl", z.pagesJSONL()); err != nil {
		return err
	}
	res = append(res, r)
	dp, err := z.datapackage(res)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(dp)
	if _, err := z.zipBytes(zw, "datapackage.json", dp); err != nil {
		return err
	}
	digest, _ := json.MarshalIndent(map[string]string{"path": "datapackage.json", "hash": "sha256:" + hex.EncodeToString(sum[:])}, "", "  ")
	if _, err := z.zipBytes(zw, "datapackage-digest.json", digest); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	return nil
}

// pagesJSONL is pages/pages.jsonl: a header line, then a line per page.
func (z *WACZ) pagesJSONL() []byte {
	var b strings.Builder
	head, _ := json.Marshal(map[string]string{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"})
	b.Write(head)
	b.WriteByte('\n')
	for _, p := range z.pages {
		line, _ := json.Marshal(p)
		b.Write(line)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// datapackage is datapackage.json listing res.
func (z *WACZ) datapackage(res []resource) ([]byte, error) {
	dp := map[string]any{
		"profile": "data-package", "wacz_version": "1.1.1", "title": z.opt.Title,
		"software": z.opt.WARC.Software, "created": time.Now().UTC().Format(time.RFC3339), "resources": res,
	}
	if dp["software"] == "" {
		dp["software"] = "gleaner"
	}
	if len(z.pages) > 0 {
		dp["mainPageURL"], dp["mainPageDate"] = z.pages[0].URL, z.pages[0].TS
	}
	b, err := json.MarshalIndent(dp, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("wacz: datapackage: %w", err)
	}
	return b, nil
}

func (z *WACZ) zipBytes(zw *zip.Writer, name string, b []byte) (resource, error) {
	return z.zipFile(zw, name, zip.Deflate, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// zipFile adds a file to the zip and returns its entry for
// datapackage.json.
func (z *WACZ) zipFile(zw *zip.Writer, name string, method uint16, write func(io.Writer) error) (resource, error) {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: time.Now()})
	if err != nil {
		return resource{}, fmt.Errorf("wacz: %s: %w", name, err)
	}
	h := sha256.New()
	cw := &countingWriter{w: io.MultiWriter(w, h)}
	if err := write(cw); err != nil {
		return resource{}, fmt.Errorf("wacz: %s: %w", name, err)
	}
	return resource{Name: filepath.Base(name), Path: name, Hash: "sha256:" + hex.EncodeToString(h.Sum(nil)), Bytes: cw.n}, nil
}

// SURT is the Sort-friendly URI Reordering Transform of a URL as CDX
// indexes key it: host labels reversed and comma-separated (without a
// leading www), then ")" and the path and query, lower-cased, the query's
// parameters sorted.
func SURT(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return strings.ToLower(raw)
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	labels := strings.Split(host, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	key := strings.Join(labels, ",")
	if p := u.Port(); p != "" && !(u.Scheme == "http" && p == "80") && !(u.Scheme == "https" && p == "443") {
		key += ":" + p
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	key += ")" + strings.ToLower(path)
	if u.RawQuery != "" {
		q := strings.Split(u.RawQuery, "&")
		sort.Strings(q)
		key += "?" + strings.ToLower(strings.Join(q, "&"))
	}
	return key
}
