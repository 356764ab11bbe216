package export

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gleaner/gleaner/store"
)

// WARC writes WARC/1.1 files, one gzip member per record (.warc.gz), as
// ISO 28500 and the IIPC guidelines ask. No Go WARC library is reachable
// from this project's module proxy (nlnwa/gowarc and internetarchive/gowarc
// are refused), so the format is written here; ReadWARC reads it back and
// checks every digest, and the tests have Webrecorder's warcio read it.
//
// A page with recorded exchanges (Page.Exchanges) is written as captured:
// for each exchange a request record and a response record holding the
// status line, headers and payload as served (a revisit record when the
// same payload was written before), then the rendered DOM and the
// extracted text as conversion records referring to the page's document
// response. A page without them (stored before recording, or imported)
// has its DOM as a resource record, the text referring to it.
type WARC struct {
	w      *countingWriter
	now    func() time.Time
	opt    WARCOptions
	seen   map[string]seenPayload // payload digest -> its first response
	onRec  func(RecordInfo)
	failed error
}

// WARCOptions configure a WARC writer. The zero value is usable.
type WARCOptions struct {
	// Software names the writer in the warcinfo record (default "gleaner").
	Software string
	// Crawl names what was captured (a crawl, a monitor, a round) in the
	// warcinfo record.
	Crawl string
	// Digest is the digest algorithm, "sha256" (default) or "sha1"; the
	// value is base32, as warcio and the IIPC tools write it.
	Digest string
	// NoRevisits writes every response in full, even a payload written
	// before.
	NoRevisits bool
	// NoText leaves out the conversion record of the extracted text (a
	// page written as it is fetched has none yet).
	NoText bool
	// Earlier, when set, finds the first capture of an exchange's payload
	// (same URL, same payload digest) written elsewhere: in an earlier
	// round of a monitor, exported alone. The response is then a revisit
	// record referring to that capture's response record, whose
	// WARC-Record-ID every export derives alike (exchangeID). Captures
	// written in the same file or package are found without it.
	Earlier func(ex *store.Exchange) (ref store.ExchangeRef, ok bool, err error)
	// Previous, when set, finds the capture a 304 answer confirms when it
	// was written elsewhere: the latest whole capture of the exchange's
	// URL before it (a monitor's earlier round). The 304 is then a
	// revisit record of profile server-not-modified referring to it; a
	// capture written before by this writer is found without it.
	Previous func(ex *store.Exchange) (ref store.ExchangeRef, ok bool, err error)
	// Original, when set, reads the capture a revisit found by Earlier or
	// Previous refers to: its response record is written first, under
	// the ID every export gives it, so that the file or package replays
	// on its own (a WACZ of one round; a replay tool resolves a revisit
	// within its collection).
	Original func(ref store.ExchangeRef) (*store.Exchange, error)
}

// RecordInfo describes a record just written, for an index (CDXJ).
type RecordInfo struct {
	Type, ID, URI string
	Date          time.Time
	Mime          string // of the payload
	Status        int    // HTTP status; 0 when the record holds none
	Digest        string // payload digest
	Offset        int64  // of the record's gzip member in the file
	Length        int64  // of the gzip member
}

// seenPayload is the first response that held a payload.
type seenPayload struct {
	id, uri string
	date    time.Time
}

// lastKey is the key of seen under which the latest whole response of a
// URL is kept (payload digests have no NUL).
func lastKey(uri string) string { return "\x00" + uri }

// profiles of revisit records (WARC 1.1, 6.7).
const (
	profileIdentical   = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
	profileNotModified = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
)

// maxSeenPayloads bounds the payloads remembered for revisits.
const maxSeenPayloads = 1 << 20

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// NewWARC starts a WARC file on w with a warcinfo record naming software.
func NewWARC(w io.Writer, software string) (*WARC, error) {
	return NewWARCWith(w, WARCOptions{Software: software})
}

// NewWARCWith starts a WARC file on w with a warcinfo record.
func NewWARCWith(w io.Writer, opt WARCOptions) (*WARC, error) {
	if opt.Software == "" {
		opt.Software = "gleaner"
	}
	switch opt.Digest {
	case "":
		opt.Digest = "sha256"
	case "sha256", "sha1":
	default:
		return nil, fmt.Errorf("warc: digest %q: want sha256 or sha1", opt.Digest)
	}
	x := &WARC{w: &countingWriter{w: w}, now: time.Now, opt: opt, seen: map[string]seenPayload{}}
	info := "software: " + clean(opt.Software) + "\r\nformat: WARC File Format 1.1\r\n" +
		"conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
	if opt.Crawl != "" {
		info += "description: " + clean(opt.Crawl) + "\r\nisPartOf: " + clean(opt.Crawl) + "\r\n"
	}
	_, err := x.record(warcRecord{typ: "warcinfo", contentType: "application/warc-fields", block: []byte(info)})
	return x, err
}

