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
// On the pages of ../shared/data/ted-bench, Parse and View rebuild the
// reference trees byte for byte.
//
// # Tree edit distance
//
// Distance and Mapping use unit costs: deleting or inserting a node costs 1,
// renaming costs 0 between equal labels and 1 otherwise (with
// Options.CompareKinds, labels of different Kind never match). Both are safe
// for concurrent use.
//
// The algorithm is Zhang–Shasha's, run on whichever of the left and the
// right path decomposition needs fewer subproblems for the pair (the right
// one is the same code on mirrored trees); the count is known exactly before
// computing (the product of the two trees' sums of keyroot subtree sizes).
// We measured, on the ted-bench pairs, what the general path strategies of
// RTED and APTED could save: the optimal left/right/heavy strategy needs only
// 1.0 to 1.35 times fewer subproblems than the better of the two
// decompositions, because news pages are shallow and bushy. So the effort
// went into the constant factor instead: labels interned to integers, uint16
// cells while every distance fits, the pairs with a leaf keyroot in closed
// form (one scan of the other tree per leaf keyroot: most keyroots of a
// token tree are words), up to four forest rows per pass so that their
// dependency chains interleave, and repeated subtrees computed once: two
// identical subtrees of one tree (menu entries, list items, teaser cards)
// are at the same distance from every subtree of the other, so a keyroot
// that repeats an earlier keyroot's subtree copies that keyroot's rows (or,
// in the second tree, columns) of subtree distances instead of recomputing
// them; subtrees are numbered by shape in linear time to find them. The
// comparison with APTED built and run in the same session is
// scripts/bench-ted (make bench-ted; README). The price is robustness on adversarial
// shapes, where every node has siblings on both sides (a 900-node "zigzag"
// against a 750-node one needs 10^10 subproblems): Options.MaxWork refuses
// such comparisons up front with ErrBudget instead of running for minutes.
//
// Mapping backtracks from the filled subtree-distance matrix through
// recomputed forest distances, subtree pair by subtree pair, with an explicit
// stack; among equally cheap edit scripts it prefers keeping nodes with equal
// labels, then deletions and insertions, then renames. Every traversal is
// iterative, so depth costs no stack.
//
// # Reduced trees and pq-grams
//
// Template learning compares many pages and cannot afford an exact distance
// between every pair of today's 5,000-to-9,000-element pages. Reduce builds
// the tree it compares exactly: the descendants of elements whose content is
// drawn, scripted or hidden by markup (Collapsed) are dropped, and runs of
// identical sibling subtrees are kept to three (rei.com's tag trees: 5.3-8.7k
// nodes down to 2.7-3.9k). Profile computes a tree's pq-gram profile (p = 2,
// q = 3, Augsten et al.) in linear time, and PQGrams.Distance compares two
// profiles with one merge: the fast distance package cluster groups pages
// by.
//
// # What bounds memory
//
// Distance on trees of n1 and n2 nodes holds one matrix of n1×n2 cells (the
// subtree distances) plus a few rows of forest distances: each forest row is
// read by the next row and by the rows of the nodes whose leftmost leaf
// follows it, and its slot is reused once they are done, so about as many
// rows as the first tree is deep are alive at once. Cells are uint16 while
// n1+n2 < 65535 (every distance then fits), int32 beyond: a pair of
// 3,400-node token trees needs 21 MB of matrices and 40 MB of peak RSS for
// the whole gleaner ted process (APTED's JVM: 490 MB on the same pair).
// Mapping backtracks through whole forest matrices, so it holds a second
// n1×n2 matrix (61 MB peak RSS on that pair). Matrices come from a sync.Pool
// and are reused across calls. Options.MaxCells caps n1×n2
// (DefaultMaxCells: 10^8, at most 200 MB for Distance and 400 MB for Mapping
// with uint16 cells); a larger comparison fails with ErrBudget before any
// allocation, naming both trees and their sizes. Identical trees (equal
// labels and shape, common among a site's pages) are recognised in linear
// time and need no matrix at all.
package treediff
