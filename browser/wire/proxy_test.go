package wire

import "testing"

func TestBrowserService(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"update.googleapis.com:443", true}, {"clients2.google.com:80", true}, {"accounts.google.com", true},
		{"r4---sn-abc.gvt1.com:443", true}, {"ACCOUNTS.GOOGLE.COM.:443", true},
		{"fonts.googleapis.com:443", false}, {"ajax.googleapis.com", false}, {"www.google.com:443", false},
		{"clientsx.google.com", false}, {"clients.google.com.evil.example", false}, {"127.0.0.1:8080", false},
	} {
		if got := browserService(tc.host); got != tc.want {
			t.Errorf("browserService(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}
