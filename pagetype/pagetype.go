package pagetype

import (
	"cmp"
	"math"
	"net/url"
	"regexp"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Page types (Result.PageType): the seven kinds of page of the WCXB
// benchmark. What counts as a page's content depends on its kind: an
// article's text, a forum thread's posts, a listing's or a collection's
// item titles and summaries, a product's description, a documentation
// page's prose, code and tables, a service page's sections.
const (
	Article       = "article"
	Collection    = "collection"
	Documentation = "documentation"
	Forum         = "forum"
	Listing       = "listing"
	Product       = "product"
	Service       = "service"
)

// Types lists the page types in the order of the classifier's outputs.
var Types = []string{Article, Collection, Documentation, Forum, Listing, Product, Service}

// Classify returns the page type of t (src, optional, is its source,
// read for JSON-LD) and the probability of each type, in Types order.
// The classifier is a multinomial logistic regression over
// Features, fitted on annotated pages (see pagetype_model.go).
func Classify(t *treediff.Tree, src []byte) (string, []float64) {
	probs := pageTypeModel.probs(Features(t, src))
	return Types[Argmax(probs)], probs
}

// linearModel is a multinomial logistic regression over standardized
// features: class k scores Bias[k] + Σ W[k][j]·(x[j]-Mean[j])/Std[j].
type linearModel struct {
	Mean, Std []float64
	W         [][]float64
	Bias      []float64
}

// probs returns the softmax of the class scores of x; uniform when the
// model does not match x (no model fitted yet).
func (m linearModel) probs(x []float64) []float64 {
	k := len(Types)
	out := make([]float64, k)
	if len(m.W) != k || len(m.Mean) != len(x) {
		for i := range out {
			out[i] = 1 / float64(k)
		}
		return out
	}
	z := Standardize(x, m.Mean, m.Std)
	for c := range out {
		out[c] = m.Bias[c] + Dot(m.W[c], z)
	}
	return Softmax(out)
}

// Standardize returns (x-mean)/std per feature (std 0 counts as 1).
func Standardize(x, mean, std []float64) []float64 {
	z := make([]float64, len(x))
	for j := range x {
		s := std[j]
		if s == 0 {
			s = 1
		}
		z[j] = (x[j] - mean[j]) / s
	}
	return z
}

// Softmax turns scores into probabilities in place and returns them.
func Softmax(s []float64) []float64 {
	m := math.Inf(-1)
	for _, v := range s {
		m = max(m, v)
	}
	sum := 0.0
	for i, v := range s {
		s[i] = math.Exp(v - m)
		sum += s[i]
	}
	for i := range s {
		s[i] /= sum
	}
	return s
}

// Dot is the scalar product of a and b (len(b) >= len(a)).
func Dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// FeatureNames names the values Features returns, in order.
var FeatureNames = []string{
	"log words", "link share", "log p", "p share", "log headings", "headings per 100 words", "log h1",
	"log pre", "log code", "code share", "log table", "table share", "log li", "li share",
	"log form", "log inputs", "log buttons", "log img", "log article", "log time", "log blockquote", "log dl", "log nav",
	"log prices", "log shop words", "log forum words", "log doc words", "log itemprop price",
	"log card group", "card group share", "card group link share", "log post group", "post group share", "card groups",
	"ld article", "ld product", "ld forum", "ld collection", "ld doc", "ld service", "ld faq", "ld breadcrumb", "ld webpage",
	"og article", "og product", "og website",
	"url known", "url depth", "url date", "url numeric", "url html", "url slug", "url query", "url root",
	"url forum", "url product", "url doc", "url list", "url article", "url service",
}

// Features returns the structural cues of a page's kind, in
// FeatureNames order: how its words are spread over paragraphs,
// headings, code, tables, list items and links; its forms and buttons;
// prices and shop, forum and documentation words; groups of repeated
// sibling elements (cards, each with a link; posts, each a paragraph's
// worth of text); the JSON-LD @type and og:type it declares; and the shape
// of its canonical URL. Every cue is general: no site or class name. The
// work is linear in the size of the tree and of src.
func Features(t *treediff.Tree, src []byte) []float64 {
	if t == nil || t.Root == nil {
		return make([]float64, len(FeatureNames))
	}
	return newStructure(t).features(src)
}

// features are Features of the page s was read from.
func (s *structure) features(src []byte) []float64 {
	f := make([]float64, 0, len(FeatureNames))
	f = append(f, s.values()...)
	f = append(f, s.textCues()...)
	f = append(f, s.groups()...)
	f = append(f, ldTypes(src)...)
	f = append(f, s.ogTypes()...)
	f = append(f, urlShape(s.url)...)
	return f
}

// structure is one pass over a page's tree: words and links per element
// (their subtree), and what kind of element each word stands in.
type structure struct {
	t                  *treediff.Tree
	words, links       []int // per node, over its subtree
	hasLink            []bool
	tags               map[string]int
	total, linked      int
	inP, inCode, inTab int
	inLi               int
	itempropPrice      int
	text               string
	metas              map[string]string
	url                string
}

// Flags of the context a word stands in.
const (
	ctxLink = 1 << iota
	ctxP
	ctxCode
	ctxTable
	ctxLi
)

var ctxOfTag = map[string]int{"a": ctxLink, "p": ctxP, "pre": ctxCode, "code": ctxCode, "table": ctxTable, "li": ctxLi}

func newStructure(t *treediff.Tree) *structure {
	n := len(t.Nodes)
	s := &structure{t: t, words: make([]int, n), links: make([]int, n), hasLink: make([]bool, n),
		tags: map[string]int{}, metas: map[string]string{}}
	ctx := make([]int, n)
	for i, nd := range t.Nodes {
		if nd.Parent != nil {
			ctx[i] = ctx[nd.Parent.Index]
		}
		switch nd.Kind {
		case treediff.Element:
			s.element(nd)
			ctx[i] |= ctxOfTag[nd.Label]
		case treediff.Text:
			s.count(i, ctx[i], len(treediff.Words(nd.Label)))
		}
	}
	// Reverse preorder sees children before their parent.
	for i := n - 1; i > 0; i-- {
		p := t.Nodes[i].Parent
		if p == nil {
			continue
		}
		s.words[p.Index] += s.words[i]
		s.links[p.Index] += s.links[i]
		s.hasLink[p.Index] = s.hasLink[p.Index] || s.hasLink[i]
	}
	s.text = strings.ToLower(t.Root.Text())
	s.url = cmp.Or(s.metas["canonical"], s.metas["og:url"])
	return s
}

// element records an element's tag and what its attributes declare.
func (s *structure) element(nd *treediff.Node) {
	s.tags[nd.Label]++
	if nd.Label == "a" {
		if _, ok := nd.Attr("href"); ok {
			s.hasLink[nd.Index] = true
		}
	}
	if v, ok := nd.Attr("itemprop"); ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "price", "offers", "pricecurrency", "lowprice":
			s.itempropPrice++
		}
	}
	switch nd.Label {
	case "meta":
		k, _ := nd.Attr("property")
		if k == "" {
			k, _ = nd.Attr("name")
		}
		if v, ok := nd.Attr("content"); ok && k != "" {
			s.metas[strings.ToLower(k)] = strings.TrimSpace(v)
		}
	case "link":
		if rel, _ := nd.Attr("rel"); strings.EqualFold(strings.TrimSpace(rel), "canonical") {
			s.metas["canonical"], _ = nd.Attr("href")
		}
	}
}