// OnRecord sets a function called after each record is written.
func (x *WARC) OnRecord(f func(RecordInfo)) { x.onRec = f }

// Offset is the bytes written so far.
func (x *WARC) Offset() int64 { return x.w.n }

// WritePage writes the page's records (see WARC).
func (x *WARC) WritePage(p *Page) error {
	if p.URL == "" {
		return fmt.Errorf("warc: page %s has no URL", p.ID)
	}
	if x.failed != nil {
		return x.failed
	}
	refer, err := x.writeExchanges(p)
	if err != nil {
		return err
	}
	date := p.FetchedAt
	if len(p.Exchanges) == 0 {
		ct := p.ContentType
		if ct == "" || !strings.Contains(ct, "charset") {
			ct = "text/html; charset=utf-8" // the DOM is serialised as UTF-8
		}
		if refer, err = x.record(warcRecord{typ: "resource", target: p.URL, date: date, contentType: clean(ct), block: p.HTML, payload: true}); err != nil {
			return err
		}
	} else if len(p.HTML) > 0 { // a 304 kept alone has no DOM
		ex := documentExchange(p)
		if _, err := x.record(warcRecord{typ: "conversion", target: ex.URL, date: date, refersTo: refer,
			contentType: "text/html; charset=utf-8", block: p.HTML}); err != nil {
			return err
		}
	}
	if x.opt.NoText {
		return nil
	}
	text := p.Text
	if p.Title != "" {
		text = p.Title + "\n\n" + text
	}
	_, err = x.record(warcRecord{typ: "conversion", target: p.URL, date: date, refersTo: refer,
		contentType: "text/plain; charset=utf-8", block: []byte(text)})
	return err
}

// writeExchanges writes a request and a response (or revisit) record per
// exchange, and returns the record ID of the page's document response.
func (x *WARC) writeExchanges(p *Page) (string, error) {
	doc := documentExchange(p)
	var docID string
	for i := range p.Exchanges {
		ex := &p.Exchanges[i]
		id, err := x.writeExchange(p.ID, i, ex)
		if err != nil {
			return "", err
		}
		if ex == doc {
			docID = id
		}
	}
	return docID, nil
}

// writeExchange writes the response (or revisit) record of exchange seq
// of page pageID, then its request concurrent to it, and returns the
// response's record ID.
func (x *WARC) writeExchange(pageID string, seq int, ex *store.Exchange) (string, error) {
	if ex.URL == "" {
		return "", errors.New("warc: exchange without URL")
	}
	pd := x.digest(ex.Payload)
	r := warcRecord{typ: "response", target: ex.URL, date: ex.At, ip: ex.IP, id: exchangeID("response", pageID, seq, ex),
		contentType: "application/http;msgtype=response", block: append(append([]byte(nil), ex.Response...), ex.Payload...),
		payloadDigest: pd, truncated: ex.Truncated, http: true}
	prev, profile, err := x.revisitOf(ex, pd)
	if err != nil {
		return "", err
	}
	if profile != "" {
		r.typ, r.block, r.refersTo = "revisit", ex.Response, prev.id
		r.revisitOf, r.profile, r.id = &prev, profile, exchangeID("revisit", pageID, seq, ex)
		if profile == profileNotModified {
			r.payloadDigest = "" // a 304 has no payload
		}
	}
	id, err := x.record(r)
	if err != nil {
		return "", err
	}
	if r.typ == "response" {
		x.remember(id, ex, pd)
	}
	if len(ex.Request) > 0 {
		_, err = x.record(warcRecord{typ: "request", target: ex.URL, date: ex.At, ip: ex.IP, concurrentTo: id,
			contentType: "application/http;msgtype=request", block: append(append([]byte(nil), ex.Request...), ex.RequestBody...)})
	}
	return id, err
}

