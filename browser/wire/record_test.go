package wire

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// TestRecorderClaim checks what the proxy's recorder holds: a page claims
// its own URLs recorded since it started, in order, and they are then
// forgotten; unclaimed exchanges go oldest first past the bound.
func TestRecorderClaim(t *testing.T) {
	r := NewRecorder(RecordOptions{On: true, MaxPageBytes: 100})
	t0 := time.Now()
	ex := func(url string, at time.Duration, n int) Exchange {
		return Exchange{URL: url, At: t0.Add(at), Payload: bytes.Repeat([]byte("x"), n)}
	}
	r.add(ex("http://a/2", 2*time.Millisecond, 10))
	r.add(ex("http://a/1", time.Millisecond, 10))
	r.add(ex("http://b/", 3*time.Millisecond, 10))
	r.add(ex("http://a/1", -time.Second, 10)) // before the page started
	got, note := r.Claim(map[string]bool{"http://a/1": true, "http://a/2": true}, nil, t0)
	if len(got) != 2 || got[0].URL != "http://a/1" || got[1].URL != "http://a/2" || note != "" {
		t.Fatalf("claimed %+v, note %q", got, note)
	}
	if again, _ := r.Claim(map[string]bool{"http://a/1": true, "http://a/2": true}, nil, t0); len(again) != 0 {
		t.Errorf("claimed twice: %+v", again)
	}
	if r.held != 20 || len(r.recent) != 2 {
		t.Errorf("held %d bytes in %d exchanges, want 20 in 2", r.held, len(r.recent))
	}
	for i := range 50 { // 500 bytes: past heldPages*MaxPageBytes
		r.add(ex(fmt.Sprintf("http://c/%d", i), time.Duration(i), 10))
	}
	if r.held > heldPages*100 || len(r.recent) != heldPages*10 || r.recent[len(r.recent)-1].URL != "http://c/49" {
		t.Errorf("bound: held %d bytes in %d exchanges", r.held, len(r.recent))
	}
}
