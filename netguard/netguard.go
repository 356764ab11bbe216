// Package netguard decides where a fetch of the web may connect: the guard
// against server-side request forgery that every fetcher of Gleaner (the
// renderer, the plain HTTP fetcher, the crawler's and the monitor's
// clients) passes. By default only globally reachable addresses may be
// reached; a Policy names the exceptions (the fixture sites on loopback,
// an intranet host).
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/c-robinson/iplib/v2/iana"
)

// ErrForbidden is wrapped by the errors of a Policy's Check and of its
// Dialer when they refuse a target.
var ErrForbidden = errors.New("forbidden target")

// Policy refuses what a fetcher must not reach by default (server-side
// request forgery): schemes other than http and https, and hosts that are
// or resolve to loopback, private, link-local, multicast, unspecified or
// other special-purpose addresses. The zero Policy allows public addresses
// only. Allowed lists exceptions (host or host:port, as in the URL), such
// as the fixture sites on 127.0.0.1 in the demo and tests.
type Policy struct {
	Allowed  []string
	Resolver *net.Resolver // nil: net.DefaultResolver
	// Decide, when set, is given each decision of the policy's Dialer on
	// an address about to be connected to and returns the one to apply.
	// Tests use it to watch the decisions and to stop any connection that
	// would leave loopback; nil applies the policy's decision.
	Decide func(address string, decision error) error
}

// Check resolves u's host and returns nil if it may be fetched.
func (p Policy) Check(ctx context.Context, u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("url %s: scheme %q is not http or https: %w", u, u.Scheme, ErrForbidden)
	}
	for _, a := range p.Allowed {
		if strings.EqualFold(a, u.Host) || strings.EqualFold(a, u.Hostname()) {
			return nil
		}
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("url %s: no host: %w", u, ErrForbidden)
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		ips, err := p.resolver().LookupNetIP(ctx, "ip", host)
		if err != nil {
			return fmt.Errorf("url %s: resolve %s: %w", u, host, err)
		}
		addrs = ips
	}
	for _, a := range addrs {
		if !PublicAddr(a) {
			return fmt.Errorf("url %s: host %s is at non-public address %s: %w", u, host, a, ErrForbidden)
		}
	}
	return nil
}

// Dialer returns a dialer that connects only where the policy allows:
// public addresses, and the addresses Allowed names or resolves to (on the
// entry's port when it has one). It decides on the address actually
// connected to, after resolution (with p.Resolver), so neither a redirect
// nor a DNS answer that changed since Check gets around it. ctx bounds the
// resolution of the names of Allowed, done once here.
func (p Policy) Dialer(ctx context.Context) *net.Dialer {
	allowed := p.allowedAddrs(ctx)
	decide := p.Decide
	if decide == nil {
		decide = func(_ string, decision error) error { return decision }
	}
	return &net.Dialer{Timeout: 10 * time.Second, Resolver: p.Resolver,
		Control: func(_, address string, _ syscall.RawConn) error { return decide(address, allowed.check(address)) }}
}

// Transport is an HTTP transport whose connections pass p's Dialer (and
// no proxy of the environment's).
func (p Policy) Transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = p.Dialer(context.Background()).DialContext
	return t
}

func (p Policy) resolver() *net.Resolver {
	if p.Resolver == nil {
		return net.DefaultResolver
	}
	return p.Resolver
}

// allowedAddrs is the dial-time form of Policy.Allowed: the addresses its
// entries name or resolve to, with the entry's port when it has one.
type allowedAddrs struct {
	anyPort map[netip.Addr]bool
	ports   map[netip.AddrPort]bool
}

// allowedAddrs resolves the names of p.Allowed; a name that does not
// resolve allows nothing.
func (p Policy) allowedAddrs(ctx context.Context) allowedAddrs {
	a := allowedAddrs{anyPort: map[netip.Addr]bool{}, ports: map[netip.AddrPort]bool{}}
	for _, entry := range p.Allowed {
		host, port, err := net.SplitHostPort(entry)
		if err != nil {
			host, port = entry, ""
		}
		for _, ip := range p.lookup(ctx, host) {
			a.add(ip.Unmap(), port)
		}
	}
	return a
}

func (a allowedAddrs) add(ip netip.Addr, port string) {
	if port == "" {
		a.anyPort[ip] = true
		return
	}
	if n, err := strconv.ParseUint(port, 10, 16); err == nil {
		a.ports[netip.AddrPortFrom(ip, uint16(n))] = true
	}
}

// lookup returns host's addresses (host itself when it is one).
func (p Policy) lookup(ctx context.Context, host string) []netip.Addr {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}
	}
	ips, err := p.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	return ips
}

// check decides on one address about to be dialed ("ip:port").
func (a allowedAddrs) check(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("dial %s: %w: %w", address, err, ErrForbidden)
	}
	ip := ap.Addr().Unmap().WithZone("")
	if a.anyPort[ip] || a.ports[netip.AddrPortFrom(ip, ap.Port())] || PublicAddr(ip) {
		return nil
	}
	return fmt.Errorf("dial %s: non-public address not allowed: %w", address, ErrForbidden)
}

// globalUnicast6 is IANA's IPv6 global unicast space; the rest of the
// IPv6 space (deprecated site-local fec0::/10, IPv4-compatible ::a.b.c.d…)
// is not reachable on the internet.
var globalUnicast6 = netip.MustParsePrefix("2000::/3")

// Prefixes of IPv6 addresses that embed an IPv4 address, and where.
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96") // last 4 bytes (RFC 6052)
	sixTo4 = netip.MustParsePrefix("2002::/16")    // bytes 2-5 (RFC 3056)
)

// PublicAddr reports whether a is a globally reachable unicast address:
// in no block of IANA's IPv4 and IPv6 special-purpose address registries
// that is not globally reachable (github.com/c-robinson/iplib/v2/iana),
// not multicast, an IPv6 address in the global unicast space, and an IPv4
// address embedded in an IPv6 one (mapped, NAT64, 6to4) public itself.
func PublicAddr(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	if !a.IsValid() || a.IsMulticast() {
		return false
	}
	if v4, ok := embeddedIPv4(a); ok {
		if !PublicAddr(v4) {
			return false
		}
	} else if a.Is6() && !globalUnicast6.Contains(a) {
		return false
	}
	for _, r := range iana.GetReservationsForIP(net.IP(a.AsSlice())) {
		if !r.Global {
			return false
		}
	}
	return true
}

// embeddedIPv4 returns the IPv4 address a NAT64 or 6to4 address carries.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	switch {
	case nat64.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixTo4.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}
