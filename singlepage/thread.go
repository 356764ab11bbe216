package singlepage

import (
	"errors"
	"slices"
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
// such a region (one preorder pass), and those of the posts' furniture
// (markFurniture).
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
	p.markFurniture(zoned, holds)
	return zoned
}

// A forum post ends with its poster's signature, set apart from the post
// in an element its class or id names so: a motto, links, the poster's
// gear, the same under every post of theirs. It signs the post and is
// not what the thread says.

// A post's own furniture sits in elements its class or id names after
// the comment it serves and after what it is: a comment's share menu
// ("share-comment-menu"), its toolbar, its footer of buttons. The name of
// comments does not make them the thread's posts.

// postFurniture reports an element that is a post's signature
// (signatureName), a detail of its poster's card (cardDetailName), or
// names comments beside a strong cue of furniture.
func postFurniture(n *treediff.Node) bool {
	if n.Kind != treediff.Element {
		return false
	}
	for _, k := range []string{"class", "id"} {
		v, _ := n.Attr(k)
		v = strings.ToLower(v)
		if signatureName(v) || slices.ContainsFunc(strings.Fields(v), cardDetailName) {
			return true
		}
		if strings.Contains(v, "comment") && attrCue(strings.ReplaceAll(v, "comment", " ")) == strongCue {
			return true
		}
	}
	return false
}

// A poster's card beside each post gives their name, then what the forum
// says of them: a title or rank ("Senior Member"), a banner, extras (the
// date they joined, their count of posts). Forums name these parts after
// the poster and the detail: "userTitle", "message-userExtras",
// "profile-rank". The name stays (some threads quote it as the post's
// author); the details go.

// Words of a class naming a poster, and a detail of their card.
var (
	posterWords = []string{"user", "profile", "poster", "member", "author"}
	detailWords = []string{"title", "rank", "banner", "extra", "joined", "stats", "badge"}
)

// cardDetailName reports a class or id token naming a detail of a
// poster's card: a poster word and a detail word in it.
func cardDetailName(tok string) bool {
	has := func(w string) bool { return strings.Contains(tok, w) }
	return slices.ContainsFunc(posterWords, has) && slices.ContainsFunc(detailWords, has)
}

// signatureName reports a lower-cased class or id value naming a
// signature ("message-signature", "postsignature", "sig").
func signatureName(v string) bool {
	return strings.Contains(v, "signature") || slices.Contains(tokenWords(v), "sig")
}

// markFurniture marks in zoned the blocks of the posts' furniture
// (postFurniture) that does not hold the posts (holds, per node), each
// once: by its outermost element. One preorder pass.
func (p *page) markFurniture(zoned, holds []bool) {
	in := make([]bool, len(p.t.Nodes))
	for _, n := range p.t.Nodes {
		within := n.Parent != nil && in[n.Parent.Index]
		in[n.Index] = within || !holds[n.Index] && postFurniture(n)
		if in[n.Index] && !within {
			p.markBlocks(zoned, n)
		}
	}
}

// isUnit reports whether n is one of the group's units.
func (g unitGroup) isUnit(n *treediff.Node) bool {
	return n.Parent == g.parent && unitSignature(n) == g.sig
}

// withoutReplies returns c's base without the comments under the posts of
// the thread g nor its posts' furniture (replyBlocks), nor their counters,
// labels, card fields and taglines (postLabel), which it keeps in
// c.replies for the candidates
// (candidatesAsRead). g has no units when the thread has too few posts to
// make a group: its posts' counters go all the same.
func (c *Choice) withoutReplies(p *page, g unitGroup) Result {
	c.replies = p.replyBlocks(g)
	for i, b := range p.blocks {
		if b.words <= maxCounterWords && postLabel(b.text) {
			c.replies[i] = true
		}
	}
	r := c.Base
	body := withoutCounters(p.withoutZoned(r.Body, c.replies))
	if body != r.Body && strings.TrimSpace(body) != "" {
		r.Body, r.lineWords = body, 0
	}
	return r
}

// A thread's posts carry counters and labels beside their text: a post's
// votes ("13"), its number ("Reply 4"), its likes ("1 Like"), its poster's
// card ("Posts: 4032", "23.8k 14 gold badges 88 silver badges", "Senior
// Member", "Joined"). They describe the post or its poster, and are not
// what the thread says.

