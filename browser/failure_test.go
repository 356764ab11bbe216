package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
	"testing"
)

// TestClassify: each kind of fetch error is told by its value, whatever
// wraps it.
func TestClassify(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	tests := []struct {
		name string
		err  error
		want Failure
	}{
		{"none", nil, FailureNone},
		{"browser cannot start", fmt.Errorf("render x: %w", fmt.Errorf("%w: chromium /x: %w", ErrBrowserStart, errors.New("exec"))), FailureFetcher},
		{"closed renderer", fmt.Errorf("render x: %w", ErrClosed), FailureFetcher},
		{"refused", fmt.Errorf("navigate: %w: %w", ErrRefused, errors.New("guard")), FailureRefused},
		{"not html", fmt.Errorf("fetch x: %w", ErrNotHTML), FailureNotHTML},
		{"deadline", fmt.Errorf("capture: %w", context.DeadlineExceeded), FailureTimeout},
		{"crash", fmt.Errorf("wait: %w: %w", errCrashed, errors.New("tab")), FailureCrash},
		{"too large", fmt.Errorf("x: %w", ErrTooLarge), FailureTooLarge},
		{"connection refused", &url.Error{Op: "Get", URL: "http://x/", Err: dial}, FailureNetwork},
		{"chromium refused", fmt.Errorf("render x: %w", newNetError("net::ERR_CONNECTION_REFUSED")), FailureNetwork},
		{"chromium blocked", newNetError("net::ERR_BLOCKED_BY_CLIENT"), FailureRefused},
		{"chromium unknown", newNetError("net::ERR_SOMETHING_NEW"), FailureOther},
		{"redirect loop", &url.Error{Op: "Get", URL: "http://x/", Err: fmt.Errorf("%w: more than 10", ErrTooManyRedirects)}, FailureOther},
		{"other", errors.New("something"), FailureOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.err); got != tt.want {
				t.Errorf("Classify(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
}
