// Package snapshot serializes what Chromium shows of a page, taken in one
// DOMSnapshot.captureSnapshot call, to HTML (open and closed shadow trees
// and same-origin frames in place, user-agent shadow trees left out) with
// the layout of its elements (Layout: boxes keyed by the element paths of
// the tree treediff parses from that HTML), and reads a stored layout back.
// Package browser captures its pages with it.
package snapshot
