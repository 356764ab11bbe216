package fetchpolicy

import (
	"net/url"
	"strings"
	"testing"
)

func TestCanonicalize(t *testing.T) {
	base, _ := url.Parse("http://Example.COM:80/a/b/index.html?x=1")
	tests := []struct{ ref, want string }{
		{"../c/./d.html#frag", "http://example.com/a/c/d.html"},
		{"HTTPS://Example.com:443", "https://example.com/"},
		{"/p?b=2&a=1&utm_source=x", "http://example.com/p?a=1&b=2"},
		{"http://u:p@h.org/x/", "http://h.org/x/"},
		{"http://h.org:8080/x//y", "http://h.org:8080/x/y"},
	}
	for _, tt := range tests {
		u, err := Canonicalize(base, tt.ref)
		if err != nil {
			t.Fatalf("Canonicalize(%q): %v", tt.ref, err)
		}
		if u.String() != tt.want {
			t.Errorf("Canonicalize(%q) = %s, want %s", tt.ref, u, tt.want)
		}
	}
	if _, err := Canonicalize(nil, "relative/path"); err == nil {
		t.Error("relative URL with no base: no error")
	}
	if _, err := Canonicalize(nil, "http://bad host/%zz"); err == nil {
		t.Error("malformed URL: no error")
	}
}

func TestTrapGuard(t *testing.T) {
	g := TrapGuard{}
	ok, _ := url.Parse("http://h.org/news/2024/05/story.html")
	if err := g.Check(ok); err != nil {
		t.Errorf("ordinary URL refused: %v", err)
	}
	for _, bad := range []string{
		"http://h.org/a/b/a/b/a/b/a/b/",
		"http://h.org/" + strings.Repeat("x", 600),
		"http://h.org/" + strings.Repeat("d/", 20) + "end",
	} {
		u, _ := url.Parse(bad)
		if err := g.Check(u); err == nil {
			t.Errorf("trap URL %.60s accepted", bad)
		}
	}
}