// cardWords are the words of a post's or its poster's counters, rank and
// labels.
var cardWords = map[string]bool{
	"badge": true, "badges": true, "gold": true, "silver": true, "bronze": true,
	"reputation": true, "rep": true, "points": true, "posts": true, "messages": true,
	"like": true, "likes": true, "reactions": true, "reaction": true, "score": true,
	"reply": true, "replies": true, "vote": true, "votes": true, "kudos": true,
	"member": true, "members": true, "moderator": true, "admin": true, "administrator": true,
	"staff": true, "poster": true, "starter": true, "op": true, "author": true,
	"joined": true, "location": true, "new": true, "senior": true, "junior": true,
	"well-known": true, "established": true, "premium": true, "original": true,
	"thread": true, "active": true, "veteran": true,
}

// Bounds of a line of counters or labels.
const (
	maxCounterWords = 16
	maxLabelWords   = 3
)

// withoutCounters returns a thread's body without its paragraphs that are
// a post's counters, labels, card fields or tagline (postLabel).
func withoutCounters(body string) string {
	paras := strings.Split(body, "\n\n")
	kept := paras[:0:0]
	for _, t := range paras {
		if !postLabel(t) {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, "\n\n")
}

// postLabel reports a line that describes a post or its poster: its
// counters or labels (counterLine), a field of the poster's card
// (cardField), its tagline (taglineLine).
func postLabel(text string) bool {
	return counterLine(text) || cardField(text) || taglineLine(text)
}

// A comment of a link aggregator's thread opens with its tagline: the
// poster's name, then the comment's score and age ("ann 12 points 3
// hours ago (2 children)"). It says who and when, not what.

// ageWords are the words of a post's age beside its figures.
var ageWords = map[string]bool{
	"ago": true, "second": true, "seconds": true, "minute": true, "minutes": true,
	"hour": true, "hours": true, "day": true, "days": true, "week": true, "weeks": true,
	"month": true, "months": true, "year": true, "years": true, "child": true, "children": true,
}

// taglineLine reports a comment's tagline: a first word (the poster's
// name), then figures (its score and age: two at least), card words and
// age words only, with "ago" among them, in at most maxCounterWords
// words. A post's note of its age alone ("edited 1 year ago") is no
// tagline.
func taglineLine(text string) bool {
	ws := strings.Fields(strings.ToLower(text))
	if len(ws) < 3 || len(ws) > maxCounterWords {
		return false
	}
	ago, figures := false, 0
	for _, w := range ws[1:] {
		w = strings.Trim(w, ":,·•()|")
		ago = ago || w == "ago"
		switch {
		case isFigure(w):
			figures++
		case w != "" && !cardWords[w] && !ageWords[w]:
			return false
		}
	}
	return ago && figures >= 2
}

// counterLine reports a line of a post's counters or labels: a figure
// alone ("13", "-2", "1.2k"), figures beside card words and nothing else
// ("Posts: 4032", "1 Like"), or a few card words (a rank: "Senior
// Member"; a label: "Joined").
func counterLine(text string) bool {
	words, figures := 0, 0
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, ":,·•()|")
		switch {
		case w == "":
			continue
		case isFigure(w):
			figures++
		case !cardWords[w]:
			return false
		}
		words++
	}
	if words == 0 || words > maxCounterWords {
		return false
	}
	if figures == 0 {
		return words <= maxLabelWords
	}
	return words == 1 || figures < words
}

// A poster's card also states fields of their profile, each a label and
// a short value: "Joined: 4 Jul 2012", "Location: Leeds", "Reactions:
// 1,204". The value may be any words (a date, a place), the label names
// the field.

// cardFields are the labels of a poster's card fields.
var cardFields = map[string]bool{
	"joined": true, "location": true, "reactions": true, "registered": true,
	"member since": true, "reaction score": true,
}

// maxFieldWords bounds the words of a card field's line.
const maxFieldWords = 8

// cardField reports a line of a poster's card field: a label of
// cardFields, a colon and a value, in at most maxFieldWords words.
func cardField(text string) bool {
	label, value, ok := strings.Cut(strings.TrimSpace(text), ":")
	if !ok || strings.TrimSpace(value) == "" || len(strings.Fields(text)) > maxFieldWords {
		return false
	}
	return cardFields[strings.Join(strings.Fields(strings.ToLower(label)), " ")]
}

// isFigure reports a count as a page shows it: digits with a sign,
// thousands separators, a decimal point or a k / m suffix ("-2",
// "1,069", "23.8k").
func isFigure(w string) bool {
	w = strings.TrimLeft(w, "+-−")
	w = strings.TrimRight(w, "km")
	if w == "" || w[0] < '0' || w[0] > '9' {
		return false
	}
	for _, r := range w {
		if (r < '0' || r > '9') && r != ',' && r != '.' {
			return false
		}
	}
	return true
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
