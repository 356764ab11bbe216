// Package segment cuts text into tokens and sentences.
//
// Tokenize walks the text once: it first recognises pre-tagged units that a
// word tokenizer would break apart (URLs, e-mail addresses, dates, times,
// money amounts, measures, numbers; Kind says which), then splits the rest
// into words and punctuation following Unicode letter and digit classes,
// with the clitics of English (don't -> do n't), French elision
// (l'homme -> l' homme) and the abbreviations of English, French and German
// (Mr., M., z.B., etc.) kept whole. Sentences groups tokens into sentences:
// a line break is always a boundary, a final stop only when what follows can
// start a sentence and the stop does not belong to an abbreviation.
//
// Offsets are byte offsets into the input, so every token can be traced
// back to the source text.
package segment
