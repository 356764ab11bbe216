package netguard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// TestCheck: the zero Policy refuses every special-purpose address and
// scheme; an allowed host:port lets that port through, no other.
func TestCheck(t *testing.T) {
	ctx := context.Background()
	g := Policy{}
	for _, bad := range []string{
		"http://127.0.0.1:8080/", "http://localhost/", "http://10.1.2.3/", "http://192.168.0.1/",
		"http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://0.0.0.0/",
		"file:///etc/passwd", "ftp://example.com/", "http://100.64.0.1/", "http://[fe80::1]/",
		// Special-purpose blocks a hand list missed (issue #11, item 9).
		"http://198.18.0.1/", "http://198.19.255.1/", "http://240.0.0.1/", "http://255.255.255.255/",
		"http://[fec0::1]/", "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/", "http://[::7f00:1]/",
		"http://[::ffff:127.0.0.1]/", "http://[2001:db8::1]/", "http://192.0.2.1/", "http://[fc00::1]/",
		"http://224.0.0.1/", "http://[ff02::1]/", "http://[64:ff9b:1::1]/", "http://[2001::1]/",
	} {
		u, _ := url.Parse(bad)
		err := g.Check(ctx, u)
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("%s: err = %v, want ErrForbidden", bad, err)
		}
	}
	for _, public := range []string{"http://93.184.216.34/", "http://[2606:4700:4700::1111]/",
		"http://[64:ff9b::5db8:d822]/", "http://[2002:5db8:d822::1]/", "http://[::ffff:93.184.216.34]/"} {
		pub, _ := url.Parse(public)
		if err := g.Check(ctx, pub); err != nil {
			t.Errorf("public address refused: %v", err)
		}
	}
	allowed := Policy{Allowed: []string{"127.0.0.1:8080"}}
	u, _ := url.Parse("http://127.0.0.1:8080/x")
	if err := allowed.Check(ctx, u); err != nil {
		t.Errorf("allowed host refused: %v", err)
	}
	other, _ := url.Parse("http://127.0.0.1:9090/x")
	if err := allowed.Check(ctx, other); err == nil {
		t.Error("another port of an allowed host accepted")
	}
}

// TestDialer: the policy's transport connects to an allowed loopback
// host:port and refuses another port of the same address.
func TestDialer(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer srv.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits += 100 }))
	defer other.Close()
	c := &http.Client{Transport: Policy{Allowed: []string{srv.Listener.Addr().String()}}.Transport()}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatalf("allowed host:port: %v", err)
	}
	resp.Body.Close()
	if _, err := c.Get(other.URL); !errors.Is(err, ErrForbidden) {
		t.Errorf("another loopback port: err %v, want ErrForbidden", err)
	}
	if _, err := (&http.Client{Transport: Policy{}.Transport()}).Get(srv.URL); !errors.Is(err, ErrForbidden) {
		t.Errorf("zero policy to loopback: err %v, want ErrForbidden", err)
	}
	if hits != 1 {
		t.Errorf("servers saw %d (want 1: the allowed one once)", hits)
	}
}
