// Package terms extracts term candidates from tagged text and relates them
// the way the ERSS tools did (seed 000: Syntex then Upery).
//
// Candidates are noun phrases matched by part-of-speech patterns per
// language (English: adjectives and nouns ending in a noun; French: a noun,
// its adjectives and one "de/à" complement; German: adjectives and a noun,
// a noun being any capitalised word inside a sentence when no tagger gave
// parts of speech)
// and ranked by C-value (Frantzi, Ananiadou & Mima 2000), which favours
// frequent candidates that are not only parts of longer ones. The log2|a|
// factor is taken as log2(|a|+1) so that one-word terms rank too.
//
// Distrib is Upery's distributional analysis: terms share syntactic
// contexts; a context's productivity is its number of distinct terms, a
// term's its number of distinct contexts; for two terms sharing a contexts
// C, prox = Σ_{c∈C} 1/√prod(c), j₁ = a/prod(t₁), j₂ = a/prod(t₂). Without
// a dependency parser, Contexts approximates Syntex's relations from the
// tagged sentence: the verb before a term (OBJ), the verb after it (SUJ),
// the noun and preposition it completes (N, DE), the preposition and noun
// that complete it (DE, N).
//
// Matrix is the document × word frequency matrix over lemmas.
package terms
