package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// What the markup hides is not content: a sale pop-up, a financing modal, a
// newsletter or cookie dialog often sits whole in a page's HTML, its
// paragraphs a more convincing article than the page's own when the page
// builds its body with script. The rules below read the markup alone
// (attributes, inline styles, utility classes); a rendered page's layout
// says more (VisibleTree). treediff already leaves <template>, <script>,
// <style> and <noscript> out of the tree.

// hidden reports elements a browser does not show, or shows only as an
// overlay over the page: the hidden and popover attributes, an inline style that hides
// the box or moves it off screen, a dialog (role=dialog or alertdialog,
// aria-modal="true", <dialog> without open), a popover, and the screen-reader-only
// utility classes (hiddenClass). What a page hides only until a visitor
// opens it (aria-hidden="true" or a "hidden" class on a collapsed
// accordion panel, a tab, a carousel's next slides) is left in: a reader
// opens it, and it is the page's own content.
func hidden(n *treediff.Node) bool {
	if n.Kind != treediff.Element {
		return false
	}
	switch n.Label {
	case "html", "body":
		return false // a page hides its body until its script runs
	case "dialog":
		if _, open := n.Attr("open"); !open {
			return true
		}
	}
	if _, ok := n.Attr("popover"); ok {
		return true // shown only when a script or a button opens it
	}
	if isDialog(n) || hiddenByClass(n) {
		return true
	}
	if collapsedPanel(n) {
		return false
	}
	if _, ok := n.Attr("hidden"); ok {
		return true
	}
	return styledHidden(n)
}

// panelRoles are the ARIA roles of a widget's panel that a visitor opens
// (a tab's panel, an accordion's region); no role is one too.
var panelRoles = map[string]bool{"": true, "tabpanel": true, "region": true}

// panelWords are the parts of a class token that name a collapsing
// widget's panel in the common frameworks and conventions ("tab-pane",
// "accordion__panel", "collapse", "toggle__content", "expander-content",
// "faq__answer").
var panelWords = map[string]bool{
	"tab": true, "tabs": true, "tabpanel": true, "pane": true, "collapse": true,
	"collapsible": true, "accordion": true, "expander": true, "expandable": true,
	"toggle": true, "answer": true,
}

// collapsedPanel reports the panel of a tab or accordion widget, which a
// page hides (hidden attribute, inline style) only until a visitor clicks
// its tab or its header: a description, a specification, an answer, the
// page's own content. It is a panel by its role (tabpanel), by being
// labelled by its tab or header (aria-labelledby) with a panel's role, or
// by a class token naming such a panel (panelWords). A dialog, a menu or a
// popover is no panel; a panel inside a hidden dialog stays hidden with it.
func collapsedPanel(n *treediff.Node) bool {
	role, _ := n.Attr("role")
	role = strings.ToLower(strings.TrimSpace(role))
	if !panelRoles[role] {
		return false
	}
	if role == "tabpanel" {
		return true
	}
	if _, ok := n.Attr("aria-labelledby"); ok {
		return true
	}
	c, _ := n.Attr("class")
	for _, t := range strings.Fields(strings.ToLower(c)) {
		for _, part := range strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == '_' }) {
			if panelWords[part] {
				return true
			}
		}
	}
	return false
}

// wrapsPage reports an element that is, with each of its ancestors below
// <body>, its parent's only element child: the box that wraps the whole
// page, which a page hides by its style until its script has run (as it
// hides <body>). Dialogs and overlays sit beside the page's box.
func wrapsPage(n *treediff.Node) bool {
	for a := n; a.Parent != nil; a = a.Parent {
		if a.Label == "body" {
			return true
		}
		if severalElements(a.Parent) {
			return false
		}
	}
	return false
}

// severalElements reports whether n has more than one element child; it
// stops at the second.
func severalElements(n *treediff.Node) bool {
	k := 0
	for _, c := range n.Children {
		if c.Kind == treediff.Element {
			if k++; k > 1 {
				return true
			}
		}
	}
	return false
}

// isDialog reports a modal or dialog box by its ARIA attributes.
func isDialog(n *treediff.Node) bool {
	return attrIs(n, "aria-modal", "true") || attrIs(n, "role", "dialog") || attrIs(n, "role", "alertdialog")
}

