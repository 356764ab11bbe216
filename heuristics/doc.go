// Package heuristics locates the useful content of a page (title, article
// body, date, author) in its treediff tree.
//
// Three methods decide, each reported in Result.Method:
//
//   - pair diff: the page is compared with its template medoid and the
//     elements whose words differ from the template hold the content;
//   - cluster rule: the element signature most often chosen for a template
//     cluster is applied directly to new pages of that template;
//   - single page: text density, link density, coherent blocks of text and
//     class/id cues on the page alone, for outliers, singletons and sites
//     with one known page (ExtractSingle).
//
// Metadata (date, author) comes from meta tags, JSON-LD and <time>
// elements (ExtractMeta), whatever method located the body.
//
// A rendered page can come with what the browser showed (Input.Visible,
// SitePage.Visible, e.g. from capture.Visible): the elements it hid
// are left out before any method runs (VisibleTree), so that text hidden by
// a stylesheet, which otherwise varies from page to page like an article,
// is not taken for one.
package heuristics
