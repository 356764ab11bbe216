// Package treediff models HTML pages as ordered labelled trees and compares
// them with the tree edit distance (TED), returning the distance and the edit
// mapping between two trees.
//
// Parse decodes a page (byte order mark, valid UTF-8, declared charset,
// windows-1252) and builds its full tree of elements and text nodes, without
// recursion and within size limits. Tree.View derives the two trees Gleaner
// compares: the tag tree (elements only), used to group a site's pages by
// template, and the tokenized tree (elements plus one Token leaf per word),
// used to find which words differ between a page and its template medoid.
package treediff
