// Package heuristics locates the useful content of a page (title, article
// body, date, author) with what its site's templates teach: the page is
// compared with its template's medoid.
//
// Three methods decide, each reported in singlepage.Result.Method:
//
//   - pair diff: the page is compared with its template medoid and the
//     elements whose words differ from the template hold the content
//     (PairDiff, on the tree alignment of Align);
//   - cluster rule: the element signature most often chosen for a template
//     cluster is applied directly to new pages of that template (Vote,
//     ApplyRules);
//   - single page: package singlepage, for outliers, singletons and sites
//     with one known page; its block model also judges the short lines of
//     the other two methods' text.
//
// Extract and ExtractSite choose among them; the result's confidence is
// calibrated by singlepage.Calibrate. Metadata (date, author) comes from
// singlepage.ExtractMeta, whatever method located the body.
//
// A rendered page can come with what the browser showed (Input.Visible,
// SitePage.Visible, e.g. from capture.Visible): the elements it hid
// are left out before any method runs (VisibleTree), so that text hidden by
// a stylesheet, which otherwise varies from page to page like an article,
// is not taken for one.
package heuristics
