package pagemeta

import "testing"

// TestWithoutSourceHost: a link aggregator's annotation after a story's
// title (the linked site, its comment count) is cut; a title that is
// only a domain, or a parenthesis that names no domain, stays.
func TestWithoutSourceHost(t *testing.T) {
	cases := map[string]string{
		"Grads find fewer jobs (news.example.com) 87":        "Grads find fewer jobs",
		"Kernel moves to a new compiler (example.org)":       "Kernel moves to a new compiler",
		"Kernel moves to a new compiler (example.org) 1,204": "Kernel moves to a new compiler",
		"Best kettles (2025)":                                "Best kettles (2025)",
		"(example.com)":                                      "(example.com)",
		"Release notes (v2.1)":                               "Release notes (v2.1)",
	}
	for in, want := range cases {
		if got := withoutSourceHost(in); got != want {
			t.Errorf("withoutSourceHost(%q) = %q, want %q", in, got, want)
		}
	}
}
