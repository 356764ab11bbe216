package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Exchange is one HTTP request and its response as exchanged on the wire
// while a page was fetched or rendered: what a WARC file's request and
// response records hold.
type Exchange struct {
	Seq    int // order within the page, from 0
	URL    string
	Method string
	IP     string    // the address connected to, "" when unknown
	At     time.Time // when the request was sent (milliseconds kept)
	// Request is the request line and header block, ending with the blank
	// line; RequestBody its body.
	Request     []byte
	RequestBody []byte
	// Response is the status line and header block, ending with the blank
	// line; Payload the body as served, cut when Truncated.
	Response  []byte
	Payload   []byte
	Truncated bool
	// PayloadSHA256 is the hex SHA-256 of Payload; PutPages computes it.
	PayloadSHA256 string
}

// fastWriters are gzip writers at BestSpeed, reused: a crawl stores
// several exchanges per page, and a new writer's state (about 800 KB) cost
// more than compressing a page's bytes (BenchmarkCrawlRecord).
var fastWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// compressFast gzips b as compress does (decompress reads it), faster;
// nil and empty stay nil.
func compressFast(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	w := fastWriters.Get().(*gzip.Writer)
	defer fastWriters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// exchangeRow is an exchange ready to insert: its blobs compressed.
type exchangeRow struct {
	x                           *Exchange
	req, reqBody, resp, payload []byte
}

// prepareExchanges compresses a page's exchanges and fills their Seq and
// PayloadSHA256, before the write transaction.
func prepareExchanges(p *Page) ([]exchangeRow, error) {
	rows := make([]exchangeRow, len(p.Exchanges))
	for i := range p.Exchanges {
		x := &p.Exchanges[i]
		if x.URL == "" {
			return nil, fmt.Errorf("store: put page %q: exchange %d has no URL", p.Key(), i)
		}
		x.Seq = i
		sum := sha256.Sum256(x.Payload)
		x.PayloadSHA256 = hex.EncodeToString(sum[:])
		r := exchangeRow{x: x}
		for _, c := range []struct {
			dst *[]byte
			src []byte
		}{{&r.req, x.Request}, {&r.reqBody, x.RequestBody}, {&r.resp, x.Response}, {&r.payload, x.Payload}} {
			b, err := compressFast(c.src)
			if err != nil {
				return nil, fmt.Errorf("store: put page %q: exchange %d: %w", p.Key(), i, err)
			}
			*c.dst = b
		}
		rows[i] = r
	}
	return rows, nil
}

const putExchangeSQL = `INSERT INTO exchanges (page_id, seq, url, method, ip, sent_at, truncated,
	request, request_body, response, payload, payload_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// putExchanges replaces the exchanges of page id in tx.
func (s *DB) putExchanges(ctx context.Context, tx *sql.Tx, id int64, rows []exchangeRow) error {
	if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM exchanges WHERE page_id = ?`), id); err != nil {
		return fmt.Errorf("store: replace exchanges of page %d: %w", id, err)
	}
	for _, r := range rows {
		x := r.x
		if _, err := tx.ExecContext(ctx, s.d.rebind(putExchangeSQL), id, x.Seq, x.URL, x.Method, x.IP, millis(x.At),
			x.Truncated, r.req, r.reqBody, r.resp, r.payload, x.PayloadSHA256); err != nil {
			return fmt.Errorf("store: put exchange %d of page %d: %w", x.Seq, id, err)
		}
	}
	return nil
}

