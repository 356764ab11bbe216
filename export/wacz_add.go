package export

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gleaner/gleaner/treediff"
)

// AddWARC puts a finished WARC file (a gzip member per record, as WARC
// and Follow write them) in the package as it is: its records indexed,
// its pages listed (the targets of its rendered DOM conversion records),
// under its own name (numbered if the package has one of that name).
// WARC files written apart, such as the rounds of a monitor exported one
// by one, replay together once in one package: a revisit record of one
// finds the record it refers to in another.
func (z *WACZ) AddWARC(path string) error {
	name := z.archiveName(filepath.Base(path))
	src, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	defer src.Close()
	dst, err := os.Create(filepath.Join(z.tmp, name))
	if err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	err = z.indexCopy(name, io.TeeReader(src, dst))
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("wacz: %s: %w", path, err)
	}
	z.warcs = append(z.warcs, name)
	return nil
}

// archiveName is name, or when the package holds a file of that name,
// name numbered.
func (z *WACZ) archiveName(name string) string {
	taken := map[string]bool{}
	for _, w := range z.warcs {
		taken[w] = true
	}
	base := strings.TrimSuffix(name, ".warc.gz")
	for i := len(z.warcs); taken[name]; i++ {
		name = fmt.Sprintf("%s-%d.warc.gz", base, i)
	}
	return name
}

// byteCounter counts the bytes read through it; as an io.ByteReader it
// keeps gzip from reading past the end of a member.
type byteCounter struct {
	r *bufio.Reader
	n int64
}

func (c *byteCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *byteCounter) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// indexCopy reads the WARC file name from r, member by member, indexing
// each record and listing its pages.
func (z *WACZ) indexCopy(name string, r io.Reader) error {
	c := &byteCounter{r: bufio.NewReader(r)}
	var zr *gzip.Reader
	for {
		start := c.n
		if _, err := c.r.Peek(1); err == io.EOF {
			return nil
		}
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(c)
		} else {
			err = zr.Reset(c)
		}
		if err != nil {
			return fmt.Errorf("record at %d: %w", start, err)
		}
		zr.Multistream(false)
		ri, page, err := readIndexed(zr)
		if err != nil {
			return fmt.Errorf("record at %d: %w", start, err)
		}
		ri.Offset, ri.Length = start, c.n-start
		z.indexRecord(name, ri)
		if page != nil {
			z.pages = append(z.pages, *page)
		}
	}
}

// readIndexed reads one record (the rest of its member) and describes it
// for the index; page is set for a rendered DOM conversion record.
func readIndexed(r io.Reader) (RecordInfo, *waczPage, error) {
	tr := textproto.NewReader(bufio.NewReader(r))
	if err := readVersion(tr, 1); err != nil {
		return RecordInfo{}, nil, err
	}
	h, err := tr.ReadMIMEHeader()
	if err != nil {
		return RecordInfo{}, nil, err
	}
	block, err := io.ReadAll(io.LimitReader(tr.R, 256<<20))
	if err != nil {
		return RecordInfo{}, nil, err
	}
	date, err := time.Parse(time.RFC3339, h.Get("WARC-Date"))
	if err != nil {
		return RecordInfo{}, nil, errors.New("no WARC-Date")
	}
	rec := Record{Header: h, Block: block}
	ri := RecordInfo{Type: rec.Type(), ID: h.Get("WARC-Record-ID"), URI: rec.TargetURI(), Date: date,
		Mime: h.Get("Content-Type"), Digest: h.Get("WARC-Payload-Digest")}
	if strings.HasPrefix(ri.Mime, "application/http") {
		if resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(block)), nil); err == nil {
			ri.Status, ri.Mime = resp.StatusCode, resp.Header.Get("Content-Type")
			resp.Body.Close()
		}
	}
	if ri.Type == "conversion" && strings.HasPrefix(ri.Mime, "text/html") {
		return ri, &waczPage{ID: strings.TrimSuffix(strings.TrimPrefix(ri.ID, "<urn:uuid:"), ">"), URL: ri.URI, TS: date.UTC().Format(time.RFC3339),
			Title: domTitle(ri.URI, block)}, nil
	}
	return ri, nil, nil
}

// domTitle is the title a rendered DOM shows ("" when it has none).
func domTitle(name string, dom []byte) string {
	t, err := treediff.Parse(name, dom, treediff.ParseOptions{})
	if err != nil {
		return ""
	}
	return treediff.Title(t)
}
