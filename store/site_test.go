package store_test

import (
	"testing"

	"github.com/gleaner/gleaner/store"
)

func TestSiteOf(t *testing.T) {
	for _, tc := range []struct {
		url  string
		mode store.SiteMode
		want string
		err  bool
	}{
		{"http://www.bbc.co.uk/news/1.stm", store.SiteFromDomain, "bbc.co.uk", false},
		{"http://news.bbc.co.uk/news/1.stm", store.SiteFromDomain, "bbc.co.uk", false},
		{"http://news.bbc.co.uk/news/1.stm", store.SiteFromHost, "news.bbc.co.uk", false},
		{"https://WWW.Example.COM.:8443/x", store.SiteFromDomain, "example.com", false},
		{"https://WWW.Example.COM.:8443/x", store.SiteFromHost, "www.example.com", false},
		{"http://127.0.0.1:8080/a", store.SiteFromDomain, "127.0.0.1:8080", false},
		{"http://[::1]:80/a", store.SiteFromDomain, "[::1]:80", false},
		{"http://localhost/a", store.SiteFromDomain, "localhost", false},
		{"http://co.uk/", store.SiteFromDomain, "co.uk", false},
		{"http://x.github.io/", store.SiteFromDomain, "x.github.io", false},
		{"/relative/path", store.SiteFromDomain, "", true},
		{"http://%zz/", store.SiteFromDomain, "", true},
		{"http://example.com/", "bogus", "", true},
	} {
		got, err := store.SiteOf(tc.url, tc.mode)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("SiteOf(%q, %q) = %q, %v; want %q (error %v)", tc.url, tc.mode, got, err, tc.want, tc.err)
		}
	}
}