// remember keeps a whole response written (record id) for the revisits
// of its payload (digest pd) and of its URL (a later 304).
func (x *WARC) remember(id string, ex *store.Exchange, pd string) {
	if len(ex.Payload) == 0 || ex.Truncated || len(x.seen) >= maxSeenPayloads {
		return
	}
	sp := seenPayload{id: id, uri: ex.URL, date: ex.At}
	if _, ok := x.seen[pd]; !ok {
		x.seen[pd] = sp
	}
	x.seen[lastKey(ex.URL)] = sp
}

// revisitOf is the capture ex revisits and the revisit's profile: for a
// 304 answer the capture it confirms (server-not-modified), else one
// whose payload (digest pd) was written before by this writer or its
// package, else the first capture WARCOptions.Earlier finds elsewhere
// (identical-payload-digest); profile "" when ex is to be written in
// full.
func (x *WARC) revisitOf(ex *store.Exchange, pd string) (seenPayload, string, error) {
	if x.opt.NoRevisits {
		return seenPayload{}, "", nil
	}
	if notModified(ex) {
		sp, ok, err := x.referTo(ex, x.seen[lastKey(ex.URL)], x.opt.Previous)
		return sp, ifOK(ok, profileNotModified), err
	}
	if len(ex.Payload) == 0 || ex.Truncated {
		return seenPayload{}, "", nil
	}
	sp, ok, err := x.referTo(ex, x.seen[pd], x.opt.Earlier)
	return sp, ifOK(ok, profileIdentical), err
}

func ifOK(ok bool, profile string) string {
	if ok {
		return profile
	}
	return ""
}

// referTo is the capture a revisit of ex refers to: here, when written
// by this writer, else the one find finds elsewhere, whose response
// record is first written here with WARCOptions.Original.
func (x *WARC) referTo(ex *store.Exchange, here seenPayload, find func(*store.Exchange) (store.ExchangeRef, bool, error)) (seenPayload, bool, error) {
	if here.id != "" {
		return here, true, nil
	}
	if find == nil {
		return seenPayload{}, false, nil
	}
	ref, ok, err := find(ex)
	if err != nil || !ok {
		return seenPayload{}, false, err
	}
	first := store.Exchange{URL: ref.URL, Method: ref.Method, At: ref.At}
	sp := seenPayload{id: exchangeID("response", pageID(ref.PageID), ref.Seq, &first), uri: ref.URL, date: ref.At}
	if x.opt.Original == nil {
		return sp, true, nil
	}
	return sp, true, x.writeOriginal(ref, sp.id)
}

// writeOriginal writes the response record of the capture ref, written
// elsewhere under id, so that a revisit of it here resolves.
func (x *WARC) writeOriginal(ref store.ExchangeRef, id string) error {
	ex, err := x.opt.Original(ref)
	if err != nil {
		return fmt.Errorf("warc: original of %s: %w", ref.URL, err)
	}
	pd := x.digest(ex.Payload)
	if _, err := x.record(warcRecord{typ: "response", target: ex.URL, date: ex.At, ip: ex.IP, id: id,
		contentType: "application/http;msgtype=response", block: append(append([]byte(nil), ex.Response...), ex.Payload...),
		payloadDigest: pd, truncated: ex.Truncated, http: true}); err != nil {
		return err
	}
	x.remember(id, ex, pd)
	return nil
}

// notModified reports whether ex's response is a 304.
func notModified(ex *store.Exchange) bool {
	return bytes.HasPrefix(ex.Response, []byte("HTTP/")) && statusOf(ex.Response) == http.StatusNotModified
}

// statusOf is the status code of an HTTP response head, 0 when unread.
func statusOf(head []byte) int {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// pageID names a store page in the records and lists of an export.
func pageID(id int64) string { return fmt.Sprintf("p%d", id) }

// exchangeID is the WARC-Record-ID of the record of type typ made of
// exchange seq of page pageID: derived from them (a SHA-256 made a UUID,
// version 8), so that every export of the store names a capture alike and
// a revisit written in another export refers to it rightly. A page
// without an ID gets random IDs.
func exchangeID(typ, pageID string, seq int, ex *store.Exchange) string {
	if pageID == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("gleaner exchange\x00%s\x00%s\x00%d\x00%s\x00%s\x00%d",
		typ, pageID, seq, ex.Method, ex.URL, ex.At.UnixMilli())))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x80
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// documentExchange is the exchange of the page's document: the page URL's,
// followed along the redirects it answered; nil when there is none.
func documentExchange(p *Page) *store.Exchange {
	byURL := map[string]*store.Exchange{}
	for i := range p.Exchanges {
		if _, ok := byURL[p.Exchanges[i].URL]; !ok {
			byURL[p.Exchanges[i].URL] = &p.Exchanges[i]
		}
	}
	ex := byURL[p.URL]
	for hops := 0; ex != nil && hops < 20; hops++ {
		loc := redirectTarget(ex)
		next := byURL[loc]
		if loc == "" || next == nil || next == ex {
			break
		}
		ex = next
	}
	if ex == nil && len(p.Exchanges) > 0 {
		ex = &p.Exchanges[0]
	}
	return ex
}

