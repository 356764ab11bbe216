package wire

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
)

// A response's header block as the server sent it (order and case of the
// names, its own status line) is lost once net/http has read it into a
// map. The connections a recording transport makes are therefore wrapped
// (headConn): a recording arms its connection when the transport hands it
// over (httptrace GotConn), and the connection keeps the bytes of the
// next response head it reads. HTTP/1.1 only: a recording transport does
// not negotiate HTTP/2, whose headers have no wire form to keep.

// maxWireHead bounds the response head a connection keeps; a longer one
// is recorded in canonical form instead.
const maxWireHead = 256 << 10

// headConn is a connection that keeps the next response head it reads for
// the recording that armed it.
type headConn struct {
	net.Conn
	mu  sync.Mutex
	rec *recording // armed: the next head read goes to it
	buf []byte
}

// arm makes the next response head read on c rec's.
func (c *headConn) arm(rec *recording) {
	c.mu.Lock()
	c.rec, c.buf = rec, nil
	c.mu.Unlock()
}

func (c *headConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.sniff(b[:n])
	}
	return n, err
}

// sniff adds bytes read to the head being kept, and hands the head to its
// recording once it is whole (informational 1xx heads are skipped: the
// final response's is the record's).
func (c *headConn) sniff(b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rec == nil {
		return
	}
	c.buf = append(c.buf, b...)
	if len(c.buf) >= 5 && !bytes.HasPrefix(c.buf, []byte("HTTP/")) {
		// Not a response head (TLS the transport made itself over a
		// proxy's tunnel): nothing to keep.
		c.rec, c.buf = nil, nil
		return
	}
	for {
		end := headEnd(c.buf)
		if end < 0 {
			if len(c.buf) > maxWireHead {
				c.rec, c.buf = nil, nil
			}
			return
		}
		head := c.buf[:end]
		if !informational(head) {
			c.rec.setWire(bytes.Clone(head))
			c.rec, c.buf = nil, nil
			return
		}
		c.buf = c.buf[end:]
	}
}

// headEnd is the length of the head at the start of b, through its blank
// line (CRLF or a bare LF, as servers send), or -1 when b does not hold it
// all.
func headEnd(b []byte) int {
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1
		}
		line := b[i : i+j]
		i += j + 1
		if len(line) == 0 || (len(line) == 1 && line[0] == '\r') {
			if i > 2 { // not a stray blank line before the status line
				return i
			}
		}
	}
	return -1
}

// informational reports whether a head's status is 1xx.
func informational(head []byte) bool {
	_, rest, ok := bytes.Cut(head, []byte(" "))
	return ok && len(rest) > 0 && rest[0] == '1'
}

// armConn arms conn for rec when it is a recording transport's.
func armConn(conn net.Conn, rec *recording) {
	if hc, ok := conn.(*headConn); ok {
		hc.arm(rec)
	}
}

// wireTransport is a clone of t whose connections keep response heads
// (headConn): plain ones through t's dialer, TLS ones made here over it
// (so that the bytes kept are the decrypted ones), HTTP/1.1 only.
func wireTransport(t *http.Transport) *http.Transport {
	nt := t.Clone()
	dial := nt.DialContext
	if dial == nil {
		var d net.Dialer
		dial = d.DialContext
	}
	nt.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &headConn{Conn: c}, nil
	}
	nt.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialTLSWire(ctx, nt, dial, network, addr)
	}
	nt.ForceAttemptHTTP2 = false
	nt.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	return nt
}

// dialTLSWire connects to addr with dial and makes it TLS as t would (its
// TLSClientConfig, HTTP/1.1 offered only), wrapped to keep response heads.
func dialTLSWire(ctx context.Context, t *http.Transport, dial func(context.Context, string, string) (net.Conn, error), network, addr string) (net.Conn, error) {
	raw, err := dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{}
	if t.TLSClientConfig != nil {
		cfg = t.TLSClientConfig.Clone()
	}
	if cfg.ServerName == "" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		cfg.ServerName = host
	}
	cfg.NextProtos = []string{"http/1.1"}
	tc := tls.Client(raw, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, fmt.Errorf("tls %s: %w", addr, err)
	}
	return &headConn{Conn: tc}, nil
}

// headLine is one header field of a head as sent: its name as spelled,
// and the line's bytes after the colon.
type headLine struct {
	name  string
	value string
}

// parseWireHead splits a head into its status line and header fields in
// order; a continuation line (obsolete folding) stays with its field.
func parseWireHead(head []byte) (string, []headLine) {
	lines := strings.Split(strings.TrimRight(string(head), "\r\n"), "\n")
	status := strings.TrimSuffix(lines[0], "\r")
	var out []headLine
	for _, l := range lines[1:] {
		l = strings.TrimSuffix(l, "\r")
		if (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(out) > 0 {
			out[len(out)-1].value += " " + strings.TrimSpace(l)
			continue
		}
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			continue // not a field: net/http refused it or ignored it
		}
		out = append(out, headLine{name: name, value: strings.TrimSpace(value)})
	}
	return status, out
}

// framing says how the kept payload differs from what the head describes.
type framing struct {
	payloadLen int
	decoded    bool // the payload was decoded before it was recorded
	secrets    bool // keep the values of secret headers
}

// wireHead is a recorded response head kept in the server's order and
// case, with its framing made true of the payload as kept (as
// responseHead does): Transfer-Encoding dropped, and the Content-Length of
// the payload as kept where the body was chunked, decoded or unsized; an
// encoding already decoded moved to X-Archive-Orig-Content-Encoding;
// secret values withheld unless asked.
func wireHead(head []byte, f framing) []byte {
	status, fields := parseWireHead(head)
	setLength := f.decoded || !hasField(fields, "Content-Length") || hasField(fields, "Transfer-Encoding")
	var b bytes.Buffer
	b.WriteString(status + "\r\n")
	for _, fl := range fields {
		name, value, keep := f.adjust(fl, setLength)
		if keep {
			fmt.Fprintf(&b, "%s: %s\r\n", name, value)
		}
	}
	if setLength {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", f.payloadLen)
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// adjust is a field as wireHead writes it, or keep false when it is left
// out (framing that no longer holds).
func (f framing) adjust(fl headLine, setLength bool) (name, value string, keep bool) {
	name, value = fl.name, fl.value
	switch http.CanonicalHeaderKey(name) {
	case "Transfer-Encoding":
		return "", "", false
	case "Content-Length":
		if setLength {
			return "", "", false // written once, true of the payload
		}
	case "Content-Encoding":
		if f.decoded {
			name = "X-Archive-Orig-Content-Encoding"
		}
	}
	if !f.secrets && secretHeaders[http.CanonicalHeaderKey(name)] {
		value = withheld
	}
	return name, value, true
}

// hasField reports whether fields hold one named name (any case).
func hasField(fields []headLine, name string) bool {
	for _, fl := range fields {
		if strings.EqualFold(fl.name, name) {
			return true
		}
	}
	return false
}
