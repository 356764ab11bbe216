package crawler

import (
	"testing"

	"github.com/gleaner/gleaner/store"
)

// TestRefusedTooLarge: a partial page is refused as too large only when
// its stored reason says it blew a size bound, read as a value: a reason
// whose error merely contains "cut" in another word (execute) is not.
func TestRefusedTooLarge(t *testing.T) {
	tests := []struct {
		reason string
		want   Outcome
	}{
		{"too-large: renderer at 600 MiB, over its memory bound of 512 MiB: killed; the document as received", OutcomeSize},
		{"document cut at 33554432 bytes", OutcomeSize},
		{"the tunnel to a.example:443 was cut at 268435456 bytes", OutcomeSize},
		{"HTML cut at 8388608 bytes", OutcomeSize},
		{"not captured (context deadline exceeded): the document as received, cut at 1024 bytes", OutcomeSize},
		{"not captured (could not execute the capture script): the document as received", ""},
		{"network or DOM still busy at the deadline", ""},
		{"the load event had not fired at the deadline", ""},
	}
	cfg := Config{MaxBytes: 1 << 20, MIMETypes: []string{"text/html"}}
	for _, tt := range tests {
		sp := &store.Page{Status: 200, ContentType: "text/html", RenderedHTML: []byte("<html><body><p>a page</p></body></html>"),
			Capture: &store.Capture{Rendered: true, Partial: true, PartialReason: tt.reason}}
		if got, _ := cfg.refused(sp); got != tt.want {
			t.Errorf("%q: outcome %q, want %q", tt.reason, got, tt.want)
		}
	}
}