// count adds a text node's words to the counters of its context.
func (s *structure) count(i, ctx, w int) {
	s.words[i] = w
	s.total += w
	if ctx&ctxLink != 0 {
		s.links[i] = w
		s.linked += w
	}
	if ctx&ctxP != 0 {
		s.inP += w
	}
	if ctx&ctxCode != 0 {
		s.inCode += w
	}
	if ctx&ctxTable != 0 {
		s.inTab += w
	}
	if ctx&ctxLi != 0 {
		s.inLi += w
	}
}

func (s *structure) share(w int) float64 { return float64(w) / float64(max(s.total, 1)) }

func (s *structure) tag(names ...string) float64 {
	n := 0
	for _, t := range names {
		n += s.tags[t]
	}
	return math.Log1p(float64(n))
}

// values are the word counts and tag counts.
func (s *structure) values() []float64 {
	headings := 0
	for _, h := range []string{"h1", "h2", "h3", "h4", "h5", "h6"} {
		headings += s.tags[h]
	}
	return []float64{
		math.Log1p(float64(s.total)), s.share(s.linked), s.tag("p"), s.share(s.inP),
		math.Log1p(float64(headings)), min(100*float64(headings)/float64(max(s.total, 1)), 10), s.tag("h1"),
		s.tag("pre"), s.tag("code"), s.share(s.inCode), s.tag("table"), s.share(s.inTab), s.tag("li"), s.share(s.inLi),
		s.tag("form"), s.tag("input", "select", "textarea"), s.tag("button"), s.tag("img"), s.tag("article"),
		s.tag("time"), s.tag("blockquote"), s.tag("dl"), s.tag("nav"),
	}
}

