// Package pagemeta reads what a web page states about itself: its
// headline, publication and modification dates (ISO 8601 with a zone),
// authors, language (declared and identified on the text), site name,
// canonical URL and section, each with the kind of source it came from.
//
// Structured data comes first (JSON-LD, meta tags, itemprop), then the
// page's visible bylines near its headline (dates and names written in
// English, French, German, Spanish, Italian, Portuguese, Dutch or Polish),
// then the URL. Comments, related stories, footers and sidebars are never
// read for dates or names. Every command that shows metadata (extract,
// eval, crawl, monitor, exports, the dashboard) reads it through Extract,
// so that one page gives one answer, plain or rendered.
package pagemeta
