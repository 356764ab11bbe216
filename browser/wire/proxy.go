package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrRefused is wrapped by the error of a request the proxy's dialer
// refused (rather than failed to connect); package browser wraps it in
// the errors of the pages refused.
var ErrRefused = errors.New("browser: request refused")

// DialFunc connects to a network address, as net.Dialer.DialContext does.
// A connection it refuses (rather than fails to make) must be refused with
// an error wrapping [ErrRefused].
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// RefusedHeader marks a response made by the proxy itself for a request its
// dialer refused, so the renderer knows the page's own server never
// answered.
const RefusedHeader = "X-Gleaner-Refused"

// proxy is the only way out of the browser when Options.Dial is set: an
// HTTP proxy on a loopback listener of ours (Chromium's --proxy-server, with
// nothing bypassing it) that makes every connection with dial. Plain HTTP
// requests, HTTPS and WebSocket tunnels (CONNECT), and so the requests of
// pages, frames, workers and prefetches alike, are all dialed by it: the
// dialer decides on the address actually connected to.
type Proxy struct {
	ln    net.Listener
	srv   *http.Server
	dial  DialFunc
	trans *http.Transport

	maxBytes int64 // bound of one response body, decoded
	keep     int   // bytes of a document kept for the renderer

	mu       sync.Mutex
	refused  map[string]error     // CONNECT targets the dialer refused, by host:port
	cuts     map[string]time.Time // tunnels cut at the bound, by host:port: when
	services int                  // requests to the browser's own services refused
	docs     map[string]*keptDoc
	order    []string     // of docs, oldest first
	rec      *Recorder    // nil unless recording (Options.Record)
	tls      *interceptor // nil unless recording HTTPS
	tags     atomic.Int64 // exchanges tagged (Exchange.Tag)
}

// keptDoc is the start of an HTML response as it went through the proxy:
// what a page still had when it was too busy to be captured.
type keptDoc struct {
	body []byte
	cut  bool // the response was over the proxy's bound and was cut
}

// maxKeptDocs bounds the documents the proxy keeps (the latest ones).
const maxKeptDocs = 64

// Start listens on 127.0.0.1 and serves the proxy until close. It
// cuts every response body at maxBytes, decoded (it asks for gzip and
// decodes it itself: no compression bomb reaches the browser), and keeps
// the first keep bytes of HTML responses.
func Start(dial DialFunc, maxBytes int64, keep int) (*Proxy, error) {
	if dial == nil {
		var d net.Dialer
		dial = d.DialContext
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("browser proxy: %w", err)
	}
	p := &Proxy{ln: ln, dial: dial, maxBytes: maxBytes, keep: keep, refused: map[string]error{}, cuts: map[string]time.Time{}, docs: map[string]*keptDoc{}}
	p.trans = &http.Transport{DialContext: dial, ForceAttemptHTTP2: false, MaxIdleConnsPerHost: 4,
		IdleConnTimeout: 30 * time.Second, ResponseHeaderTimeout: time.Minute}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go p.srv.Serve(ln)
	return p, nil
}

// addr is the proxy's address for --proxy-server.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

func (p *Proxy) Close() {
	p.srv.Close()
	p.trans.CloseIdleConnections()
}

// Services is how many requests to the browser's own services the proxy
// refused.
func (p *Proxy) Services() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.services
}

// TunnelBound is the bytes one opaque (TLS) tunnel may carry down.
func (p *Proxy) TunnelBound() int64 { return p.maxBytes * tunnelResponses }

// Recording reports whether the proxy records exchanges (Record).
func (p *Proxy) Recording() bool { return p.rec != nil }

// RecordsTLS reports whether the proxy records HTTPS exchanges too.
func (p *Proxy) RecordsTLS() bool { return p.tls != nil }

// Claim returns the exchanges of urls the proxy recorded since since (see
// Recorder.Claim); none when it does not record.
func (p *Proxy) Claim(urls, tags map[string]bool, since time.Time) ([]Exchange, string) {
	if p.rec == nil {
		return nil, ""
	}
	return p.rec.Claim(urls, tags, since)
}

// tag names the exchange rec records for the browser (Exchange.Tag).
func (p *Proxy) tag(rec *recording) string {
	t := strconv.FormatInt(p.tags.Add(1), 10)
	rec.mu.Lock()
	rec.ex.Tag = t
	rec.mu.Unlock()
	return t
}

