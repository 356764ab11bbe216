package wire

import (
	"bytes"
	"compress/gzip"
	"crypto/x509"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// RecordOptions ask for the HTTP exchanges of a page to be kept as they
// went over the wire (Page.Exchanges): the request the browser (or the
// plain fetcher) sent and the response the server gave, status line,
// headers and body bytes as served, for an archive (WARC) to cite. The zero
// value records nothing.
//
// The renderer records through its proxy (the one Options.Dial puts in
// front of Chromium; recording starts it, with an ordinary dialer, when Dial
// is not set): it sees what the server sent before the browser decodes
// anything, and the address it connected to. HTTPS too: the proxy ends
// the browser's TLS with a certificate of its own (accepted by this
// browser only, by its key) and makes the request itself, verifying the
// server as any client does (see interceptor); SkipTLS leaves HTTPS
// tunnels opaque and unrecorded.
type RecordOptions struct {
	// On turns recording on.
	On bool
	// Media keeps images, audio, video and fonts too; a renderer then
	// downloads them unless its caller's Options.Block names them.
	Media bool
	// Secrets keeps the values of Cookie, Set-Cookie, Authorization and
	// Proxy-Authorization headers; by default they are replaced by
	// "(withheld)" (the header itself stays, so a reader knows it was
	// sent).
	Secrets bool
	// MaxRecordBytes bounds the body kept of one response (default 8 MiB);
	// a longer one is kept cut, marked Truncated.
	MaxRecordBytes int64
	// MaxPageBytes bounds the bodies kept for one page (default 32 MiB):
	// exchanges past it are left out, and the page notes it.
	MaxPageBytes int64
	// MaxTotalBytes bounds what a renderer or fetcher records in its life
	// (default 4 GiB): a crawl's archive cannot grow without end. Past it
	// nothing more is recorded and pages note it.
	MaxTotalBytes int64
	// SkipTLS leaves the renderer's HTTPS tunnels alone: HTTPS exchanges
	// are then not recorded (pages note it).
	SkipTLS bool

	// RootCAs, when set, are the certificate authorities the renderer's
	// proxy trusts for HTTPS (tests: a TLS test server's).
	RootCAs *x509.CertPool
}

func (o RecordOptions) withDefaults() RecordOptions {
	if o.MaxRecordBytes <= 0 {
		o.MaxRecordBytes = 8 << 20
	}
	if o.MaxPageBytes <= 0 {
		o.MaxPageBytes = 32 << 20
	}
	if o.MaxTotalBytes <= 0 {
		o.MaxTotalBytes = 4 << 30
	}
	return o
}

// Exchange is one HTTP request and its response, as exchanged on the wire.
type Exchange struct {
	URL    string
	Method string
	// Request is the request line and header block as sent, ending with
	// the blank line; RequestBody its body (none for a GET).
	Request     []byte
	RequestBody []byte
	// Response is the status line and header block as received, ending
	// with the blank line: the status line and fields in the order and
	// case the server sent them (HTTP/1.1; in Go's canonical form, sorted,
	// only where the head could not be read off the connection), and
	// framing headers describe Payload as kept: a chunked body is kept
	// whole with its Content-Length; a compressed body is kept compressed,
	// with its Content-Encoding (only a body some other transport of the
	// plain fetcher decoded before it could be recorded is kept decoded,
	// its encoding moved to X-Archive-Orig-Content-Encoding).
	Response []byte
	// Payload is the response body as served, cut at
	// RecordOptions.MaxRecordBytes when Truncated.
	Payload   []byte
	Truncated bool
	// IP is the address the request was sent to ("" when unknown).
	IP string
	At time.Time // when the request was sent
	// Tag is the proxy's name for the exchange, sent to the browser with
	// the response (TagHeader; not in Response) so that the page that
	// received it claims it, whatever other tab fetched the same URL.
	Tag string
}

// TagHeader is the response header the proxy adds to what it passes to
// the browser: the exchange's Tag.
const TagHeader = "X-Gleaner-Exchange"

// Size is the bytes the exchange holds.
func (e *Exchange) Size() int64 {
	return int64(len(e.Request) + len(e.RequestBody) + len(e.Response) + len(e.Payload))
}

// withheld replaces the value of a secret header in a record.
const withheld = "(withheld)"

// secretHeaders are the headers whose values are withheld unless
// RecordOptions.Secrets.
var secretHeaders = map[string]bool{"Cookie": true, "Set-Cookie": true, "Authorization": true, "Proxy-Authorization": true}

// recording is one exchange being recorded: the trace fills the request
// head and the address, the body writer the payload.
type recording struct {
	opt     RecordOptions
	mu      sync.Mutex
	ex      Exchange
	fields  []string // request header lines as written
	body    bytes.Buffer
	sent    bytes.Buffer // the request body, as far as bounded
	raw     bool         // the body is kept encoded as served (recordRaw decodes it for the reader)
	tracked bool         // recordRaw follows the body: whole is known
	whole   bool         // the body was read to its end
	wire    []byte       // the response head as read off the connection (headConn)
}

// setWire keeps the response head as the connection read it.
func (rec *recording) setWire(head []byte) {
	rec.mu.Lock()
	rec.wire = head
	rec.mu.Unlock()
}

// requestBody tees a request body into its recording as the transport
// sends it.
type requestBody struct {
	io.ReadCloser
	rec *recording
}

func (b *requestBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.rec.mu.Lock()
	if room := b.rec.opt.MaxRecordBytes - int64(b.rec.sent.Len()); room > 0 {
		b.rec.sent.Write(p[:min(int64(n), room)])
	}
	b.rec.mu.Unlock()
	return n, err
}

// startRecording returns req traced for recording (the transport reports
// the header fields it writes and the connection it used) and the
// recording.
func startRecording(req *http.Request, opt RecordOptions) (*http.Request, *recording) {
	rec := &recording{opt: opt, ex: Exchange{URL: req.URL.String(), Method: req.Method, At: time.Now()}}
	trace := &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			armConn(info.Conn, rec)
			if a, ok := info.Conn.RemoteAddr().(*net.TCPAddr); ok {
				rec.mu.Lock()
				rec.ex.IP = a.IP.String()
				rec.mu.Unlock()
			}
		},
		WroteHeaderField: func(key string, value []string) {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			for _, v := range value {
				rec.fields = append(rec.fields, key+": "+rec.secret(key, v))
			}
		},
	}
	out := req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	if out.Body != nil && out.Body != http.NoBody {
		out.Body = &requestBody{ReadCloser: out.Body, rec: rec}
	}
	return out, rec
}

