// Package selector writes and reads the CSS selectors by which Gleaner
// designates an element of a page: Of writes the path of an element (tags,
// an id no other element repeats, classes, sibling ranks), Select finds the
// element such a selector designates in another page of the same template
// (a cluster's learned rule applied to a new page).
package selector
