package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// An article often closes on sections that are the site's, not the
// story's: a call to share it or follow the site, a newsletter form,
// links to other stories, the author's box, the comments, its tags. Their
// markup names nothing general (generated class names, or none) and
// every candidate body may keep them; what marks them is a label of a
// few words standing alone ("Share this article", "You may also like",
// "About the author", "Comments") after most of the article's words.
// From such a label to the end of the body nothing is the story's: the
// label's section and whatever the page puts below it (more links, the
// footer's text). A label in the body's first part is left alone: there
// it may open a section the story goes on after. Labels that close some
// stories and open others' last part ("References", "Disclaimer",
// "Further reading", "FAQ") are not among them: gold bodies keep those
// sections about as often as they drop them.

// closingLabels are the labels that open a closing section, as their
// lower-cased words joined by spaces. Labels are only these whole lines;
// a line with more words ("Share this article with a friend who...") is
// text.
var closingLabels = map[string]bool{
	// links to other stories
	"related posts": true, "related articles": true, "related stories": true,
	"read next": true, "read this next": true, "up next": true, "keep reading": true,
	"you may also like": true, "you might also like": true, "you may like": true,
	"you might like": true, "you may also enjoy": true, "you might also enjoy": true,
	"you may also be interested in": true, "you might also be interested in": true,
	"more stories like this": true, "more articles like this": true,
	"more stories from": true, "more articles from": true,
	"recommended stories": true, "recommended articles": true,
	"recommended posts": true, "recommended for you": true,
	"recent posts": true, "recent articles": true, "recent stories": true,
	"latest posts": true, "latest articles": true, "latest stories": true,
	"latest news": true, "more news": true, "more stories": true,
	"more articles": true, "more posts": true,
	// calls to share, follow, subscribe
	"share": true, "share on": true, "share this": true, "share this article": true,
	"share this post": true, "share this story": true, "share this content": true,
	"share this page": true,
	"follow us":       true, "follow us on": true, "newsletter": true,
	"subscribe to our newsletter": true, "subscribe to the newsletter": true,
	"sign up for our newsletter": true, "sign up to our newsletter": true,
	"sign up for the newsletter": true, "sign up to the newsletter": true,
	// the author's box
	"about the author": true, "about the authors": true, "about the reviewer": true,
	"about our expert": true, "about our experts": true, "meet the author": true,
	"author bio": true, "written by": true, "reviewed by": true,
	// comments and tags
	"comment": true, "comments": true, "leave a reply": true, "leave a comment": true,
	"post a comment": true, "work with us": true, "tag": true, "tags": true, "tagged": true, "filed under": true,
}

// closingBylines open a closing label that may go on with a name
// ("Written by Jane Doe", "About the author: Jane Doe"): the author's box.
var closingBylines = []string{"written by ", "reviewed by ", "about the author ", "about the authors "}

// Bounds of a closing label: its most words, and the least share of the
// body's words that must come before it.
const (
	maxClosingWords  = 6
	closingHeadShare = 0.6
)

// withoutClosing returns body (paragraphs parted by blank lines) cut
// before its first closing label that comes after closingHeadShare of
// its words; body itself when it has none.
func withoutClosing(body string) string {
	if body == "" {
		return body
	}
	paras := strings.Split(body, "\n\n")
	counts := make([]int, len(paras))
	total := 0
	for i, para := range paras {
		counts[i] = len(treediff.Words(para))
		total += counts[i]
	}
	before := 0
	for i, para := range paras {
		if i > 0 && float64(before) >= closingHeadShare*float64(total) && closingLabel(para) {
			return strings.Join(paras[:i], "\n\n")
		}
		before += counts[i]
	}
	return body
}

// closingLabel reports whether para is a closing label alone ("Share
// this article:", "3 Comments", "Follow us!").
func closingLabel(para string) bool {
	ws := treediff.Words(para)
	if len(ws) == 0 || len(ws) > maxClosingWords {
		return false
	}
	parts := make([]string, 0, len(ws))
	for i, w := range ws {
		if i == 0 && len(ws) > 1 && isDigits(w.Text) {
			continue // "12 Comments"
		}
		parts = append(parts, strings.ToLower(w.Text))
	}
	label := strings.Join(parts, " ")
	if closingLabels[label] {
		return true
	}
	for _, prefix := range closingBylines {
		if strings.HasPrefix(label, prefix) {
			return true
		}
	}
	return false
}
