package dashboard

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	long := strings.Repeat("k", 16)
	for _, c := range []struct {
		addr   string
		public bool
		token  string
		ok     bool
	}{
		{"127.0.0.1:8080", false, "", true},
		{"localhost:0", false, "", true},
		{"[::1]:8080", false, "", true},
		{"0.0.0.0:8080", false, long, false},
		{":8080", false, "", false},
		{"192.168.1.4:8080", true, "", false},
		{"192.168.1.4:8080", true, "short", false},
		{"192.168.1.4:8080", true, long, true},
		{"nonsense", false, "", false},
	} {
		err := CheckAddr(c.addr, c.public, c.token)
		if (err == nil) != c.ok {
			t.Errorf("CheckAddr(%q, %v, %q) = %v, want ok %v", c.addr, c.public, c.token, err, c.ok)
		}
	}
}

// TestGuard checks the headers of every kind of response and who is let
// in: loopback Host names only without a token, the token otherwise.
func TestGuard(t *testing.T) {
	_, db := fixtureStore(t)
	_, open := startDashboard(t, db, Options{})
	tok := strings.Repeat("s", 20)
	_, closed := startDashboard(t, db, Options{Token: tok})
	for _, c := range []struct {
		name, base, path, host, cookie string
		code                           int
		csp                            string
	}{
		{"crawls", open.URL, "/", "", "", 200, pageCSP},
		{"sites", open.URL, "/sites", "", "", 200, pageCSP},
		{"corpus", open.URL, "/corpus", "", "", 200, pageCSP},
		{"static copy", open.URL, "/pages/1/render", "", "", 200, renderCSP},
		{"missing page", open.URL, "/pages/999999", "", "", 404, pageCSP},
		{"bad page id", open.URL, "/pages/x", "", "", 404, pageCSP},
		{"rebound host", open.URL, "/", "evil.example:80", "", 403, pageCSP},
		{"no token", closed.URL, "/", "", "", 403, pageCSP},
		{"wrong token", closed.URL, "/?token=nope", "", "", 403, pageCSP},
		{"token in query", closed.URL, "/?token=" + tok, "", "", 200, pageCSP},
		{"token cookie", closed.URL, "/sites", "", tok, 200, pageCSP},
	} {
		req, _ := http.NewRequest(http.MethodGet, c.base+c.path, nil)
		if c.host != "" {
			req.Host = c.host
		}
		if c.cookie != "" {
			req.AddCookie(&http.Cookie{Name: tokenCookie, Value: c.cookie})
		}
		resp := do(t, req)
		if resp.StatusCode != c.code || resp.Header.Get("Content-Security-Policy") != c.csp {
			t.Errorf("%s: status %d, CSP %q; want %d, %q", c.name, resp.StatusCode, resp.Header.Get("Content-Security-Policy"), c.code, c.csp)
		}
	}
}

// TestStateChangesNeedPostAndCSRF: pause, resume, stop and launch refuse
// GET, a missing or wrong CSRF token and a foreign Origin.
func TestStateChangesNeedPostAndCSRF(t *testing.T) {
	_, db := fixtureStore(t)
	s, ts := startDashboard(t, db, Options{})
	for _, c := range []struct {
		name, path, csrf, origin string
		code                     int
	}{
		{"no token", "/crawls/" + fixtureCrawl + "/pause", "", "", 403},
		{"wrong token", "/crawls/" + fixtureCrawl + "/pause", "0123", "", 403},
		{"foreign origin", "/crawls/" + fixtureCrawl + "/resume", s.csrf, "http://evil.example", 403},
		{"launch without token", "/crawls", "", "", 403},
		{"unknown action", "/crawls/" + fixtureCrawl + "/explode", s.csrf, "", 400},
		{"stop a crawl not running here", "/crawls/" + fixtureCrawl + "/stop", s.csrf, "", 400},
		{"resume", "/crawls/" + fixtureCrawl + "/resume", s.csrf, ts.URL, 303},
	} {
		form := url.Values{"csrf": {c.csrf}}
		req, _ := http.NewRequest(http.MethodPost, ts.URL+c.path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if resp := do(t, req); resp.StatusCode != c.code {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.code)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/crawls/"+fixtureCrawl+"/pause", nil)
	if resp := do(t, req); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET pause: status %d, want 405", resp.StatusCode)
	}
}
