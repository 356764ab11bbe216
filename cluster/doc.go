// Package cluster learns which pages of a site share a page template, so that
// each page can be compared with a structurally similar page (its template's
// medoid) to find its useful content.
//
// # Pipeline
//
// Learn takes one site's pages and:
//
//  1. computes the distance between the tag trees (treediff.TagView) of
//     pairs of pages: by default (Options.Distance FastDistance) the pq-gram
//     distance (treediff.Profile: each page profiled once in linear time,
//     each pair one merge of two sorted bags), on Options.Workers
//     goroutines, cancelled with the context, and cached by page content
//     hash (Options.Cache, a DistanceCache; package sitelearn backs one with
//     the store) so that a re-run computes only new pairs; ExactDistance,
//     the seeds' unit-cost tree edit distance (treediff.Distance) on every
//     pair, is kept to measure the fast distance against;
//  2. embeds the pages in the plane: classical (Torgerson) MDS, the two
//     leading eigenpairs of the double-centred squared distance matrix found by
//     Jacobi rotations, refined by SMACOF stress majorisation;
//  3. runs k-means (k-means++ seeds, Options.Restarts restarts, a
//     math/rand/v2 PCG generator seeded from Options.Seed and k) in the plane
//     for every k from 2 to Options.MaxK, on muesli/clusters observations;
//  4. scores each partition by its mean silhouette computed on the original
//     normalised tree edit distances, not on the embedding;
//  5. picks each cluster's medoid and flags outliers.
//
// The same pages in the same order with the same seed give the same result:
// every random choice comes from the seeded generator and the parallel
// distance computation writes each result to its own slot.
//
// # Normalisation
//
// A unit-cost tree edit distance d between trees of n1 and n2 nodes is mapped
// to [0, 1] by
//
//	2·d / (n1 + n2 + d)
//
// (Li & Chen's normalisation, which keeps the triangle inequality). Since
// d ≤ n1 + n2 (delete one tree, insert the other) the value is at most 1; it is
// 0 only for identical trees. The ratio d / max(n1, n2) is not used: it exceeds
// 1 when the trees' shapes disagree (a chain of n nodes against a star of n
// nodes needs about 2n edits).
//
// The pq-gram distance between profiles P1 and P2 is 1 − 2·|P1 ∩ P2| /
// (|P1| + |P2|) (bag intersection), also in [0, 1] and 0 for equal
// profiles. Over a sample of pairs of each big9-dev site its mean is close
// to the normalised tree edit distance's (0.01 to 0.11 lower, 0.05 on
// average), so one set of thresholds serves both.
//
// # Fast distance and exact tree edit distance
//
// Today's pages have 5,000 to 9,000 elements; one exact tree edit distance
// between two of them takes seconds, and learning a site of 12 such pages
// took 17 CPU seconds a page. The pq-gram distance tracks it (on big9-dev,
// TestFastDistanceAgreesWithTED: Spearman rank correlation 0.85 to 0.99
// within a site, mean 0.93; the clusters learned on it agree with those
// learned on exact TEDs with a mean adjusted Rand index of 0.978) at a
// thousandth of the cost. The exact tree edit distance is kept where it
// decides: when a page's nearest medoids (within their radius) are within
// Options.TieMargin of each other, the exact distances between reduced trees
// (treediff.Reduce: drawn, scripted and hidden subtrees collapsed, runs of
// identical siblings kept to three) choose between them. The outlier floor
// Options.FarDistance was set on tree edit distances, and on today's pages
// the pq-gram distance runs lower (0.6 to 0.9 of the tree edit distance on
// wcxb-dev's two-page sites): where a page's template radius is that floor
// and its fast distance lies between half the floor and the floor, the
// exact distance between reduced trees says whether it is an outlier.
// Page.Compact keeps
// a page as learning needs it: its profile and its reduced tree.
//
// # Choosing k
//
// For each k the best of the restarts (least within-cluster sum of squares)
// is scored by its mean silhouette s(i) = (b(i) − a(i)) / max(a(i), b(i)) over
// all pages, a page alone in its cluster scoring 0. The k with the highest
// mean silhouette is kept when that mean is at least Options.MinSilhouette
// (0.25 by default: below it Kaufman & Rousseeuw find no substantial
// structure); otherwise the site has one template, k = 1. Sites with two
// usable pages, or whose pages all have the same tag tree, have k = 1 without
// trying.
//
// # Medoids and outliers
//
// Each cluster has two candidate representatives: the thesis's, the member
// nearest the cluster centroid in the plane (CentroidMedoid), and the member
// with the least mean tree edit distance to the other members (TrueMedoid).
// Options.Medoid chooses which one is the cluster's Medoid (TrueMedoid by
// default, which extracted slightly better on big9-dev); both are reported.
// A page is an outlier when it is alone in its cluster, when its distance to
// the nearest medoid (of clusters with two members or more)
// exceeds that cluster's radius Far = max(Options.FarDistance, median +
// Options.FarMADs × 1.4826 × MAD of the members' distances to the medoid), or
// when it could not be parsed. Outliers keep their cluster but come with the
// reason.
//
// # Scale
//
// Up to Options.LandmarkThreshold pages (60) every pair is compared. Larger
// sites use Options.Landmarks landmark pages (30), chosen alternately at
// random and farthest-first from the landmarks so far: each page is compared
// with the landmarks only, the landmarks are embedded as above and every other
// page is triangulated from its landmark distances (landmark MDS, de Silva &
// Tenenbaum) then moved to reduce its stress against them. Silhouettes and
// true medoids use the distances to the landmarks (an unbiased sample of each
// cluster), and each page is compared with each medoid once more. The number
// of distances thus grows linearly: about (Landmarks + k) · n instead of
// n²/2, e.g. about 35,000 instead of 500,000 for 1,000 pages. Package
// sitelearn also bounds the pages learned from (a sample; the others are
// assigned). Result.Cost reports what a run spent: pages, fast and exact
// distances computed, CPU time, the process's peak RSS.
//
// A Model (Result.Model, or NewModel from stored medoids) assigns new pages to
// the nearest template by comparing them with the medoids only (one fast
// distance per template, the medoids profiled once per model; exact only
// for near ties), and Drift says
// when too many of them are far from every template and the site must be
// learned again.
//
// # Runs in the store
//
// Package cluster does not import the store: package sitelearn runs the above
// on a stored site and records the run (sitelearn.Site), reaps abandoned runs
// and loads a stored run's templates as a Model (sitelearn.LoadModel).
package cluster
