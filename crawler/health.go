package crawler

import (
	"errors"
	"sync"
	"time"
)

// ErrFetcherFailed is wrapped by the error of a run stopped because the
// fetcher itself failed (a browser that cannot start): the URL it was given
// is left queued, never counted as the page's fault.
var ErrFetcherFailed = errors.New("the fetcher failed; its URLs are left queued")

// ErrOutage is wrapped by the error of a run stopped because several hosts
// in a row could not be reached with no page fetched in between, for longer
// than Config.OutageWait: the network (or a proxy) is down, not the sites.
// Their URLs are left queued.
var ErrOutage = errors.New("general network outage; URLs left queued")

// hostHealth suspends hosts that could not be reached and tells a general
// outage from a host's: Config.HostBackoff, Config.OutageHosts and
// Config.OutageWait.
type hostHealth struct {
	backoff time.Duration
	outage  int
	wait    time.Duration

	mu     sync.Mutex
	until  map[string]time.Time // suspended hosts
	fails  map[string]int       // failures in a row per host
	streak map[string]bool      // hosts failed since the last success
	since  time.Time            // start of the current outage (zero: none)
}

// health is what a network failure tells of the network.
type health uint8

const (
	hostDown   health = iota // that host only: it is suspended
	outageWait               // a general outage: the crawl waits it out
	outageStop               // an outage longer than the wait: the run stops
)

func newHostHealth(backoff time.Duration, outage int, wait time.Duration) *hostHealth {
	return &hostHealth{backoff: backoff, outage: outage, wait: wait, until: map[string]time.Time{},
		fails: map[string]int{}, streak: map[string]bool{}}
}

// ready reports whether host may be fetched now.
func (h *hostHealth) ready(host string, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !now.Before(h.until[host])
}

// failed suspends host after a network failure, for a backoff that doubles
// with each failure in a row, and tells whether the network as a whole is
// down: then the crawl pauses (its hosts' suspensions end one by one and
// their next fetches are the probes) until a fetch succeeds, or stops once
// the outage has lasted the wait.
func (h *hostHealth) failed(host string, now time.Time) health {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := min(h.fails[host], 6)
	h.fails[host]++
	h.until[host] = now.Add(h.backoff << n)
	h.streak[host] = true
	if h.outage <= 0 || len(h.streak) < h.outage {
		return hostDown
	}
	if h.since.IsZero() {
		h.since = now
	}
	if now.Sub(h.since) >= h.wait {
		return outageStop
	}
	return outageWait
}

// succeeded ends host's suspension and the streak of failing hosts.
func (h *hostHealth) succeeded(host string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.fails, host)
	delete(h.until, host)
	clear(h.streak)
	h.since = time.Time{}
}

// suspended lists the hosts suspended at now.
func (h *hostHealth) suspended(now time.Time) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for host, until := range h.until {
		if now.Before(until) {
			out = append(out, host)
		}
	}
	return out
}
