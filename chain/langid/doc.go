// Package langid identifies the language of a text among a configured set
// of languages, with a confidence.
//
// It uses whatlanggo's trigram profiles (a small, pure-Go model; lingua-go
// was weighed and rejected: its module is 123 MB and embeds every
// language's model in the binary). Restricting the candidates to the
// languages a corpus may hold is what makes short texts reliable.
package langid
