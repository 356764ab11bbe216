// Package export writes annotated documents and crawled pages in the
// formats corpus tools read: CoNLL-U, TreeTagger-style vertical text,
// XML-TEI (one file per document), JSON Lines, WARC (the rendered response
// and a conversion record holding the extracted text) and the hyperlink
// graph (CSV edge list and GraphML).
//
// Every writer streams: nothing holds more than one document in memory.
// Each format has a reader or validator in the tests (ReadWARC is exported
// for users who want to read the WARC files back).
package export