// secret is v, or withheld for a secret header unless asked.
func (rec *recording) secret(key, v string) string {
	if !rec.opt.Secrets && secretHeaders[http.CanonicalHeaderKey(key)] {
		return withheld
	}
	return v
}

// Write keeps body bytes up to the record bound.
func (rec *recording) Write(b []byte) (int, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	room := rec.opt.MaxRecordBytes - int64(rec.body.Len())
	if int64(len(b)) > room {
		rec.ex.Truncated = true
		rec.body.Write(b[:max(room, 0)])
	} else {
		rec.body.Write(b)
	}
	return len(b), nil
}

// finish completes the exchange with resp's head (taken before a proxy
// strips hop-by-hop headers: see responseHead) and reports whether it is
// to be kept: media only by option.
func (rec *recording) finish(req *http.Request, head []byte, contentType string) (Exchange, bool) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if !rec.opt.Media && isMedia(contentType) {
		return Exchange{}, false
	}
	if rec.tracked && !rec.whole {
		rec.ex.Truncated = true // the reader stopped before the end
	}
	var h bytes.Buffer
	fmt.Fprintf(&h, "%s %s HTTP/1.1\r\n", req.Method, req.URL.RequestURI())
	for _, f := range rec.fields {
		h.WriteString(f)
		h.WriteString("\r\n")
	}
	h.WriteString("\r\n")
	ex := rec.ex
	ex.Request = h.Bytes()
	ex.RequestBody = bytes.Clone(rec.sent.Bytes())
	ex.Response = head
	ex.Payload = bytes.Clone(rec.body.Bytes())
	return ex, true
}

