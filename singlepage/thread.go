package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// On a question-and-answer thread each post (the question, an answer)
// carries a list of short comments under it, in a region its class or id
// names for comments: they discuss the post, and are not the thread's
// content as its posts are. A thread whose posts themselves sit in a
// "comments" region (a blog's, a forum's replies: postsRegion around the
// posts, or on each post) has no such list: its posts stay.

// replyBlocks marks, per block of p, those in a comments region that
// neither holds the thread's posts (g, its units) nor is one, nor lies in
// such a region. One preorder pass.
func (p *page) replyBlocks(g unitGroup) []bool {
	zoned := make([]bool, len(p.blocks))
	if g.parent == nil {
		return zoned
	}
	holds := make([]bool, len(p.t.Nodes)) // g.parent and its ancestors
	for a := g.parent; a != nil; a = a.Parent {
		holds[a.Index] = true
	}
	seen := make([]bool, len(p.t.Nodes)) // in a comments region
	for _, n := range p.t.Nodes {
		inside := n.Parent != nil && seen[n.Parent.Index]
		seen[n.Index] = inside || n.Kind == treediff.Element && postsRegion(n)
		// Not the posts' region, nor a post.
		if seen[n.Index] && !inside && !holds[n.Index] && !g.isUnit(n) {
			p.markBlocks(zoned, n)
		}
	}
	return zoned
}

// isUnit reports whether n is one of the group's units.
func (g unitGroup) isUnit(n *treediff.Node) bool {
	return n.Parent == g.parent && unitSignature(n) == g.sig
}

// withoutReplies returns c's base without the comments under the posts of
// the thread g (replyBlocks), which it keeps in c.replies for the
// candidates (candidatesAsRead).
func (c *Choice) withoutReplies(p *page, g unitGroup) Result {
	c.replies = p.replyBlocks(g)
	r := c.Base
	if body := p.withoutZoned(r.Body, c.replies); body != r.Body && strings.TrimSpace(body) != "" {
		r.Body, r.lineWords = body, 0
	}
	return r
}
