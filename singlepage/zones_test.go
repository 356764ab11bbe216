package singlepage

import (
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func TestIsFilteredZone(t *testing.T) {
	cases := []struct {
		html string
		want bool
	}{
		{`<div id="comments">`, true},
		{`<div class="user-comment-list">`, true},
		{`<div class="commentary">`, false},
		{`<section class="photo-gallery">`, true},
		{`<div role="navigation">`, true},
		{`<div aria-label="Share this story">`, true},
		{`<div class="shared-story">`, false},
		{`<nav>`, true},
		{`<aside>`, true},
		{`<div class="story-body">`, false},
		{`<body class="menu-open">`, false},
	}
	for _, c := range cases {
		tree, err := treediff.Parse("zone", []byte(c.html+"text"), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var el *treediff.Node
		for _, n := range tree.Nodes {
			if n.Kind == treediff.Element && len(n.Attrs) > 0 || n.Label == "nav" || n.Label == "aside" {
				el = n
			}
		}
		if el == nil {
			t.Fatalf("%s: no element", c.html)
		}
		if got := IsFilteredZone(el); got != c.want {
			t.Errorf("%s: %v, want %v", c.html, got, c.want)
		}
	}
}