// styledHidden reports an element hidden by its inline style (unless it
// wraps the whole page: wrapsPage or is a widget's collapsed panel:
// collapsedPanel) or by a hiding utility class.
func styledHidden(n *treediff.Node) bool {
	if s, ok := n.Attr("style"); ok && hiddenStyle(s) && !wrapsPage(n) && !collapsedPanel(n) {
		return true
	}
	return hiddenByClass(n)
}

// hiddenByClass reports an element hidden by a hiding utility class
// (hiddenClass).
func hiddenByClass(n *treediff.Node) bool {
	c, ok := n.Attr("class")
	return ok && hiddenClass(c)
}

// attrIs reports whether n's attribute key is val, case and spaces aside.
func attrIs(n *treediff.Node, key, val string) bool {
	v, ok := n.Attr(key)
	return ok && strings.EqualFold(strings.TrimSpace(v), val)
}

// hiddenStyle reports an inline style that hides its box (display:none,
// visibility:hidden) or places it far off screen (a negative offset of
// 1000px or more: the "visually hidden" and off-canvas patterns).
func hiddenStyle(s string) bool {
	s = strings.ReplaceAll(strings.ToLower(s), " ", "")
	if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
		return true
	}
	for _, decl := range strings.Split(s, ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		switch prop {
		case "left", "top", "right", "margin-left", "margin-top", "text-indent":
			if farOff(val) {
				return true
			}
		}
	}
	return false
}

// farOff reports a CSS length of -1000px or less (-9999px, -10000em…).
func farOff(v string) bool {
	v = strings.TrimSuffix(strings.TrimSpace(v), "!important")
	if !strings.HasPrefix(v, "-") {
		return false
	}
	digits := 0
	for _, r := range v[1:] {
		if r < '0' || r > '9' {
			break
		}
		digits++
	}
	return digits >= 4
}

// hidingClasses are the class tokens that keep an element for screen
// readers only in the common CSS frameworks and conventions (Bootstrap,
// Tailwind, Foundation, WordPress, the "visually hidden" pattern): whole
// tokens, never parts of one. The general hiding utilities ("hidden",
// "d-none") are not among them: scripts toggle them on tabs and collapsed
// panels that hold the page's content.
var hidingClasses = map[string]bool{
	"sr-only": true, "visually-hidden": true, "visuallyhidden": true, "screen-reader-text": true,
	"screen-reader-only": true, "show-for-sr": true, "hidden-visually": true, "element-invisible": true,
}

// hiddenClass reports a class attribute with a hiding token and no
// responsive token that shows the element again at some screen width
// ("hidden md:block", "d-none d-lg-flex": shown on a desktop).
func hiddenClass(c string) bool {
	toks := strings.Fields(strings.ToLower(c))
	hides := false
	for _, t := range toks {
		if hidingClasses[t] {
			hides = true
		}
	}
	if !hides {
		return false
	}
	for _, t := range toks {
		if showsAgain(t) {
			return false
		}
	}
	return true
}

// displayValues are the display utilities that show an element.
var displayValues = map[string]bool{
	"block": true, "flex": true, "grid": true, "inline": true, "inline-block": true,
	"inline-flex": true, "table": true, "contents": true, "table-cell": true, "table-row": true,
	"not-sr-only": true,
}

// showsAgain reports a responsive or state variant of a display utility:
// "md:block", "lg:flex", "d-md-block", "d-lg-inline-flex", "group-hover:block".
func showsAgain(t string) bool {
	if i := strings.LastIndexByte(t, ':'); i >= 0 {
		return displayValues[t[i+1:]]
	}
	if rest, ok := strings.CutPrefix(t, "d-"); ok {
		if _, val, ok := strings.Cut(rest, "-"); ok {
			return displayValues[val]
		}
	}
	return false
}

// hides reports whether the extraction leaves n out as hidden: with
// reveal set, an element hidden by the hidden attribute alone is shown
// (dialogs and styled boxes stay hidden).
func (o Options) hides(n *treediff.Node) bool {
	if !hidden(n) {
		return false
	}
	return !o.reveal || n.Label == "dialog" || isDialog(n) || styledHidden(n)
}