// priceRe matches a price: a currency sign or code next to a number.
var priceRe = regexp.MustCompile(`(?:[$€£¥₹]|\b(?:usd|eur|gbp)\b)\s?\d|\d(?:[\d.,]*\d)?\s?(?:[€£]|\b(?:usd|eur|gbp)\b)`)

// HoldsPrice reports whether s holds a price (priceRe, any case).
func HoldsPrice(s string) bool { return priceRe.MatchString(strings.ToLower(s)) }

// Words of shops, forums and documentation, counted in a page's text.
var (
	shopWords  = []string{"add to cart", "add to bag", "add to basket", "buy now", "in stock", "out of stock", "free shipping", "quantity", "checkout"}
	forumWords = []string{"reply", "replies", "posted", "joined", "quote", "members", "thread", "upvote", "answered", "comments"}
	docWords   = []string{"parameters", "returns", "example", "syntax", "install", "configuration", "function", "reference", "deprecated", "version"}
)

func (s *structure) countWords(ws []string) float64 {
	n := 0
	for _, w := range ws {
		n += strings.Count(s.text, w)
	}
	return math.Log1p(float64(n))
}

func (s *structure) textCues() []float64 {
	return []float64{
		math.Log1p(float64(len(priceRe.FindAllStringIndex(s.text, 1000)))),
		s.countWords(shopWords), s.countWords(forumWords), s.countWords(docWords),
		math.Log1p(float64(s.itempropPrice)),
	}
}

// minGroup is the least number of alike siblings that make a group of
// repeated units (cards, posts).
const minGroup = 3

// groups returns the cues of repeated sibling elements: siblings of the
// same tag and class attribute are alike; cards each hold a link and a few
// words, posts each a paragraph's worth of words with few links.
func (s *structure) groups() []float64 {
	var all groupTally
	alike := map[string]*groupTally{}
	for _, nd := range s.t.Nodes {
		if nd.Kind != treediff.Element || len(nd.Children) < minGroup {
			continue
		}
		clear(alike)
		for _, c := range nd.Children {
			if c.Kind == treediff.Element {
				s.tallyChild(alike, c)
			}
		}
		for _, g := range alike {
			all.add(g)
		}
	}
	return []float64{
		math.Log1p(float64(all.maxCard)), min(s.share(all.cw), 1), float64(all.cl) / float64(max(all.cw, 1)),
		math.Log1p(float64(all.maxPost)), min(s.share(all.pw), 1), math.Log1p(float64(all.groups)),
	}
}

// groupTally counts the cards and posts of a group of alike siblings
// (or, summed by add, of the page's groups).
type groupTally struct {
	cards, cw, cl, posts, pw int
	// Over the page: the largest groups and the number of card groups.
	maxCard, maxPost, groups int
}

// tallyChild counts c in the group of its alike siblings.
func (s *structure) tallyChild(alike map[string]*groupTally, c *treediff.Node) {
	cls, _ := c.Attr("class")
	key := c.Label + "." + cls
	g := alike[key]
	if g == nil {
		g = &groupTally{}
		alike[key] = g
	}
	w, l := s.words[c.Index], s.links[c.Index]
	if s.hasLink[c.Index] && w >= 3 {
		g.cards, g.cw, g.cl = g.cards+1, g.cw+w, g.cl+l
	}
	if w >= 20 && 3*l < w {
		g.posts, g.pw = g.posts+1, g.pw+w
	}
}

// add counts group g in the page's tally when it is large enough.
func (t *groupTally) add(g *groupTally) {
	if g.cards >= minGroup {
		t.groups++
		t.maxCard = max(t.maxCard, g.cards)
		t.cw, t.cl = t.cw+g.cw, t.cl+g.cl
	}
	if g.posts >= minGroup {
		t.maxPost = max(t.maxPost, g.posts)
		t.pw += g.pw
	}
}

