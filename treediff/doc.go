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
//
// # Tree edit distance
//
// Distance and Mapping use unit costs: deleting or inserting a node costs 1,
// renaming costs 0 between equal labels and 1 otherwise (with
// Options.CompareKinds, labels of different Kind never match). The algorithm
// is Zhang–Shasha's, run on whichever of the left and the right path
// decomposition needs fewer subproblems for the pair (the right one runs the
// same code on mirrored trees), with labels interned to integers. Every
// traversal is iterative, so depth costs no stack. Mapping backtracks through
// recomputed forest distances, subtree pair by subtree pair, with an explicit
// stack. Both are safe for concurrent use.
//
// # What bounds memory
//
// A comparison of trees of n1 and n2 nodes holds two matrices of n1×n2 cells
// (subtree distances, and forest distances reused for every keyroot pair)
// plus O(n1+n2) for the flattened trees. Cells are uint16 while n1+n2 < 65535
// (every distance fits), int32 beyond, so a pair of 3,000-node token trees
// needs about 36 MB. Matrices come from a sync.Pool and are reused across
// calls. Options.MaxCells caps n1×n2 (DefaultMaxCells: 10^8, at most 400 MB
// with uint16 cells); a larger comparison fails with ErrBudget before any
// allocation, naming both trees and their sizes. Identical trees (equal
// labels and shape) are recognised in linear time and need no matrix.
package treediff
