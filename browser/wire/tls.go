package wire

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"sync"
	"time"
)

// interceptor terminates the browser's TLS tunnels in the proxy so that
// HTTPS exchanges are recorded as plain ones are: the proxy answers each
// CONNECT with a certificate of its own for the host, and makes the
// request itself, with its dialer, verifying the server's certificate as
// any client does. Every certificate it makes shares one key, which the
// browser is told to accept by the hash of its public key
// (--ignore-certificate-errors-spki-list): no certificate authority is
// installed, and only this browser accepts them.
type interceptor struct {
	key   *ecdsa.PrivateKey
	spki  string // base64 SHA-256 of the key's SubjectPublicKeyInfo
	mu    sync.Mutex
	certs map[string]*tls.Certificate
}

// maxInterceptCerts bounds the certificates kept (one per host).
const maxInterceptCerts = 1024

func newInterceptor() (*interceptor, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("browser proxy: TLS key: %w", err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("browser proxy: TLS key: %w", err)
	}
	sum := sha256.Sum256(der)
	return &interceptor{key: key, spki: base64.StdEncoding.EncodeToString(sum[:]), certs: map[string]*tls.Certificate{}}, nil
}

// cert returns the certificate the proxy shows for host.
func (ic *interceptor) cert(host string) (*tls.Certificate, error) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	if c := ic.certs[host]; c != nil {
		return c, nil
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: host},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ic.key.PublicKey, ic.key)
	if err != nil {
		return nil, fmt.Errorf("browser proxy: certificate for %s: %w", host, err)
	}
	if len(ic.certs) >= maxInterceptCerts {
		clear(ic.certs)
	}
	c := &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: ic.key}
	ic.certs[host] = c
	return c, nil
}

// startRecording makes the proxy record (see RecordOptions), intercepting
// TLS unless asked not to.
func (p *Proxy) Record(opt RecordOptions) error {
	p.rec = NewRecorder(opt)
	p.trans = wireTransport(p.trans) // heads kept as the servers sent them
	if opt.SkipTLS {
		return nil
	}
	ic, err := newInterceptor()
	if err != nil {
		return err
	}
	p.tls = ic
	if opt.RootCAs != nil {
		p.trans.TLSClientConfig = &tls.Config{RootCAs: opt.RootCAs}
	}
	return nil
}

// SPKI is the base64 SHA-256 of the public key of the certificates the
// proxy shows when it records HTTPS, for the browser to accept them
// (--ignore-certificate-errors-spki-list); "" when it does not.
func (p *Proxy) SPKI() string {
	if p.tls == nil {
		return ""
	}
	return p.tls.spki
}

// intercept serves a CONNECT by terminating its TLS and forwarding each
// request in it as the proxy forwards plain ones (recorded, bounded, the
// connection made by the proxy's dialer).
func (p *Proxy) intercept(w http.ResponseWriter, r *http.Request) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "no hijacking", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	io.WriteString(down, "HTTP/1.1 200 Connection Established\r\n\r\n")
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	tc := tls.Server(&bufferedConn{Conn: down, r: buf.Reader}, &tls.Config{
		NextProtos: []string{"http/1.1"},
		GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
			return p.tls.cert(host) // the host asked for, whatever name the hello gives
		},
	})
	target := r.Host
	l := newOneConnListener(tc)
	srv := &http.Server{ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 90 * time.Second, ConnState: l.state,
		ErrorLog: log.New(io.Discard, "", 0), // a browser that drops a tunnel is no news
		Handler: http.HandlerFunc(func(w http.ResponseWriter, in *http.Request) {
			in.URL.Scheme, in.URL.Host = "https", target
			if _, port, _ := net.SplitHostPort(target); port == "443" {
				in.URL.Host = host
			}
			p.forward(w, in)
		}),
	}
	// Requests in the tunnel live by their own connection: the CONNECT
	// request's context ends with its hijacking.
	srv.Serve(l)
}

// bufferedConn is a connection whose first bytes were already read into
// a buffer.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// oneConnListener accepts one connection, then ends once it is closed.
type oneConnListener struct {
	conn net.Conn
	once sync.Once
	done chan struct{}
	mu   sync.Mutex
	used bool
}

func newOneConnListener(c net.Conn) *oneConnListener {
	return &oneConnListener{conn: c, done: make(chan struct{})}
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	used := l.used
	l.used = true
	l.mu.Unlock()
	if !used {
		return l.conn, nil
	}
	<-l.done
	return nil, net.ErrClosed
}

// state ends the listener when its connection closes.
func (l *oneConnListener) state(_ net.Conn, s http.ConnState) {
	if s == http.StateClosed || s == http.StateHijacked {
		l.once.Do(func() { close(l.done) })
	}
}

func (l *oneConnListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *oneConnListener) Addr() net.Addr { return l.conn.LocalAddr() }
