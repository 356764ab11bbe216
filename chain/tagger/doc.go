// Package tagger gives tokens a part of speech and a lemma.
//
// Three implementations share the Tagger interface:
//
//   - Apertium runs Debian's Apertium morphological analyser (lt-proc) and
//     HMM tagger (apertium-tagger) of a language as long-lived processes fed
//     through pipes; a NUL byte flushes each request (the -z protocol), so a
//     document costs a round trip, never a process start;
//   - TreeTagger drives an installed TreeTagger (the user gives the binary
//     and parameter file) the same way, one token a line, with SGML
//     sentinels and padding to defeat its look-ahead and output buffering;
//   - Stemmer, for languages with no tagger, gives Snowball stems as lemmas
//     and no part of speech, and says so in its Name.
//
// Tags are mapped to Universal Dependencies UPOS and features; the tagger's
// own tag is kept as XPOS.
package tagger
