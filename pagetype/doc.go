// Package pagetype tells a page's kind (article, collection,
// documentation, forum, listing, product, service: the seven types of the
// WCXB benchmark) from its structure alone: repeated card-like siblings,
// post and reply structure, JSON-LD @type and og:type, code, tables,
// prices and forms, the shape of its URL. The classifier is a multinomial
// logistic regression whose weights (pagetype_model.go)
// are fitted on annotated pages by heuristics/internal/fitconfidence.
package pagetype