// ogTypes are og:type's article, product and website.
func (s *structure) ogTypes() []float64 {
	og := strings.ToLower(s.metas["og:type"])
	return []float64{b2f(strings.Contains(og, "article")), b2f(strings.Contains(og, "product")), b2f(og == "website")}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// ldTypeRe matches a JSON-LD "@type" with its value (a string or a list).
var ldTypeRe = regexp.MustCompile(`"@type"\s*:\s*(\[[^\]]{0,400}\]|"[^"]{0,100}")`)

// ldFamilies group schema.org types by the page kind they declare.
var ldFamilies = [][]string{
	{"article", "newsarticle", "blogposting", "reportagenewsarticle", "opinionnewsarticle"},
	{"product", "offer", "aggregateoffer", "productgroup"},
	{"discussionforumposting", "qapage", "question", "answer", "comment", "socialmediaposting"},
	{"collectionpage", "itemlist", "offercatalog", "searchresultspage"},
	{"techarticle", "apireference", "softwaresourcecode", "softwareapplication", "howto"},
	{"service", "localbusiness", "professionalservice", "organization", "corporation"},
	{"faqpage"},
	{"breadcrumblist"},
	{"webpage", "aboutpage", "contactpage"},
}

// ldTypes returns, per family of ldFamilies, whether the page's JSON-LD
// declares one of its types (read from the source: the tree drops scripts).
func ldTypes(src []byte) []float64 {
	out := make([]float64, len(ldFamilies))
	if len(src) == 0 {
		return out
	}
	const maxScan = 4 << 20
	text := strings.ToLower(string(src[:min(len(src), maxScan)]))
	declared := map[string]bool{}
	for _, m := range ldTypeRe.FindAllStringSubmatch(text, 500) {
		for _, f := range strings.FieldsFunc(m[1], func(r rune) bool { return r == '"' || r == ',' || r == '[' || r == ']' || r == ' ' }) {
			declared[strings.TrimPrefix(f, "schema:")] = true
		}
	}
	for i, fam := range ldFamilies {
		for _, ty := range fam {
			if declared[ty] {
				out[i] = 1
			}
		}
	}
	return out
}

// URL words of page kinds, matched against whole path segments or their
// hyphen-separated parts.
var urlFamilies = [][]string{
	{"forum", "forums", "thread", "threads", "topic", "topics", "community", "discussion", "discussions", "questions", "t"},
	{"product", "products", "p", "dp", "item", "shop", "store"},
	{"docs", "doc", "documentation", "api", "reference", "guide", "guides", "manual", "tutorial", "learn", "wiki"},
	{"category", "categories", "tag", "tags", "collections", "collection", "list", "search", "archive", "c"},
	{"blog", "news", "article", "articles", "story", "post", "posts"},
	{"services", "service", "solutions", "pricing", "about", "contact", "features", "plans"},
}

var yearRe = regexp.MustCompile(`^(19|20)\d\d$`)

// segmentCues sets out's year, numeric and file extension cues from the
// path segments and returns the segments with their hyphen-, underscore-
// and dot-separated parts.
func segmentCues(segs []string, out []float64) map[string]bool {
	parts := map[string]bool{}
	for _, sg := range segs {
		out[2] = max(out[2], b2f(yearRe.MatchString(sg)))
		out[3] = max(out[3], b2f(strings.Trim(sg, "0123456789") == "" || len(strings.Trim(sg, "abcdefghijklmnopqrstuvwxyz-_.")) >= 5))
		out[4] = max(out[4], b2f(strings.HasSuffix(sg, ".html") || strings.HasSuffix(sg, ".htm") || strings.HasSuffix(sg, ".php")))
		parts[sg] = true
		for _, p := range strings.FieldsFunc(sg, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			parts[p] = true
		}
	}
	return parts
}

// urlShape returns the cues of a page's URL: known, depth, a year segment,
// a numeric segment, a file extension, hyphens of the last segment (a
// slug), a query, the site's root, and per urlFamilies a matching segment.
func urlShape(raw string) []float64 {
	out := make([]float64, 8+len(urlFamilies))
	u, err := url.Parse(raw)
	if raw == "" || err != nil {
		return out
	}
	segs := strings.FieldsFunc(strings.ToLower(u.Path), func(r rune) bool { return r == '/' })
	out[0], out[1] = 1, float64(min(len(segs), 6))/6
	out[6], out[7] = b2f(u.RawQuery != ""), b2f(len(segs) == 0)
	parts := segmentCues(segs, out)
	if len(segs) > 0 {
		out[5] = float64(min(strings.Count(segs[len(segs)-1], "-"), 10)) / 10
	}
	for i, fam := range urlFamilies {
		for _, w := range fam {
			if parts[w] {
				out[8+i] = 1
			}
		}
	}
	return out
}
