package crawler

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/c-robinson/iplib/v2/iana"
)

// Canonicalize returns the form of a URL under which the frontier knows it:
// scheme and host lower-cased, default port dropped, fragment dropped, path
// cleaned of dot segments (an empty path becomes "/"), query parameters sorted
// and common tracking parameters (utm_*, fbclid, gclid) removed. Relative
// references are resolved against base (which may be nil for absolute ones).
func Canonicalize(base *url.URL, ref string) (*url.URL, error) {
	ref = strings.TrimSpace(ref)
	u, err := url.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("url %q: %w", ref, err)
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if !u.IsAbs() {
		return nil, fmt.Errorf("url %q: not absolute", ref)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Fragment, u.RawFragment = "", ""
	u.User = nil
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	if u.Path == "" {
		u.Path = "/"
	} else {
		trailing := strings.HasSuffix(u.Path, "/")
		u.Path = path.Clean(u.Path)
		if trailing && u.Path != "/" {
			u.Path += "/"
		}
	}
	u.RawPath = ""
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			lk := strings.ToLower(k)
			if strings.HasPrefix(lk, "utm_") || lk == "fbclid" || lk == "gclid" {
				q.Del(k)
			}
		}
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			vs := q[k]
			sort.Strings(vs)
			for _, v := range vs {
				if b.Len() > 0 {
					b.WriteByte('&')
				}
				b.WriteString(url.QueryEscape(k))
				b.WriteByte('=')
				b.WriteString(url.QueryEscape(v))
			}
		}
		u.RawQuery = b.String()
	}
	u.ForceQuery = false
	return u, nil
}

// TrapGuard rejects URLs typical of spider traps.
type TrapGuard struct {
	// MaxURLLength rejects longer URLs (default 512).
	MaxURLLength int
	// MaxSegmentRepeats rejects a path where one segment occurs more often
	// (default 3): /a/b/a/b/a/b/… calendars and relative-link loops.
	MaxSegmentRepeats int
	// MaxDepth rejects paths with more segments (default 16).
	MaxDepth int
}

// Check returns nil if u looks safe to crawl, else why not.
func (g TrapGuard) Check(u *url.URL) error {
	maxLen, maxRep, maxDepth := g.MaxURLLength, g.MaxSegmentRepeats, g.MaxDepth
	if maxLen <= 0 {
		maxLen = 512
	}
	if maxRep <= 0 {
		maxRep = 3
	}
	if maxDepth <= 0 {
		maxDepth = 16
	}
	s := u.String()
	if len(s) > maxLen {
		return fmt.Errorf("url %.80q…: %d bytes, over the limit of %d", s, len(s), maxLen)
	}
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	if len(segs) > maxDepth {
		return fmt.Errorf("url %s: %d path segments, over the limit of %d", s, len(segs), maxDepth)
	}
	count := map[string]int{}
	for _, seg := range segs {
		count[seg]++
		if count[seg] > maxRep {
			return fmt.Errorf("url %s: path segment %q repeated %d times (limit %d)", s, seg, count[seg], maxRep)
		}
	}
	return nil
}

// ErrForbiddenTarget is wrapped by the errors of TargetGuard.
var ErrForbiddenTarget = errors.New("forbidden target")

// TargetGuard refuses what a crawler must not fetch by default (server-side
// request forgery): schemes other than http and https, and hosts that are or
// resolve to loopback, private, link-local, multicast or unspecified
// addresses. Allowed lists exceptions (host or host:port, as in the URL),
// such as the fixture sites on 127.0.0.1 in the demo and tests.
type TargetGuard struct {
	Allowed  []string
	Resolver *net.Resolver // nil: net.DefaultResolver
}

// Check resolves u's host and returns nil if it may be fetched.
func (g TargetGuard) Check(ctx context.Context, u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("url %s: scheme %q is not http or https: %w", u, u.Scheme, ErrForbiddenTarget)
	}
	for _, a := range g.Allowed {
		if strings.EqualFold(a, u.Host) || strings.EqualFold(a, u.Hostname()) {
			return nil
		}
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("url %s: no host: %w", u, ErrForbiddenTarget)
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		ips, err := g.resolver().LookupNetIP(ctx, "ip", host)
		if err != nil {
			return fmt.Errorf("url %s: resolve %s: %w", u, host, err)
		}
		addrs = ips
	}
	for _, a := range addrs {
		if !publicAddr(a) {
			return fmt.Errorf("url %s: host %s is at non-public address %s: %w", u, host, a, ErrForbiddenTarget)
		}
	}
	return nil
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

// publicAddr reports whether a is a globally reachable unicast address:
// in no block of IANA's IPv4 and IPv6 special-purpose address registries
// that is not globally reachable (github.com/c-robinson/iplib/v2/iana),
// not multicast, an IPv6 address in the global unicast space, and an IPv4
// address embedded in an IPv6 one (mapped, NAT64, 6to4) public itself.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	if !a.IsValid() || a.IsMulticast() {
		return false
	}
	if v4, ok := embeddedIPv4(a); ok {
		if !publicAddr(v4) {
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
