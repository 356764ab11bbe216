package export

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"time"
)

// WARC writes WARC/1.1 files, one gzip member per record (.warc.gz), as
// ISO 28500 and the IIPC guidelines ask. No Go WARC library is reachable
// from this project's module proxy (nlnwa/gowarc and internetarchive/gowarc
// are refused), so the format is written here; ReadWARC reads it back and
// checks every digest.
type WARC struct {
	w   io.Writer
	now func() time.Time
}

// NewWARC starts a WARC file on w with a warcinfo record.
func NewWARC(w io.Writer, software string) (*WARC, error) {
	x := &WARC{w: w, now: time.Now}
	info := "software: " + software + "\r\nformat: WARC File Format 1.1\r\nconformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
	_, err := x.record("warcinfo", "", "application/warc-fields", []byte(info), nil)
	return x, err
}

// WritePage writes the page's rendered response (an HTTP response record
// holding the DOM as served after rendering) and a conversion record with
// the extracted text that refers to it.
func (x *WARC) WritePage(p *Page) error {
	if p.URL == "" {
		return fmt.Errorf("warc: page %s has no URL", p.ID)
	}
	status, ct := p.Status, p.ContentType
	if status == 0 {
		status = 200
	}
	if ct == "" {
		ct = "text/html; charset=utf-8"
	}
	var http bytes.Buffer
	fmt.Fprintf(&http, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", status, statusText(status), clean(ct), len(p.HTML))
	http.Write(p.HTML)
	date := p.FetchedAt
	id, err := x.record("response", p.URL, "application/http;msgtype=response", http.Bytes(), func(h *strings.Builder) {
		if !date.IsZero() {
			fmt.Fprintf(h, "WARC-Date: %s\r\n", date.UTC().Format(time.RFC3339))
		}
	})
	if err != nil {
		return err
	}
	text := p.Text
	if p.Title != "" {
		text = p.Title + "\n\n" + text
	}
	_, err = x.record("conversion", p.URL, "text/plain; charset=utf-8", []byte(text), func(h *strings.Builder) {
		fmt.Fprintf(h, "WARC-Refers-To: %s\r\n", id)
	})
	return err
}

func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 404:
		return "Not Found"
	}
	return "Status"
}

// record writes one gzip-compressed record and returns its WARC-Record-ID.
func (x *WARC) record(typ, target, contentType string, block []byte, extra func(*strings.Builder)) (string, error) {
	id := "<urn:uuid:" + uuid() + ">"
	var h strings.Builder
	h.WriteString("WARC/1.1\r\n")
	fmt.Fprintf(&h, "WARC-Type: %s\r\nWARC-Record-ID: %s\r\n", typ, id)
	var ex strings.Builder
	if extra != nil {
		extra(&ex)
	}
	if !strings.Contains(ex.String(), "WARC-Date:") {
		fmt.Fprintf(&h, "WARC-Date: %s\r\n", x.now().UTC().Format(time.RFC3339))
	}
	h.WriteString(ex.String())
	if target != "" {
		fmt.Fprintf(&h, "WARC-Target-URI: %s\r\n", clean(target))
	}
	fmt.Fprintf(&h, "WARC-Block-Digest: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", digest(block), contentType, len(block))
	zw := gzip.NewWriter(x.w)
	zw.Write([]byte(h.String()))
	zw.Write(block)
	zw.Write([]byte("\r\n\r\n"))
	if err := zw.Close(); err != nil {
		return "", fmt.Errorf("warc: %w", err)
	}
	return id, nil
}

func digest(b []byte) string {
	s := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

func uuid() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// Record is a WARC record read back.
type Record struct {
	Header textproto.MIMEHeader
	Block  []byte
}

// Type is the record's WARC-Type.
func (r *Record) Type() string { return r.Header.Get("WARC-Type") }

// TargetURI is the record's WARC-Target-URI, without the angle brackets
// WARC/1.0 writers (such as Wget) put around it.
func (r *Record) TargetURI() string {
	u := r.Header.Get("WARC-Target-URI")
	if strings.HasPrefix(u, "<") && strings.HasSuffix(u, ">") {
		u = u[1 : len(u)-1]
	}
	return u
}

// ReadWARC reads every record of a WARC file (gzip-compressed per record
// or not), checking versions, lengths and block digests. maxBlock bounds a
// record's block (0: 256 MiB).
func ReadWARC(r io.Reader, maxBlock int64) ([]Record, error) {
	if maxBlock <= 0 {
		maxBlock = 256 << 20
	}
	br := bufio.NewReader(r)
	magic, _ := br.Peek(2)
	var src io.Reader = br
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("warc: %w", err)
		}
		src = zr // multistream: members read as one stream
	}
	tr := textproto.NewReader(bufio.NewReader(src))
	var out []Record
	for {
		line, err := tr.ReadLine()
		if err == io.EOF && len(out) > 0 {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("warc: record %d: %w", len(out)+1, err)
		}
		if line == "" {
			continue
		}
		if line != "WARC/1.1" && line != "WARC/1.0" {
			return out, fmt.Errorf("warc: record %d: bad version line %q", len(out)+1, line)
		}
		h, err := tr.ReadMIMEHeader()
		if err != nil {
			return out, fmt.Errorf("warc: record %d header: %w", len(out)+1, err)
		}
		n, err := strconv.ParseInt(h.Get("Content-Length"), 10, 64)
		if err != nil || n < 0 || n > maxBlock {
			return out, fmt.Errorf("warc: record %d: bad Content-Length %q", len(out)+1, h.Get("Content-Length"))
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(tr.R, block); err != nil {
			return out, fmt.Errorf("warc: record %d block: %w", len(out)+1, err)
		}
		if d := h.Get("WARC-Block-Digest"); d != "" && d != digest(block) {
			return out, fmt.Errorf("warc: record %d: block digest mismatch", len(out)+1)
		}
		if h.Get("WARC-Type") == "" || h.Get("WARC-Record-ID") == "" || h.Get("WARC-Date") == "" {
			return out, errors.New("warc: record lacks WARC-Type, WARC-Record-ID or WARC-Date")
		}
		out = append(out, Record{Header: h, Block: block})
	}
}
