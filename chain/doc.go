// Package chain is Gleaner's linguistic chain: it turns the useful content
// of a page into an annotated document, ready for corpus tools.
//
// Per document it identifies the language among the configured ones
// (chain/langid), keeps the coherent blocks of text apart (chain/blocks: a
// caption is never glued into a sentence of the article), cuts sentences
// and tokens with pre-tagged URLs, e-mails, dates, numbers, money and
// measures (chain/segment), then gives each token a part of speech and a
// lemma (chain/tagger): a TreeTagger when the user configured one for the
// language, else Debian's Apertium, else Snowball stems — Document.Tagger
// says which, and says so when no tagger exists for the language. Taggers
// are processes started once and kept alive for every document.
//
// The chain knows nothing of where documents come from: package export and
// "gleaner export" feed it from a store.
package chain
