// Package eval scores extracted texts against gold (human-annotated) texts
// and runs Gleaner's extraction over an annotated dataset.
//
// Two families of metrics are computed per page and summarized overall and
// per site:
//
//   - The thesis's table (seed 004, chapter 5). T is the extracted text, T*
//     the gold. Words are the lower-cased \w+ tokens (Unicode letters, digits
//     and '_', as treediff.Words cuts them); cos(T, T*) is the cosine of the
//     two word-count vectors. Exactitude is the share of pages with
//     cos(T, T*) >= 0.9; also the mean cosine, and after whitespace
//     normalization the counts of pages with T = T*, T ⊂ T* (T a proper
//     substring of T*: cut too low) and T* ⊂ T (cut too high). When both
//     texts have no word the cosine is 1, when only one has none it is 0.
//
//   - Shingle precision, recall, F1 and accuracy exactly as evaluate.py of
//     the public scrapinghub/article-extraction-benchmark defines them
//     (read at commit 7d95432dc2320c068b1e53072c64e8c13cf096cb): tokens are
//     Python's \w+ matches, NOT case-folded (the script compiles the pattern
//     with re.IGNORECASE, which does not change the matched text); shingles
//     are the word 4-grams, and a text of 1 to 3 tokens has one shorter
//     shingle, an empty text none; per page, TP/FP/FN are the multiset
//     intersection and differences of the shingle counts, normalized to sum
//     1; precision is TP/(TP+FP) averaged over the pages where TP+FP > 0,
//     recall TP/(TP+FN) averaged over the pages where TP+FN > 0, with a page
//     of FP = FN = 0 scoring 1 for both; F1 is the harmonic mean of those two
//     averages (not the mean of per-page F1); accuracy is the share of pages
//     whose token sequence equals the gold's exactly. Where the script would
//     fail (no page to average, P+R = 0) the value here is 0.
//
// Run performs the pipeline on a dataset: read the manifest (package
// dataset), optionally import it into a store, extract each site's pages
// with a SiteExtractor — Learned (Gleaner's full method: template learning,
// pair diff against the medoid, cluster vote, single-page fallback) or
// Single (singlepage.Extract alone) — and score each page's text (the
// title line, a blank line, the body) against its gold. Report prints both
// tables overall and per site, the pages failing first, and predictions as
// JSON lines for external scorers.
//
// Commands: "gleaner eval --manifest M.tsv [--method gleaner|single]" and,
// in the separate module evalcmp, the side-by-side comparison with
// go-trafilatura.
package eval
