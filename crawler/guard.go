package crawler

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"syscall"
	"time"

	"github.com/gleaner/gleaner/browser"
)

// allowedAddrs is the dial-time form of TargetGuard.Allowed: the addresses
// its entries name or resolve to, with the entry's port when it has one.
type allowedAddrs struct {
	anyPort map[netip.Addr]bool
	ports   map[netip.AddrPort]bool
}

func (g TargetGuard) resolver() *net.Resolver {
	if g.Resolver == nil {
		return net.DefaultResolver
	}
	return g.Resolver
}

// allowedAddrs resolves the names of g.Allowed; a name that does not
// resolve allows nothing.
func (g TargetGuard) allowedAddrs(ctx context.Context) allowedAddrs {
	a := allowedAddrs{anyPort: map[netip.Addr]bool{}, ports: map[netip.AddrPort]bool{}}
	for _, entry := range g.Allowed {
		host, port, err := net.SplitHostPort(entry)
		if err != nil {
			host, port = entry, ""
		}
		for _, ip := range g.lookup(ctx, host) {
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
	if p, err := strconv.ParseUint(port, 10, 16); err == nil {
		a.ports[netip.AddrPortFrom(ip, uint16(p))] = true
	}
}

// lookup returns host's addresses (host itself when it is one).
func (g TargetGuard) lookup(ctx context.Context, host string) []netip.Addr {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}
	}
	ips, err := g.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	return ips
}

// check decides on one address about to be dialed ("ip:port").
func (a allowedAddrs) check(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("dial %s: %w: %w", address, err, ErrForbiddenTarget)
	}
	ip := ap.Addr().Unmap().WithZone("")
	if a.anyPort[ip] || a.ports[netip.AddrPortFrom(ip, ap.Port())] || publicAddr(ip) {
		return nil
	}
	return fmt.Errorf("dial %s: non-public address not allowed: %w: %w", address, ErrForbiddenTarget, browser.ErrRefused)
}

// Guard makes o's browser pass g: every request it is about to send is
// checked by URL (AllowRequest), and every connection it opens is made by
// g's Dialer through the renderer's proxy (Dial).
func (g TargetGuard) Guard(ctx context.Context, o *browser.Options) {
	o.AllowRequest = g.Check
	o.Dial = g.Dialer(ctx).DialContext
}

// Dialer returns a dialer that connects only where the guard allows: public
// addresses, and the addresses Allowed names or resolves to (on the entry's
// port when it has one). It decides on the address actually connected to,
// after resolution (with g.Resolver), so neither a redirect nor a DNS answer
// that changed since Check gets around it.
func (g TargetGuard) Dialer(ctx context.Context) *net.Dialer {
	allowed := g.allowedAddrs(ctx)
	return &net.Dialer{Timeout: 10 * time.Second, Resolver: g.Resolver,
		Control: func(_, address string, _ syscall.RawConn) error { return dialDecision(address, allowed.check(address)) }}
}

// dialDecision passes on the decision of a Dialer on address. Tests replace
// it to watch the decisions and to stop any connection that would leave
// loopback.
var dialDecision = func(address string, decision error) error { return decision }

// Transport is an HTTP transport whose connections pass g's Dialer.
func (g TargetGuard) Transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = g.Dialer(context.Background()).DialContext
	return t
}
