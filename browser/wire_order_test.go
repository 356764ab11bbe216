package browser

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"testing"
	"time"
)

// wireCase is a response a raw-socket server sends as written (names in
// unusual case and order) and the head the record must keep.
type wireCase struct {
	path, sent, head, payload string
}

var wireCases = []wireCase{
	{
		path: "/odd",
		sent: "HTTP/1.1 200 OK\r\nx-zeta: last-first\r\nContent-TYPE: text/html; charset=utf-8\r\nALPHA: 1\r\n" +
			"set-cookie: a=b\r\nContent-Length: 29\r\n\r\n<html><body>odd</body></html>",
		head: "HTTP/1.1 200 OK\r\nx-zeta: last-first\r\nContent-TYPE: text/html; charset=utf-8\r\nALPHA: 1\r\n" +
			"set-cookie: (withheld)\r\nContent-Length: 29\r\n\r\n",
		payload: "<html><body>odd</body></html>",
	},
	{
		path: "/chunked",
		sent: "HTTP/1.1 200 Fine\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\nX-b: 2\r\n\r\n" +
			"c\r\n<html><body>\r\n15\r\nchunked</body></html>\r\n0\r\n\r\n",
		head:    "HTTP/1.1 200 Fine\r\ncontent-type: text/html\r\nX-b: 2\r\nContent-Length: 33\r\n\r\n",
		payload: "<html><body>chunked</body></html>",
	},
	{
		path: "/hints",
		sent: "HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n" +
			"HTTP/1.1 200 OK\r\nzz: 1\r\ncontent-length: 31\r\nCONTENT-type: text/html\r\n\r\n<html><body>hints</body></html>",
		head:    "HTTP/1.1 200 OK\r\nzz: 1\r\ncontent-length: 31\r\nCONTENT-type: text/html\r\n\r\n",
		payload: "<html><body>hints</body></html>",
	},
}

// rawServer answers each request on 127.0.0.1 with the bytes of its
// path's case, as written (404 otherwise), keeping connections alive.
func rawServer(t *testing.T, cases []wireCase) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	byPath := map[string]string{}
	for _, c := range cases {
		byPath[c.path] = c.sent
	}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveRaw(conn, byPath)
		}
	}()
	return "http://" + ln.Addr().String()
}

// serveRaw answers the requests of one connection.
func serveRaw(conn net.Conn, byPath map[string]string) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	for {
		conn.SetDeadline(time.Now().Add(20 * time.Second))
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		req.Body.Close()
		sent, ok := byPath[req.URL.Path]
		if !ok {
			sent = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
		}
		if _, err := conn.Write([]byte(sent)); err != nil {
			return
		}
	}
}

// TestRecordWireOrder records responses whose header names a raw-socket
// server sends in unusual order and case: the record keeps them as sent,
// plain and rendered (through the proxy), with only the framing made true
// of the payload kept (a chunked body's Transfer-Encoding replaced by its
// length) and the cookie withheld; an informational 103 before the
// response is not the record's head.
func TestRecordWireOrder(t *testing.T) {
	base := rawServer(t, wireCases)
	plain := &HTTPFetcher{Guard: loopback, Record: RecordOptions{On: true}}
	t.Cleanup(func() { plain.Close() })
	rendered := newRenderer(t, Options{Tabs: 1, PageTimeout: 15 * time.Second, Record: RecordOptions{On: true}})
	fetchers := []struct {
		name string
		f    Fetcher
	}{{"plain", plain}, {"rendered", rendered}}
	for _, fc := range fetchers {
		for _, c := range wireCases {
			t.Run(fc.name+c.path, func(t *testing.T) {
				p := mustFetch(t, fc.f, base+c.path)
				ex := exchangeOf(p.Exchanges, base+c.path)
				if ex == nil {
					t.Fatalf("no exchange of %s among %d", c.path, len(p.Exchanges))
				}
				if string(ex.Response) != c.head {
					t.Errorf("head\n%q\nwant\n%q", ex.Response, c.head)
				}
				if !bytes.Equal(ex.Payload, []byte(c.payload)) {
					t.Errorf("payload %q, want %q", ex.Payload, c.payload)
				}
			})
		}
	}
}