// responseHead is resp's status line and headers, with the framing headers
// made true of the payload as kept (see Exchange.Response) and secrets
// withheld unless asked.
func responseHead(resp *http.Response, opt RecordOptions, payloadLen int) []byte {
	h := resp.Header.Clone()
	if resp.Uncompressed {
		// A client's own transport asked for gzip and decoded it (and
		// dropped the header) before the recording saw it: the payload
		// kept is the decoded one.
		h.Set("X-Archive-Orig-Content-Encoding", "gzip")
	}
	h.Del("Transfer-Encoding")
	if resp.Uncompressed || len(resp.TransferEncoding) > 0 || h.Get("Content-Length") == "" {
		h.Set("Content-Length", fmt.Sprint(payloadLen))
	}
	var b bytes.Buffer
	proto := resp.Proto
	if proto == "" {
		proto = "HTTP/1.1"
	}
	fmt.Fprintf(&b, "%s %s\r\n", proto, statusLine(resp))
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			if !opt.Secrets && secretHeaders[k] {
				v = withheld
			}
			fmt.Fprintf(&b, "%s: %s\r\n", k, strings.NewReplacer("\r", " ", "\n", " ").Replace(v))
		}
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// statusLine is resp's "200 OK" part.
func statusLine(resp *http.Response) string {
	if s := resp.Status; len(s) > 4 && s[3] == ' ' {
		return s
	}
	text := http.StatusText(resp.StatusCode)
	if text == "" {
		text = "Status"
	}
	return fmt.Sprintf("%d %s", resp.StatusCode, text)
}

// isMedia reports whether a Content-Type is an image, audio, video or
// font.
func isMedia(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	for _, p := range []string{"image/", "audio/", "video/", "font/", "application/font-", "application/x-font-"} {
		if strings.HasPrefix(mt, p) {
			return true
		}
	}
	return false
}

// recorder keeps the exchanges the proxy recorded, the oldest first to go
// when they exceed its bound, until the page that made them claims them.
type Recorder struct {
	opt    RecordOptions
	mu     sync.Mutex
	recent []*Exchange // oldest first
	held   int64       // bytes of recent
	total  int64       // bytes ever recorded
	full   bool        // MaxTotalBytes was reached

	wireMu sync.Mutex
	wireOf *http.Transport // the transport wire clones (Transport)
	wire   *http.Transport // keeps response heads as read
}

// NewRecorder returns a recorder of opt, whose bounds hold across the
// fetches or pages it records.
func NewRecorder(opt RecordOptions) *Recorder {
	return &Recorder{opt: opt.withDefaults()}
}

// heldPages is how many pages' worth of exchanges the recorder holds for
// pages rendering at once.
const heldPages = 4

// admit counts n more recorded bytes, unless that would pass
// MaxTotalBytes.
func (r *Recorder) admit(n int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.total+n > r.opt.MaxTotalBytes {
		r.full = true
		return false
	}
	r.total += n
	return true
}

// note says what a page's exchanges lack: left exchanges over the page
// bound, or all those after the total bound was reached.
func (r *Recorder) note(left int) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case left > 0:
		return fmt.Sprintf("record: %d exchanges over the page bound of %d bytes left out", left, r.opt.MaxPageBytes)
	case r.full:
		return fmt.Sprintf("record: the bound of %d recorded bytes was reached; later exchanges are not recorded", r.opt.MaxTotalBytes)
	}
	return ""
}

