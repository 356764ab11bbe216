// Package blocks splits the text of a page (or of the element holding its
// useful content) into coherent blocks: texts that each say one thing, so
// that a caption, a teaser or a menu is never glued to the article it sits
// next to (seed 002, "Ekstrakcja spójnych tekstów z Internetu").
//
// Two methods of the seed are combined.
//
// Energy: a text node's energy is its number of words; an element's energy
// is β times the sum of its children's energies. β < 1 dissipates energy
// as it climbs, less in tall trees (β = k/(k+c), k the height of the
// tree): deep presentational nesting should not split a text. Walking down
// from the root, a node none of whose children has more energy than itself
// is coherent; otherwise every child is visited in turn. Texts of similar
// weight under one parent merge (paragraphs of an article), a small text
// next to a large one separates (a caption beside the story).
//
// Link rules: a subtree that flattens to links only (two or more) is
// navigation, and each link is a block of its own; a subtree dense in links
// is a link structure, never one block, and inside it an element grouping
// one link with text (a headline and its teaser) is one block; sectioning
// elements that hold other texts than the story (figure, aside, nav,
// header, footer, form) always bound a block.
//
// Blocks are pairwise disjoint and together hold every word under the
// root, except in script, style and similar elements that hold no text.
package blocks
