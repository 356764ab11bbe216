package browser

import "testing"

// TestReason: each reason a page carries reads back as the value that wrote
// it, its text as stored before the reasons had a type; TooLarge holds for
// the reasons of a blown size bound only.
func TestReason(t *testing.T) {
	tests := []struct {
		text     string
		want     Reason
		tooLarge bool
	}{
		{"too-large: renderer at 600 MiB, over its memory bound of 512 MiB: killed; the document as received",
			Reason{ReasonTooLarge, "renderer at 600 MiB, over its memory bound of 512 MiB: killed", 0}, true},
		{"too-large: renderer at 600 MiB, over its memory bound of 512 MiB: killed; the document as received, cut at 33554432 bytes",
			Reason{ReasonTooLarge, "renderer at 600 MiB, over its memory bound of 512 MiB: killed", 33554432}, true},
		{"not captured (context deadline exceeded): the document as received",
			Reason{ReasonNotCaptured, "context deadline exceeded", 0}, false},
		{"not captured (could not execute the capture script): the document as received",
			Reason{ReasonNotCaptured, "could not execute the capture script", 0}, false},
		{"not captured (context deadline exceeded): the document as received, cut at 1024 bytes",
			Reason{ReasonNotCaptured, "context deadline exceeded", 1024}, true},
		{"document cut at 33554432 bytes", Reason{ReasonDocumentCut, "", 33554432}, true},
		{"the tunnel to a.example:8443 was cut at 268435456 bytes", Reason{ReasonTunnelCut, "a.example:8443", 268435456}, true},
		{"HTML cut at 8388608 bytes", Reason{ReasonHTMLCut, "", 8388608}, true},
		{"body cut at 4096 bytes", Reason{ReasonBodyCut, "", 4096}, true},
		{"network or DOM still busy at the deadline", Reason{ReasonDeadline, "network or DOM still busy", 0}, false},
		{"still loading while scrolling at the deadline", Reason{ReasonDeadline, "still loading while scrolling", 0}, false},
		{"deadline", Reason{ReasonOther, "deadline", 0}, false},
		{"a cut above the rest", Reason{ReasonOther, "a cut above the rest", 0}, false},
		{"document cut at 99999999999999999999 bytes", Reason{ReasonOther, "document cut at 99999999999999999999 bytes", 0}, false},
		{"", Reason{}, false},
	}
	for _, tt := range tests {
		got := ParseReason(tt.text)
		if got != tt.want {
			t.Errorf("ParseReason(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
		if s := got.String(); s != tt.text {
			t.Errorf("String of ParseReason(%q) = %q", tt.text, s)
		}
		if got.TooLarge() != tt.tooLarge {
			t.Errorf("%q: TooLarge %v, want %v", tt.text, got.TooLarge(), tt.tooLarge)
		}
	}
}
