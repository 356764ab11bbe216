package statusline

import (
	"bytes"
	"testing"
	"time"
)

// TestLine: off a terminal, a status line at most every interval, log
// messages always; quiet shows nothing.
func TestLine(t *testing.T) {
	for _, tc := range []struct {
		quiet bool
		want  string
	}{
		{false, "s1\nlog 1\nlog 2\ns3\n"},
		{true, ""},
	} {
		var b bytes.Buffer
		l := New(&b, tc.quiet)
		l.interval = time.Hour
		calls := 0
		status := func(s string) func() string { return func() string { calls++; return s } }
		l.Update(status("s1"))
		l.Logf("log %d", 1)
		l.Update(status("s2")) // within the interval: not made
		l.Logf("log %d", 2)
		l.last = time.Time{}
		l.Update(status("s3"))
		l.Done()
		if b.String() != tc.want {
			t.Errorf("quiet %v: %q, want %q", tc.quiet, b.String(), tc.want)
		}
		if wantCalls := map[bool]int{false: 2, true: 0}[tc.quiet]; calls != wantCalls {
			t.Errorf("quiet %v: status made %d times, want %d", tc.quiet, calls, wantCalls)
		}
	}
}
