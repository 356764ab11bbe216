package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// DefaultMaxPageBytes bounds a page read by ReadPage once decompressed.
const DefaultMaxPageBytes = 64 << 20

// ErrPageTooLarge is returned when a page, decompressed, exceeds its bound.
var ErrPageTooLarge = errors.New("page too large")

// gzipMagic opens every gzip stream (RFC 1952).
var gzipMagic = []byte{0x1f, 0x8b}

// ReadPage reads the page file (HTML, or a gold text) at path, of at most max bytes once
// decompressed (max <= 0: DefaultMaxPageBytes). A gzip file, recognised by
// its magic bytes whatever its name, is decompressed: datasets such as WCXB
// ship their pages as html/<id>.html.gz. The bound applies to the
// decompressed bytes, so a gzip bomb stops at max.
func ReadPage(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	b, err := ReadPageFrom(f, max)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// ReadPageFrom reads a page from r as ReadPage reads a file: gzip
// decompressed, at most max bytes (max <= 0: DefaultMaxPageBytes).
func ReadPageFrom(r io.Reader, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxPageBytes
	}
	br := bufio.NewReader(r)
	if head, _ := br.Peek(len(gzipMagic)); bytes.Equal(head, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		b, err := readAtMost(zr, max)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return b, nil
	}
	return readAtMost(br, max)
}

func readAtMost(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: over the limit of %d bytes", ErrPageTooLarge, max)
	}
	return b, nil
}
