package singlepage

import (
	"errors"
	"strings"

	"github.com/gleaner/gleaner/pagetype"
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

// A forum whose software builds the thread with script sends a shell: no
// post in the HTML, none in <noscript>. It still states the opening post's
// first lines as the page's description, for link previews. On a page read
// as a forum thread where nothing else is found, that description is the
// body: the start of the thread, where the alternative is nothing.

// descriptionKeys are the meta names and properties of a page's
// description, in the order they are read.
var descriptionKeys = []string{"og:description", "twitter:description", "description"}

// withDescription returns r (err its error, as Alone found them on page
// t), or, when r has no body and the page is read as a forum thread
// (pagetype.Classify on t and opt.Source), r with the page's description
// (pageDescription) as its body.
func withDescription(t *treediff.Tree, r Result, err error, opt Options) (Result, error) {
	if err != nil && !errors.Is(err, ErrNoContent) || len(treediff.Words(r.Body)) > 0 || t == nil || t.Root == nil {
		return r, err
	}
	if typ, _ := pagetype.Classify(t, opt.Source); typ != pagetype.Forum {
		return r, err
	}
	d := pageDescription(t)
	if d == "" {
		return r, err
	}
	r.Body, r.lineWords, r.Node, r.Selector = d, 0, nil, ""
	if r.Method == "" {
		r.Method = MethodSingle
	}
	return r, nil
}

// pageDescription returns the page's description stated in its <meta>
// elements (descriptionKeys, the first found), whitespace-normalized; ""
// when it states none.
func pageDescription(t *treediff.Tree) string {
	found := map[string]string{}
	for _, n := range t.Nodes {
		if n.Kind != treediff.Element || n.Label != "meta" {
			continue
		}
		key, ok := n.Attr("property")
		if !ok {
			key, _ = n.Attr("name")
		}
		key = strings.ToLower(strings.TrimSpace(key))
		if v, ok := n.Attr("content"); ok && found[key] == "" {
			found[key] = strings.Join(strings.Fields(v), " ")
		}
	}
	for _, k := range descriptionKeys {
		if found[k] != "" {
			return found[k]
		}
	}
	return ""
}
