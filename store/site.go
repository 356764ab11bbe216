package store

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// SiteMode says how a page's URL maps to its site.
type SiteMode string

const (
	// SiteFromDomain groups pages by registrable domain (eTLD+1 by the
	// public suffix list): www.bbc.co.uk and news.bbc.co.uk are site bbc.co.uk.
	SiteFromDomain SiteMode = "domain"
	// SiteFromHost groups pages by host name (without port).
	SiteFromHost SiteMode = "host"
)

// ParseSiteMode parses "domain" or "host".
func ParseSiteMode(s string) (SiteMode, error) {
	switch m := SiteMode(s); m {
	case SiteFromDomain, SiteFromHost:
		return m, nil
	}
	return "", fmt.Errorf("unknown site mode %q (want %q or %q)", s, SiteFromDomain, SiteFromHost)
}

// SiteOf returns the site of rawURL. Hosts that have no registrable domain
// (IP addresses, single-label names such as localhost) are their own site,
// port included, since servers on one address are told apart by port.
func SiteOf(rawURL string, mode SiteMode) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("site of URL %q: %w", rawURL, err)
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return "", fmt.Errorf("site of URL %q: no host", rawURL)
	}
	if net.ParseIP(host) != nil || !strings.Contains(host, ".") {
		if p := u.Port(); p != "" {
			return net.JoinHostPort(host, p), nil
		}
		return host, nil
	}
	switch mode {
	case SiteFromHost:
		return host, nil
	case SiteFromDomain, "":
		d, err := publicsuffix.EffectiveTLDPlusOne(host)
		if err != nil {
			// The host is itself a public suffix (e.g. "co.uk"): it is its
			// own site rather than an error.
			return host, nil
		}
		return d, nil
	}
	return "", fmt.Errorf("site of URL %q: unknown site mode %q", rawURL, mode)
}