// Exchanges lists the HTTP exchanges stored with a page in the order they
// were sent.
func (s *DB) Exchanges(ctx context.Context, pageID int64) ([]Exchange, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT seq, url, method, ip, sent_at, truncated,
		request, request_body, response, payload, payload_sha256 FROM exchanges WHERE page_id = ? ORDER BY seq`), pageID)
	if err != nil {
		return nil, fmt.Errorf("store: exchanges of page %d: %w", pageID, err)
	}
	defer rows.Close()
	var out []Exchange
	for rows.Next() {
		var x Exchange
		var at int64
		var req, reqBody, resp, payload []byte
		if err := rows.Scan(&x.Seq, &x.URL, &x.Method, &x.IP, &at, &x.Truncated, &req, &reqBody, &resp, &payload, &x.PayloadSHA256); err != nil {
			return nil, fmt.Errorf("store: exchanges of page %d: %w", pageID, err)
		}
		x.At = fromMillis(at)
		for _, c := range []struct {
			dst *[]byte
			src []byte
		}{{&x.Request, req}, {&x.RequestBody, reqBody}, {&x.Response, resp}, {&x.Payload, payload}} {
			if *c.dst, err = decompress(c.src); err != nil {
				return nil, fmt.Errorf("store: exchange %d of page %d: %w", x.Seq, pageID, err)
			}
		}
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: exchanges of page %d: %w", pageID, err)
	}
	return out, nil
}

// ExchangeRef locates a stored exchange: its page, its place in the page,
// and what a revisit record referring to its response names.
type ExchangeRef struct {
	PageID        int64
	Seq           int
	URL           string
	Method        string
	At            time.Time
	PayloadSHA256 string
}

// FirstExchange is the earliest exchange stored with a page of dataset
// whose URL and payload digest are these and whose payload is whole: the
// capture a later one of the same payload is a revisit of (a monitor's
// rounds re-fetch a site's scripts and styles). ok is false when there is
// none.
func (s *DB) FirstExchange(ctx context.Context, dataset, url, payloadSHA256 string) (ref ExchangeRef, ok bool, err error) {
	var at int64
	err = s.db.QueryRowContext(ctx, s.d.rebind(`SELECT e.page_id, e.seq, e.method, e.sent_at FROM exchanges e JOIN pages p ON p.id = e.page_id
		WHERE e.url = ? AND e.payload_sha256 = ? AND e.truncated = ? AND p.dataset = ?
		ORDER BY e.sent_at, e.page_id, e.seq LIMIT 1`), url, payloadSHA256, false, dataset).Scan(&ref.PageID, &ref.Seq, &ref.Method, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return ExchangeRef{}, false, nil
	}
	if err != nil {
		return ExchangeRef{}, false, fmt.Errorf("store: first exchange of %s: %w", url, err)
	}
	ref.URL, ref.At, ref.PayloadSHA256 = url, fromMillis(at), payloadSHA256
	return ref, true, nil
}

// emptySHA256 is the payload digest of an empty body (a 304's).
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// PreviousExchange is the latest exchange stored with a page of dataset
// whose URL is this, sent before before, with a whole, non-empty payload:
// the capture a 304 answer to a conditional request confirms (a revisit
// of profile server-not-modified refers to it). ok is false when there is
// none.
func (s *DB) PreviousExchange(ctx context.Context, dataset, url string, before time.Time) (ref ExchangeRef, ok bool, err error) {
	var at int64
	err = s.db.QueryRowContext(ctx, s.d.rebind(`SELECT e.page_id, e.seq, e.method, e.sent_at, e.payload_sha256 FROM exchanges e
		JOIN pages p ON p.id = e.page_id
		WHERE e.url = ? AND p.dataset = ? AND e.sent_at < ? AND e.truncated = ? AND e.payload_sha256 <> ?
		ORDER BY e.sent_at DESC, e.page_id DESC, e.seq DESC LIMIT 1`), url, dataset, millis(before), false, emptySHA256).
		Scan(&ref.PageID, &ref.Seq, &ref.Method, &at, &ref.PayloadSHA256)
	if errors.Is(err, sql.ErrNoRows) {
		return ExchangeRef{}, false, nil
	}
	if err != nil {
		return ExchangeRef{}, false, fmt.Errorf("store: previous exchange of %s: %w", url, err)
	}
	ref.URL, ref.At = url, fromMillis(at)
	return ref, true, nil
}

// ExchangeAt is the exchange ref locates, with its bytes.
func (s *DB) ExchangeAt(ctx context.Context, ref ExchangeRef) (*Exchange, error) {
	xs, err := s.Exchanges(ctx, ref.PageID)
	if err != nil {
		return nil, err
	}
	for i := range xs {
		if xs[i].Seq == ref.Seq {
			return &xs[i], nil
		}
	}
	return nil, fmt.Errorf("store: exchange %d of page %d: %w", ref.Seq, ref.PageID, ErrNotFound)
}