// add keeps ex, forgetting the oldest exchanges past the bound.
func (r *Recorder) add(ex Exchange) {
	n := ex.Size()
	if !r.admit(n) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recent = append(r.recent, &ex)
	r.held += n
	for len(r.recent) > 1 && r.held > heldPages*r.opt.MaxPageBytes {
		r.held -= r.recent[0].Size()
		r.recent[0] = nil
		r.recent = r.recent[1:]
	}
}

// Claim returns a page's exchanges recorded since since, in the order
// they were sent, within the page bound, and a note when some were left
// out: those whose Tag the page received (tags), and those without a
// tag whose URL it requested (urls). The recorder forgets them: it holds
// only what pages in progress (and pages that failed, until the bound
// pushes them out) made.
func (r *Recorder) Claim(urls, tags map[string]bool, since time.Time) ([]Exchange, string) {
	r.mu.Lock()
	var out []Exchange
	var size int64
	left := 0
	kept := r.recent[:0]
	for _, ex := range r.recent {
		switch {
		case ex.At.Before(since) || !ex.madeBy(urls, tags):
			kept = append(kept, ex) // another page's
			continue
		case size+ex.Size() > r.opt.MaxPageBytes:
			left++
		default:
			size += ex.Size()
			out = append(out, *ex)
		}
		r.held -= ex.Size()
	}
	clear(r.recent[len(kept):])
	r.recent = kept
	r.mu.Unlock()
	slices.SortStableFunc(out, func(a, b Exchange) int { return a.At.Compare(b.At) })
	return out, r.note(left)
}

// madeBy reports whether a page that received tags and requested urls
// made ex: by its tag when it has one (two tabs may fetch one URL at
// once), else by its URL.
func (ex *Exchange) madeBy(urls, tags map[string]bool) bool {
	if ex.Tag != "" {
		return tags[ex.Tag]
	}
	return urls[ex.URL]
}

// proxyRecording starts recording a request the proxy forwards; nil when
// the proxy does not record.
func (p *Proxy) proxyRecording(out *http.Request) (*http.Request, *recording) {
	if p.rec == nil {
		return out, nil
	}
	askGzip(out)
	return startRecording(out, p.rec.opt)
}

// askGzip asks for gzip itself, as a transport would, unless the request
// asks for an encoding or a range: the transport then leaves the body as
// the server sent it, for the record, and recordRaw decodes it for the
// reader.
func askGzip(req *http.Request) {
	if req.Header.Get("Accept-Encoding") == "" && req.Header.Get("Range") == "" && req.Method != http.MethodHead {
		req.Header.Set("Accept-Encoding", "gzip")
	}
}

// recordRaw makes rec keep resp's body bytes as received while they are
// read; a gzip body is handed on decoded, its headers adjusted, as the
// transport does when it asked for gzip itself. Without a recording it
// does nothing.
func recordRaw(resp *http.Response, rec *recording) {
	if rec == nil {
		return
	}
	raw := &rawBody{ReadCloser: resp.Body, rec: rec}
	resp.Body = raw
	rec.mu.Lock()
	rec.tracked = true
	rec.mu.Unlock()
	if !strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		return
	}
	resp.Body = &gunzipBody{raw: raw}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength, resp.Uncompressed = -1, true
	rec.mu.Lock()
	rec.raw = true
	rec.mu.Unlock()
}

// rawBody tees a response body into its recording as it is read, and
// notes whether it was read to its end.
type rawBody struct {
	io.ReadCloser
	rec *recording
}

func (b *rawBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.rec.Write(p[:n])
	if err == io.EOF {
		b.rec.mu.Lock()
		b.rec.whole = true
		b.rec.mu.Unlock()
	}
	return n, err
}

// gunzipBody decodes a gzip body on its first read.
type gunzipBody struct {
	raw *rawBody
	zr  *gzip.Reader
	err error
}

func (g *gunzipBody) Read(p []byte) (int, error) {
	if g.zr == nil && g.err == nil {
		g.zr, g.err = gzip.NewReader(g.raw)
	}
	if g.err != nil {
		return 0, g.err
	}
	return g.zr.Read(p)
}

