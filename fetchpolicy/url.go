package fetchpolicy

import (
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"
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
	u.Host = canonicalHost(u)
	u.Path = canonicalPath(u.Path)
	u.RawPath = ""
	if u.RawQuery != "" {
		u.RawQuery = canonicalQuery(u.Query())
	}
	u.ForceQuery = false
	return u, nil
}

// canonicalHost is u's host lower-cased, without the scheme's default
// port.
func canonicalHost(u *url.URL) string {
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
	return host
}

// canonicalPath is a path cleaned of dot segments, its trailing slash
// kept; "/" when empty.
func canonicalPath(p string) string {
	if p == "" {
		return "/"
	}
	trailing := strings.HasSuffix(p, "/")
	p = path.Clean(p)
	if trailing && p != "/" {
		p += "/"
	}
	return p
}

// canonicalQuery is a query without its tracking parameters, parameters
// and values sorted.
func canonicalQuery(q url.Values) string {
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
	return b.String()
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
