// Package siteextract is Gleaner's one site-extraction pipeline: the pages
// of a site, placed on the site's learned templates (package cluster), each
// compared with its partner page and extracted (package heuristics). It is
// the counterpart of cluster.LearnSite: LearnSite learns and stores a site's
// templates; Site reads a stored site, places its pages on the latest
// finished run's templates, extracts them and stores the extractions and
// the rules the clusters voted. Docs does the same for pages held in memory
// (learning the templates first), without any store: it is what the
// evaluation measures, so that the F1 reported is the F1 of the pipeline
// that `gleaner extract` and the crawler run.
//
// # Partners
//
// One rule, Partners, says which page each page is compared with:
//
//   - a member of a cluster that is not an outlier is compared with its
//     cluster's medoid;
//   - the medoid itself is compared with the member of its cluster nearest
//     to it by normalised tree edit distance (ties: the earlier page), the
//     page built most like it, so that what differs is content;
//   - an outlier, a page the run did not place, and the medoid of a cluster
//     with no other usable member get no partner: the single-page method.
//
// The tree edit distance to the medoid is used (not the distance in the
// 2-D embedding) because it is exact and recorded the same way for pages
// clustered from scratch and pages assigned later to the templates of an
// earlier run, whose embedding coordinates are only placed beside the
// medoid.
//
// # Rules of an earlier run
//
// A stored run's cluster rules (CSS selectors voted by the pages of a
// cluster) fill in for clusters that vote none this time. A run that only
// assigned new pages to the templates of its base run keeps the base run's
// cluster IDs, so when it has no rules stored, its base run's rules are
// used; a run learned from scratch has new clusters, and earlier rules do
// not describe them.
package siteextract
