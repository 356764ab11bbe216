// Package sitelearn learns the templates of a stored site and records the
// learning runs in the store: it is where package cluster (which does not
// import the store, so that it is usable as a library without cgo SQLite)
// meets package store. Package siteextract places a stored site's pages on
// the templates of its latest finished run and extracts them.
//
// # Runs in the store
//
// Site runs cluster.Learn on one site of a store.Store (its pages parsed a
// chunk at a time, the store as distance cache: Cache) and records a run: k,
// silhouette per k, clusters with their medoid, one membership per page with
// its 2-D position, distance to the medoid and outlier reason, and in the
// run's parameters (RunParams) both medoid candidates and each cluster's
// radius. When the latest finished run has the same seed and options and the
// same pages plus new ones, the new pages are assigned to its templates
// instead (placed in the plane beside their medoid, at their distance from
// it); once more than cluster.Options.DriftFraction of the pages assigned
// since the last clustering are far from every template, the site is learned
// again from scratch.
//
// LoadModel reads a stored run's templates back as a cluster.Model, and
// ReapRuns marks failed the runs left `running` by a learner that died.
package sitelearn
