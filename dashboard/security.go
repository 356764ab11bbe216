package dashboard

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Content-Security-Policy of the dashboard's own pages: its script and
// style sheet only, its own frames (the sandboxed page copies), forms and
// connections to itself, never framed by another origin.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// renderCSP is the policy of a crawled page's static copy: a sandbox with
// no permission (unique origin, no script, no form, no navigation of the
// dashboard), nothing loaded but inline style, framed by the dashboard only.
const renderCSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'"

const tokenCookie = "gleaner_dashboard"

// guard wraps h with the headers and checks every response needs.
func (s *Server) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", pageCSP)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin") // forms then send their Origin (no-referrer sends "null")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		if err := s.admit(w, r); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost {
			if err := s.checkCSRF(r); err != nil {
				http.Error(w, err.Error(), http.StatusForbidden)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// admit checks who may use the dashboard: the token when there is one,
// else a loopback Host (an attacker's DNS name rebound to 127.0.0.1 is
// refused).
func (s *Server) admit(w http.ResponseWriter, r *http.Request) error {
	if s.opt.Token == "" {
		if !loopbackHost(r.Host) {
			return fmt.Errorf("host %q is not a loopback address: the dashboard answers loopback only (see gleaner serve -h)", r.Host)
		}
		return nil
	}
	if c, err := r.Cookie(tokenCookie); err == nil && sameSecret(c.Value, s.opt.Token) {
		return nil
	}
	if q := r.URL.Query().Get("token"); q != "" && sameSecret(q, s.opt.Token) && r.Method == http.MethodGet {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.opt.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return nil
	}
	return errors.New("missing or wrong token: open the address gleaner serve printed (with ?token=)")
}

// checkCSRF requires the form's csrf field and, when the browser sends
// one, an Origin equal to the request's host.
func (s *Server) checkCSRF(r *http.Request) error {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host != r.Host {
			return fmt.Errorf("cross-origin request from %q refused", o)
		}
	}
	if !sameSecret(r.PostFormValue("csrf"), s.csrf) {
		return errors.New("missing or wrong CSRF token: reload the page and try again")
	}
	return nil
}

func sameSecret(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// loopbackHost reports whether a Host header names the loopback interface.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// CheckAddr tells whether the dashboard may listen on addr: a loopback
// address always; any other only when public is set and a token is given.
func CheckAddr(addr string, public bool, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: want host:port: %w", addr, err)
	}
	if host != "" && loopbackHost(host) {
		return nil
	}
	if !public {
		return fmt.Errorf("address %q is not loopback: pass --public and a --token to expose the dashboard", addr)
	}
	if len(token) < 16 {
		return fmt.Errorf("address %q is not loopback: a token of at least 16 characters is required", addr)
	}
	return nil
}
