// Package export writes annotated documents and crawled pages in the
// formats corpus tools read: CoNLL-U, TreeTagger-style vertical text,
// XML-TEI (one file per document), JSON Lines, WARC (each page's HTTP
// exchanges as served when they were recorded, the rendered DOM and the
// extracted text as conversion records), WACZ (those WARC files packaged
// with their CDXJ index and pages list, for replay tools) and the
// hyperlink graph (CSV edge list and GraphML).
//
// Every writer streams: nothing holds more than one document in memory.
// Each format has a reader or validator in the tests (ReadWARC is exported
// for users who want to read the WARC files back).
package export