func (g *gunzipBody) Close() error { return g.raw.Close() }

// recorded files a finished recording of the proxy's.
func (p *Proxy) recorded(rec *recording, req *http.Request, resp *http.Response, head http.Header) {
	if rec == nil {
		return
	}
	if ex, ok := rec.finish(req, rec.head(resp, head), head.Get("Content-Type")); ok {
		p.rec.add(ex)
	}
}

// head is the recorded head of resp: as the connection read it when it
// was kept (wireHead), else made from the headers received, hdr (see
// responseHead).
func (rec *recording) head(resp *http.Response, hdr http.Header) []byte {
	saved := *resp
	saved.Header = hdr
	rec.mu.Lock()
	n := rec.body.Len()
	saved.Uncompressed = resp.Uncompressed && !rec.raw // decoded by the transport, not for the reader
	wire := rec.wire
	rec.mu.Unlock()
	if wire != nil {
		return wireHead(wire, framing{payloadLen: n, decoded: saved.Uncompressed, secrets: rec.opt.Secrets})
	}
	return responseHead(&saved, rec.opt, n)
}

// Transport records every round trip of an HTTP client (the plain
// fetcher's, redirect hops included).
type Transport struct {
	base http.RoundTripper
	rec  *Recorder
	mu   sync.Mutex
	got  []*roundTrip
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	asked := req.Clone(req.Context())
	askGzip(asked)
	traced, rec := startRecording(asked, t.rec.opt)
	resp, err := t.base.RoundTrip(traced)
	if err != nil {
		return nil, err
	}
	b := &roundTrip{rec: rec, req: req, resp: resp, hdr: resp.Header.Clone()}
	recordRaw(resp, rec)
	t.mu.Lock()
	t.got = append(t.got, b)
	t.mu.Unlock()
	return resp, nil
}

// exchanges are the exchanges of the round trips so far (bodies as far as
// they were read), within the page and total bounds, and a note when some
// were left out.
func (t *Transport) Exchanges() ([]Exchange, string) {
	t.mu.Lock()
	got := t.got
	t.got = nil
	t.mu.Unlock()
	var out []Exchange
	var size int64
	left := 0
	for _, b := range got {
		ex, ok := b.rec.finish(b.req, b.rec.head(b.resp, b.hdr), b.hdr.Get("Content-Type"))
		if !ok {
			continue
		}
		if size+ex.Size() > t.rec.opt.MaxPageBytes {
			left++
			continue
		}
		if !t.rec.admit(ex.Size()) {
			break
		}
		size += ex.Size()
		out = append(out, ex)
	}
	return out, t.rec.note(left)
}

// roundTrip is a recorded round trip of the plain fetcher's.
type roundTrip struct {
	rec  *recording
	req  *http.Request
	resp *http.Response
	hdr  http.Header // as received
}

// Transport returns a transport recording every round trip of base (a
// plain client's, redirect hops included; nil: http.DefaultTransport)
// into r: one per fetch, whose Exchanges are the fetch's.
func (r *Recorder) Transport(base http.RoundTripper) *Transport {
	return &Transport{base: r.wireBase(base), rec: r}
}

// wireBase is the transport a recording transport wraps: base, or
// http.DefaultTransport, cloned once to keep response heads as read
// (wireTransport) when it is an *http.Transport.
func (r *Recorder) wireBase(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	t, ok := base.(*http.Transport)
	if !ok {
		return base
	}
	r.wireMu.Lock()
	defer r.wireMu.Unlock()
	if r.wireOf != t {
		if r.wire != nil {
			r.wire.CloseIdleConnections()
		}
		r.wireOf, r.wire = t, wireTransport(t)
	}
	return r.wire
}

// CloseIdleConnections closes the idle connections of the transports r
// made.
func (r *Recorder) CloseIdleConnections() {
	r.wireMu.Lock()
	defer r.wireMu.Unlock()
	if r.wire != nil {
		r.wire.CloseIdleConnections()
	}
}
