package wire

import (
	"strings"
	"testing"
)

// TestWireHead checks the framing made true of the payload kept.
func TestWireHead(t *testing.T) {
	for _, c := range []struct {
		name, head string
		f          framing
		want       string
	}{
		{"kept", "HTTP/1.0 200 OK\r\nb: 1\r\nContent-Length: 4\r\n\r\n", framing{payloadLen: 2}, "HTTP/1.0 200 OK\r\nb: 1\r\nContent-Length: 4\r\n\r\n"},
		{"unsized", "HTTP/1.1 200 OK\nb: 1\n\n", framing{payloadLen: 2}, "HTTP/1.1 200 OK\r\nb: 1\r\nContent-Length: 2\r\n\r\n"},
		{"decoded", "HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: 20\r\n\r\n", framing{payloadLen: 9, decoded: true},
			"HTTP/1.1 200 OK\r\nX-Archive-Orig-Content-Encoding: gzip\r\nContent-Length: 9\r\n\r\n"},
		{"folded", "HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\nAuthorization: x\r\nContent-Length: 0\r\n\r\n", framing{secrets: true},
			"HTTP/1.1 200 OK\r\nX-Long: a b\r\nAuthorization: x\r\nContent-Length: 0\r\n\r\n"},
	} {
		if got := string(wireHead([]byte(c.head), c.f)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if headEnd([]byte("HTTP/1.1 200 OK\r\nA: b\r\n")) != -1 || headEnd([]byte("HTTP/1.1 200 OK\r\n\r\nbody")) != 19 {
		t.Error("headEnd")
	}
	if !strings.HasPrefix(string(wireHead([]byte("HTTP/1.1 204 No Content\r\n\r\n"), framing{})), "HTTP/1.1 204") {
		t.Error("status line")
	}
}

// TestHeadConnSniff checks what an armed connection keeps: the final head
// of a response read in pieces (a 103 before it skipped), nothing of bytes
// that are no HTTP head.
func TestHeadConnSniff(t *testing.T) {
	for _, c := range []struct {
		name   string
		pieces []string
		want   string
	}{
		{"pieces", []string{"HTTP/1.1 103 Early\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nB: 1", "\r\nA: 2\r\n\r\nbody"}, "HTTP/1.1 200 OK\r\nB: 1\r\nA: 2\r\n\r\n"},
		{"not http", []string{"\x17\x03\x03\x00\x20\n\r\n", "HTTP/1.1 200 OK\r\n\r\n"}, ""},
	} {
		rec := &recording{}
		hc := &headConn{}
		hc.arm(rec)
		for _, p := range c.pieces {
			hc.sniff([]byte(p))
		}
		if string(rec.wire) != c.want {
			t.Errorf("%s: kept %q, want %q", c.name, rec.wire, c.want)
		}
	}
}