// refusal returns the dialer's refusal of a CONNECT to hostport, if any.
func (p *Proxy) Refusal(hostport string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refused[hostport]
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if r.URL.IsAbs() && r.Method != http.MethodConnect {
		host = r.URL.Host
	}
	if browserService(host) {
		// Chromium's own traffic (updates, accounts, safe browsing,
		// metrics): no page of the crawl made it, and it must not leave
		// the machine, nor even reach the dialer.
		p.mu.Lock()
		p.services++
		p.mu.Unlock()
		p.fail(w, fmt.Errorf("%s is a service of the browser itself, not of a page: %w", host, ErrRefused))
		return
	}
	if r.Method == http.MethodConnect {
		if p.tls != nil {
			p.intercept(w, r) // recorded
			return
		}
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() {
		http.Error(w, "not a proxy request", http.StatusBadRequest)
		return
	}
	p.forward(w, r)
}

// tunnel serves a CONNECT: HTTPS, and WebSockets through the proxy.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	up, err := p.dial(r.Context(), "tcp", r.Host)
	if err != nil {
		if errors.Is(err, ErrRefused) {
			p.mu.Lock()
			p.refused[r.Host] = err
			p.mu.Unlock()
		}
		p.fail(w, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "no hijacking", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	io.WriteString(down, "HTTP/1.1 200 Connection Established\r\n\r\n")
	if n := buf.Reader.Buffered(); n > 0 {
		b, _ := buf.Reader.Peek(n)
		up.Write(b)
	}
	// What the proxy cannot read (TLS) it still bounds: the bytes the
	// server sends down one tunnel, counted as they travel (compressed, so
	// the bound is the one of a response, times tunnelResponses: a tunnel
	// carries many responses of a site). A tunnel over it is closed.
	lim := &limitedConn{Conn: up, left: p.maxBytes * tunnelResponses, closed: make(chan struct{}), onCut: func() {
		p.mu.Lock()
		p.cuts[r.Host] = time.Now()
		p.mu.Unlock()
	}}
	splice(down, lim)
}

// tunnelResponses is how many responses' worth of bytes one tunnel may
// carry down.
const tunnelResponses = 4

// cutHold bounds how long a tunnel cut at its bound stays open towards
// the browser (see limitedConn).
const cutHold = time.Minute

// limitedConn is an upstream connection that reads at most left bytes.
// Over them it is cut: onCut is called and the server's side closed at
// once, but the browser's side is held open (until the browser closes it,
// or cutHold), because a connection that ends mid-document makes Chromium
// drop, at times, what it had not yet parsed of it: the document as it
// arrived stays loading, and is captured as it stands.
type limitedConn struct {
	net.Conn
	left      int64
	cut       atomic.Bool
	onCut     func()
	closed    chan struct{}
	closeOnce sync.Once
}

func (c *limitedConn) Read(b []byte) (int, error) {
	if c.left <= 0 {
		if !c.cut.Swap(true) {
			c.Conn.Close()
			c.onCut()
		}
		select {
		case <-c.closed:
		case <-time.After(cutHold):
		}
		return 0, errTunnelCut
	}
	if int64(len(b)) > c.left {
		b = b[:c.left]
	}
	n, err := c.Conn.Read(b)
	c.left -= int64(n)
	return n, err
}

// Close closes the connection and ends a hold.
func (c *limitedConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

var errTunnelCut = errors.New("browser proxy: tunnel over its byte bound")

// cutSince reports whether a tunnel to hostport was cut at its bound since
// t.
func (p *Proxy) CutSince(hostport string, t time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.cuts[hostport]
	return ok && !c.Before(t)
}

// browserServiceHosts are hosts of Chromium's own services that it calls
// by itself, whatever the flags (component and extension updates, account
// and sign-in checks, safe browsing, metrics, network time); suffixes
// start with a dot.
var browserServiceHosts = []string{
	"update.googleapis.com", "clientservices.googleapis.com", "accounts.google.com",
	"safebrowsing.googleapis.com", "safebrowsing.google.com", "sb-ssl.google.com",
	"optimizationguide-pa.googleapis.com", "content-autofill.googleapis.com",
	"android.clients.google.com", "dl.google.com", "oauth2.googleapis.com",
	"chromesyncpasswords-pa.googleapis.com", "passwordsleakcheck-pa.googleapis.com",
	"mtalk.google.com", "play.googleapis.com", "translate.googleapis.com",
	"clients.google.com", ".gvt1.com", ".gvt2.com",
}

// browserService reports whether host (with or without a port) is one of
// the browser's own services: browserServiceHosts, or clientsN.google.com.
func browserService(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, s := range browserServiceHosts {
		if host == s || (strings.HasPrefix(s, ".") && strings.HasSuffix(host, s)) {
			return true
		}
	}
	if n, ok := strings.CutPrefix(host, "clients"); ok {
		if d, ok := strings.CutSuffix(n, ".google.com"); ok && d != "" && strings.Trim(d, "0123456789") == "" {
			return true
		}
	}
	return false
}

// splice copies both ways until either side ends, then closes both.
func splice(a, b io.ReadWriteCloser) {
	done := make(chan struct{}, 2)
	cp := func(dst, src io.ReadWriteCloser) {
		io.Copy(dst, src)
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	a.Close()
	b.Close()
	<-done
}

// hopHeaders are the hop-by-hop headers a proxy must not pass on.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding"}

// forward serves a plain HTTP request (an absolute URL), upgrades
// (WebSockets over http:) included.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request) {
	out := r.Clone(r.Context())
	out.RequestURI = ""
	// Without it the transport asks for gzip and decodes it, so the bound
	// counts decoded bytes.
	out.Header.Del("Accept-Encoding")
	upgrade := r.Header.Get("Upgrade")
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	if upgrade != "" {
		out.Header.Set("Connection", "Upgrade")
		out.Header.Set("Upgrade", upgrade)
	}
	out, rec := p.proxyRecording(out)
	resp, err := p.trans.RoundTrip(out)
	if err != nil {
		p.fail(w, err)
		return
	}
	defer resp.Body.Close()
	head := resp.Header.Clone() // as received, for the record
	if resp.StatusCode == http.StatusSwitchingProtocols {
		p.switchProtocols(w, resp)
		return
	}
	recordRaw(resp, rec)
	for _, h := range hopHeaders {
		resp.Header.Del(h)
	}
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	if rec != nil {
		w.Header().Set(TagHeader, p.tag(rec))
	}
	if resp.ContentLength > p.maxBytes {
		w.Header().Del("Content-Length")
	}
	w.WriteHeader(resp.StatusCode)
	p.copyBody(w, resp, r.URL.String())
	p.recorded(rec, out, resp, head)
}

// copyBody passes at most maxBytes of resp's body on, and keeps the start
// of an HTML one under url. A body over the bound ends there, cleanly, so
// the browser renders what came; the cut is recorded.
func (p *Proxy) copyBody(w http.ResponseWriter, resp *http.Response, url string) {
	var doc *keptDoc
	// Each piece is passed on as it comes: a page streamed slowly (a live
	// ticker) must reach the browser before it ends, not 4 KiB at a time.
	dst := io.Writer(flushWriter{w})
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/html" || mt == "application/xhtml+xml" {
		doc = &keptDoc{}
		p.keepDoc(url, doc)
		dst = io.MultiWriter(dst, &keepWriter{p: p, doc: doc})
	}
	n, _ := io.Copy(dst, io.LimitReader(resp.Body, p.maxBytes))
	if n == p.maxBytes {
		if extra, _ := resp.Body.Read(make([]byte, 1)); extra > 0 && doc != nil {
			p.mu.Lock()
			doc.cut = true
			p.mu.Unlock()
		}
	}
}

// flushWriter flushes each write to the client at once.
type flushWriter struct{ w http.ResponseWriter }

func (f flushWriter) Write(b []byte) (int, error) {
	n, err := f.w.Write(b)
	if fl, ok := f.w.(http.Flusher); ok {
		fl.Flush()
	}
	return n, err
}

// keepDoc files doc under url, forgetting the oldest beyond maxKeptDocs.
func (p *Proxy) keepDoc(url string, doc *keptDoc) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.docs[url]; !ok {
		p.order = append(p.order, url)
	}
	p.docs[url] = doc
	if len(p.order) > maxKeptDocs {
		delete(p.docs, p.order[0])
		p.order = p.order[1:]
	}
}

// doc returns a copy of what the proxy kept of the document at url.
func (p *Proxy) Doc(url string) (body []byte, cut, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.docs[url]
	if d == nil {
		return nil, false, false
	}
	return append([]byte(nil), d.body...), d.cut, true
}

// keepWriter appends to a kept document up to the proxy's keep bytes.
type keepWriter struct {
	p   *Proxy
	doc *keptDoc
}

func (k *keepWriter) Write(b []byte) (int, error) {
	k.p.mu.Lock()
	defer k.p.mu.Unlock()
	if room := k.p.keep - len(k.doc.body); room > 0 {
		k.doc.body = append(k.doc.body, b[:min(room, len(b))]...)
	}
	return len(b), nil
}

// fail answers a request the proxy could not pass on: 403 marked with
// RefusedHeader when the dialer refused the target, 502 otherwise.
func (p *Proxy) fail(w http.ResponseWriter, err error) {
	if errors.Is(err, ErrRefused) {
		w.Header().Set(RefusedHeader, strings.ReplaceAll(err.Error(), "\n", " "))
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	http.Error(w, err.Error(), http.StatusBadGateway)
}

// switchProtocols joins the client to an upgraded upstream connection.
func (p *Proxy) switchProtocols(w http.ResponseWriter, resp *http.Response) {
	up, ok := resp.Body.(io.ReadWriteCloser)
	hj, ok2 := w.(http.Hijacker)
	if !ok || !ok2 {
		http.Error(w, "cannot switch protocols", http.StatusBadGateway)
		return
	}
	down, _, err := hj.Hijack()
	if err != nil {
		return
	}
	resp.Body = http.NoBody
	resp.Write(down)
	splice(down, up)
}
