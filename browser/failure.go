package browser

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"syscall"
)

// Failure is the kind of a failed fetch. It is decided once, where the
// error is made, and stored with the page (store.Capture.Failure), so a
// crawler resuming later judges the page by its kind, never by its message.
type Failure string

// Kinds of failure. FailureFetcher is the fetcher's own fault (the browser
// cannot start, the renderer was closed): the page was never tried, and a
// crawler must leave it queued. FailureNetwork is the host's: it could not
// be reached.
const (
	FailureNone     Failure = ""
	FailureRefused  Failure = "refused"   // the guard refused the target or a hop of it
	FailureNotHTML  Failure = "not-html"  // the response is not a document
	FailureTimeout  Failure = "timeout"   // the page's deadline passed before any content
	FailureNetwork  Failure = "network"   // DNS, refused, reset or dropped connection
	FailureCrash    Failure = "crash"     // the browser or its tab died on the page
	FailureTooLarge Failure = "too-large" // the page blew its size bound
	FailureFetcher  Failure = "fetcher"   // the fetcher itself is broken: nothing was tried
	FailureOther    Failure = "other"
)

// ErrBrowserStart is wrapped by the error of a fetch when the browser could
// not be started: every page would fail the same way.
var ErrBrowserStart = errors.New("browser: cannot start")

// ErrTooLarge is wrapped by the error of a fetch whose response blew its
// size bound before anything could be kept.
var ErrTooLarge = errors.New("response over its size bound")

// ErrTooManyRedirects is wrapped by the error of a fetch that was
// redirected more often than allowed.
var ErrTooManyRedirects = errors.New("too many redirects")

// NetError is a network failure Chromium reported for a page's document
// (a net::ERR_… code), with its kind decided when it was received.
type NetError struct {
	Code string  // Chromium's error text, e.g. "net::ERR_CONNECTION_REFUSED"
	Kind Failure // FailureNetwork, FailureRefused or FailureOther
}

func (e *NetError) Error() string { return "navigate: " + e.Code }

// chromiumNetKinds maps Chromium's network error codes to failure kinds;
// codes not listed are FailureOther.
var chromiumNetKinds = map[string]Failure{
	"net::ERR_NAME_NOT_RESOLVED":        FailureNetwork,
	"net::ERR_NAME_RESOLUTION_FAILED":   FailureNetwork,
	"net::ERR_CONNECTION_REFUSED":       FailureNetwork,
	"net::ERR_CONNECTION_RESET":         FailureNetwork,
	"net::ERR_CONNECTION_CLOSED":        FailureNetwork,
	"net::ERR_CONNECTION_FAILED":        FailureNetwork,
	"net::ERR_CONNECTION_TIMED_OUT":     FailureNetwork,
	"net::ERR_EMPTY_RESPONSE":           FailureNetwork,
	"net::ERR_ADDRESS_UNREACHABLE":      FailureNetwork,
	"net::ERR_INTERNET_DISCONNECTED":    FailureNetwork,
	"net::ERR_NETWORK_CHANGED":          FailureNetwork,
	"net::ERR_TUNNEL_CONNECTION_FAILED": FailureNetwork,
	"net::ERR_ACCESS_DENIED":            FailureRefused,
	"net::ERR_BLOCKED_BY_CLIENT":        FailureRefused,
	"net::ERR_PROXY_CONNECTION_FAILED":  FailureFetcher,
}

// newNetError makes the error of a navigation Chromium failed with code.
func newNetError(code string) *NetError {
	k, ok := chromiumNetKinds[code]
	if !ok {
		k = FailureOther
	}
	return &NetError{Code: code, Kind: k}
}

// Classify returns the kind of a fetch error (FailureNone for nil).
func Classify(err error) Failure {
	if err == nil {
		return FailureNone
	}
	var ne *NetError
	if errors.As(err, &ne) {
		return ne.Kind
	}
	for _, c := range sentinelKinds {
		if errors.Is(err, c.err) {
			return c.kind
		}
	}
	return networkKind(err)
}

// sentinelKinds are the kinds of this package's errors, first match wins.
var sentinelKinds = []struct {
	err  error
	kind Failure
}{
	{ErrBrowserStart, FailureFetcher}, {ErrClosed, FailureFetcher},
	{ErrRefused, FailureRefused}, {ErrNotHTML, FailureNotHTML},
	{ErrTooLarge, FailureTooLarge}, {errCrashed, FailureCrash},
	{ErrTooManyRedirects, FailureOther},
	{context.DeadlineExceeded, FailureTimeout},
}

// networkKind tells a failure of the network from others: Go's net errors,
// and any failure of an HTTP exchange (a *url.Error, such as "server closed
// idle connection") that is none of the kinds above.
func networkKind(err error) Failure {
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return FailureTimeout
	}
	var op *net.OpError
	var dns *net.DNSError
	var ue *url.Error
	switch {
	case errors.As(err, &op), errors.As(err, &dns), errors.As(err, &ue),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return FailureNetwork
	}
	return FailureOther
}