// redirectTarget is the absolute Location of a 3xx response, "" otherwise.
func redirectTarget(ex *store.Exchange) string {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(ex.Response)), nil)
	if err != nil || resp.StatusCode < 300 || resp.StatusCode > 399 {
		return ""
	}
	loc := resp.Header.Get("Location")
	base, err := url.Parse(ex.URL)
	if err != nil || loc == "" {
		return ""
	}
	u, err := base.Parse(loc)
	if err != nil {
		return ""
	}
	return u.String()
}

// warcRecord is one record to write.
type warcRecord struct {
	typ, target, contentType string
	date                     time.Time
	block                    []byte
	ip, refersTo             string
	concurrentTo             string
	payloadDigest            string
	payload                  bool // the block is the payload (a resource)
	http                     bool // the block is an HTTP message
	truncated                bool
	revisitOf                *seenPayload
	profile                  string // of a revisit
	id                       string // the WARC-Record-ID; "" for a random one
}

// record writes one gzip-compressed record and returns its WARC-Record-ID.
func (x *WARC) record(r warcRecord) (string, error) {
	id := r.id
	if id == "" {
		id = "<urn:uuid:" + uuid() + ">"
	}
	date := r.date
	if date.IsZero() {
		date = x.now()
	}
	var h strings.Builder
	h.WriteString("WARC/1.1\r\n")
	field := func(k, v string) {
		if v != "" {
			h.WriteString(k + ": " + v + "\r\n")
		}
	}
	field("WARC-Type", r.typ)
	field("WARC-Record-ID", id)
	field("WARC-Date", date.UTC().Format(time.RFC3339))
	if r.target != "" {
		field("WARC-Target-URI", clean(r.target))
	}
	field("WARC-IP-Address", r.ip)
	field("WARC-Concurrent-To", r.concurrentTo)
	field("WARC-Refers-To", r.refersTo)
	if r.revisitOf != nil {
		field("WARC-Profile", r.profile)
		field("WARC-Refers-To-Target-URI", clean(r.revisitOf.uri))
		field("WARC-Refers-To-Date", r.revisitOf.date.UTC().Format(time.RFC3339))
	}
	if r.payload && r.payloadDigest == "" {
		r.payloadDigest = x.digest(r.block)
	}
	field("WARC-Payload-Digest", r.payloadDigest)
	if r.truncated {
		field("WARC-Truncated", "length")
	}
	field("WARC-Block-Digest", x.digest(r.block))
	field("Content-Type", r.contentType)
	field("Content-Length", strconv.Itoa(len(r.block)))
	h.WriteString("\r\n")
	start := x.w.n
	zw := gzip.NewWriter(x.w)
	zw.Write([]byte(h.String()))
	zw.Write(r.block)
	zw.Write([]byte("\r\n\r\n"))
	if err := zw.Close(); err != nil {
		x.failed = fmt.Errorf("warc: %w", err)
		return "", x.failed
	}
	if x.onRec != nil {
		x.onRec(x.info(r, id, date, start))
	}
	return id, nil
}

// info describes a written record for an index.
func (x *WARC) info(r warcRecord, id string, date time.Time, start int64) RecordInfo {
	ri := RecordInfo{Type: r.typ, ID: id, URI: r.target, Date: date, Mime: r.contentType,
		Digest: r.payloadDigest, Offset: start, Length: x.w.n - start}
	if r.http {
		if resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(r.block)), nil); err == nil {
			ri.Status = resp.StatusCode
			ri.Mime = resp.Header.Get("Content-Type")
			resp.Body.Close()
		}
	}
	return ri
}

// digest is the labelled base32 digest of b with the writer's algorithm.
func (x *WARC) digest(b []byte) string {
	if x.opt.Digest == "sha1" {
		return digestWith("sha1", b)
	}
	return digestWith("sha256", b)
}

