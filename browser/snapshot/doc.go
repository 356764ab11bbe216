// Package snapshot serializes what Chromium shows of a page, taken in one
// DOMSnapshot.captureSnapshot call, to HTML (open and closed shadow trees
// and same-origin frames in place, user-agent shadow trees left out) with
// the layout of its elements (Layout: boxes keyed by the element paths of
// the tree treediff parses from that HTML), and reads a stored layout back.
// Package browser captures its pages with it.
//
// # Layout for heuristics
//
// Layout boxes are keyed by the element's XPath-like path as
// treediff.Node.Path computes it on the tree that treediff.Parse builds from
// Page.HTML (e.g. /html/body/div[2]/p[1]). Page.HTML is serialized from the
// same snapshot the boxes come from, so the keys match the parsed tree; use
// Layout.Box(node) with a node of that tree (text nodes take their parent's
// box). Box.Visible is false for elements that are not rendered, have zero
// area, visibility:hidden or opacity:0 (themselves or an ancestor), so
// "visible text only" is the text of nodes whose box is visible, and Box.Y
// gives the vertical position in the whole document (CSS pixels from the
// top of the page, not the viewport). Layout.Hidden is the test extraction
// uses: laid out and not shown (an element without a box, as in <head>, is
// not hidden).
package snapshot