func digestWith(algo string, b []byte) string {
	var h hash.Hash
	switch algo {
	case "sha1":
		h = sha1.New()
	case "sha256":
		h = sha256.New()
	default:
		return ""
	}
	h.Write(b)
	return algo + ":" + base32.StdEncoding.EncodeToString(h.Sum(nil))
}

// digestMatches checks a labelled digest (sha1 or sha256, base32 or hex,
// as writers differ) against b.
func digestMatches(d string, b []byte) bool {
	algo, val, ok := strings.Cut(d, ":")
	if !ok {
		return false
	}
	algo = strings.ReplaceAll(strings.ToLower(algo), "-", "")
	want := digestWith(algo, b)
	if want == "" {
		return false
	}
	_, w, _ := strings.Cut(want, ":")
	if strings.EqualFold(val, w) {
		return true
	}
	raw, _ := base32.StdEncoding.DecodeString(w)
	return strings.EqualFold(val, hex.EncodeToString(raw))
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

// Payload is the payload of an HTTP response record (the block after the
// HTTP head), or the block of any other record.
func (r *Record) Payload() []byte {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/http") {
		return r.Block
	}
	if i := bytes.Index(r.Block, []byte("\r\n\r\n")); i >= 0 {
		return r.Block[i+4:]
	}
	return nil
}

// ReadWARC reads every record of a WARC file (gzip-compressed per record
// or not), checking versions, lengths, block digests and the payload
// digests of response and resource records. maxBlock bounds a record's
// block (0: 256 MiB).
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
		rec, err := readRecord(tr, maxBlock, len(out)+1)
		if err == io.EOF && len(out) > 0 {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

// readRecord reads and checks record number n.
func readRecord(tr *textproto.Reader, maxBlock int64, n int) (Record, error) {
	if err := readVersion(tr, n); err != nil {
		return Record{}, err
	}
	h, err := tr.ReadMIMEHeader()
	if err != nil {
		return Record{}, fmt.Errorf("warc: record %d header: %w", n, err)
	}
	size, err := strconv.ParseInt(h.Get("Content-Length"), 10, 64)
	if err != nil || size < 0 || size > maxBlock {
		return Record{}, fmt.Errorf("warc: record %d: bad Content-Length %q", n, h.Get("Content-Length"))
	}
	block := make([]byte, size)
	if _, err := io.ReadFull(tr.R, block); err != nil {
		return Record{}, fmt.Errorf("warc: record %d block: %w", n, err)
	}
	if h.Get("WARC-Type") == "" || h.Get("WARC-Record-ID") == "" || h.Get("WARC-Date") == "" {
		return Record{}, fmt.Errorf("warc: record %d lacks WARC-Type, WARC-Record-ID or WARC-Date", n)
	}
	rec := Record{Header: h, Block: block}
	return rec, checkDigests(&rec, n)
}

// readVersion reads the version line of record n, after the blank lines
// that end the record before; io.EOF at the end of the file.
func readVersion(tr *textproto.Reader, n int) error {
	line := ""
	for line == "" {
		var err error
		if line, err = tr.ReadLine(); err == io.EOF {
			return err
		} else if err != nil {
			return fmt.Errorf("warc: record %d: %w", n, err)
		}
	}
	if line != "WARC/1.1" && line != "WARC/1.0" {
		return fmt.Errorf("warc: record %d: bad version line %q", n, line)
	}
	return nil
}

// checkDigests checks record n's block digest, and the payload digest of
// a response or resource record.
func checkDigests(rec *Record, n int) error {
	h := rec.Header
	if d := h.Get("WARC-Block-Digest"); d != "" && !digestMatches(d, rec.Block) {
		return fmt.Errorf("warc: record %d: block digest mismatch", n)
	}
	if d := h.Get("WARC-Payload-Digest"); d != "" && (rec.Type() == "response" || rec.Type() == "resource") &&
		!digestMatches(d, rec.Payload()) && !chunked(rec.Block) {
		return fmt.Errorf("warc: record %d: payload digest mismatch", n)
	}
	return nil
}

// chunked reports whether an HTTP message's head says its body is chunked
// (other writers keep the chunks; the payload digest is then of the
// decoded body, which this reader does not check).
func chunked(block []byte) bool {
	head, _, _ := bytes.Cut(block, []byte("\r\n\r\n"))
	return bytes.Contains(bytes.ToLower(head), []byte("transfer-encoding: chunked"))
}
