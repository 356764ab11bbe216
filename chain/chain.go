package chain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gleaner/gleaner/chain/langid"
	"github.com/gleaner/gleaner/chain/segment"
	"github.com/gleaner/gleaner/chain/tagger"
)

// TreeTaggerModel points to an installed TreeTagger for one language.
type TreeTaggerModel struct {
	Bin string // tree-tagger executable
	Par string // parameter file, e.g. french.par
}

// Config sets up a Chain. The zero value is usable.
type Config struct {
	// Languages the documents may be in (ISO 639-1); default en, fr, de.
	Languages []string
	// ApertiumDir holds Apertium's language data (default
	// /usr/share/apertium).
	ApertiumDir string
	// NoApertium disables Apertium (stems or TreeTagger only).
	NoApertium bool
	// TreeTagger, per language, takes precedence over Apertium.
	TreeTagger map[string]TreeTaggerModel
	// MaxBytes caps the text of one document (default 4 MiB); the rest is
	// dropped and Document.Truncated set.
	MaxBytes int
	// Workers is how many tagger processes (pipelines) each language may
	// run at once, for documents processed concurrently (default 1).
	Workers int
}

// DefaultLanguages are the languages of a zero Config.
var DefaultLanguages = []string{"en", "fr", "de"}

// Chain annotates documents. It is safe for concurrent use: each language
// has a pool of Config.Workers taggers, each serving one request at a time.
type Chain struct {
	cfg Config
	id  *langid.Identifier

	mu      sync.Mutex
	taggers map[string]*pool
}

// pool holds the taggers of one language.
type pool struct {
	name string
	free chan tagger.Tagger
	all  []tagger.Tagger
}

// New returns a chain; taggers start on first use.
func New(cfg Config) (*Chain, error) {
	if len(cfg.Languages) == 0 {
		cfg.Languages = DefaultLanguages
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = 4 << 20
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	id, err := langid.New(cfg.Languages)
	if err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	return &Chain{cfg: cfg, id: id, taggers: map[string]*pool{}}, nil
}

// Close stops the tagger processes.
func (c *Chain) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, p := range c.taggers {
		for _, t := range p.all {
			errs = append(errs, t.Close())
		}
	}
	c.taggers = map[string]*pool{}
	return errors.Join(errs...)
}

// Input is a document to annotate.
type Input struct {
	ID    string // stable identifier (page id, file name)
	URL   string
	Title string
	// Blocks are the coherent texts of the document, in order (see
	// chain/blocks); sentences never cross them. Text is used when Blocks
	// is empty: its paragraphs (blank-line separated) are the blocks.
	Blocks []string
	Text   string
	// Lang forces the language (skips identification) when set.
	Lang string
}

// Document is an annotated document.
type Document struct {
	ID, URL, Title string
	Lang           string  // ISO 639-1; "" when not identified
	LangConfidence float64 // in [0, 1]; 1 when the language was given
	// Tagger names what analysed the tokens: "apertium:fr-es",
	// "treetagger:de", "snowball-stems:de (no POS tagger for de)", or
	// "none (…)" when nothing could.
	Tagger    string
	Blocks    []Block
	Truncated bool
}

// Block is one coherent text.
type Block struct {
	Text      string
	Sentences []Sentence
}

// Sentence is a run of tokens; Text is its span of the block's text.
type Sentence struct {
	Text   string
	Tokens []tagger.Token
}

// Tokens counts the document's tokens.
func (d *Document) Tokens() int {
	n := 0
	for _, b := range d.Blocks {
		for _, s := range b.Sentences {
			n += len(s.Tokens)
		}
	}
	return n
}

// Process annotates one document.
func (c *Chain) Process(ctx context.Context, in Input) (*Document, error) {
	doc := &Document{ID: in.ID, URL: in.URL, Title: in.Title}
	blocks := c.bounded(in, doc)
	doc.Lang, doc.LangConfidence = in.Lang, 1
	if doc.Lang == "" {
		doc.Lang, doc.LangConfidence = c.id.Detect(in.Title + "\n" + strings.Join(blocks, "\n"))
	}
	tg, release, err := c.acquire(ctx, doc)
	if err != nil {
		return nil, err
	}
	defer release()
	// Segment every block, then tag the whole document in one request.
	all := segmentBlocks(doc, blocks)
	if tg == nil {
		lemmasAsWritten(all)
		return doc, ctx.Err()
	}
	if err := tg.Tag(ctx, all); err != nil {
		return nil, fmt.Errorf("chain: document %s: %w", in.ID, err)
	}
	return doc, ctx.Err()
}

// bounded returns the document's blocks (its text's paragraphs when it
// has none) up to Config.MaxBytes, marking doc truncated when some were
// left out: the work on huge pages is bounded.
func (c *Chain) bounded(in Input, doc *Document) []string {
	blocks := in.Blocks
	if len(blocks) == 0 {
		blocks = paragraphs(in.Text)
	}
	total := 0
	for i, b := range blocks {
		total += len(b)
		if total > c.cfg.MaxBytes {
			doc.Truncated = true
			return blocks[:i]
		}
	}
	return blocks
}

// acquire takes a free tagger of doc's language, naming it in doc, and
// returns it with the function that frees it. With no tagger for the
// language, doc says why and the tagger is nil.
func (c *Chain) acquire(ctx context.Context, doc *Document) (tagger.Tagger, func(), error) {
	p, err := c.pool(doc.Lang)
	if err != nil {
		doc.Tagger = "none (" + err.Error() + ")"
		return nil, func() {}, nil
	}
	doc.Tagger = p.name
	select {
	case tg := <-p.free:
		return tg, func() { p.free <- tg }, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

// segmentBlocks segments each non-blank block into sentences of tokens,
// added to doc, and returns all the sentences in order (the same tokens:
// tagging them annotates doc).
func segmentBlocks(doc *Document, blocks []string) [][]tagger.Token {
	var all [][]tagger.Token
	for _, text := range blocks {
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		segs := segment.Sentences(segment.Tokenize(text, doc.Lang), text, doc.Lang)
		sents := tagger.FromSegments(segs)
		b := Block{Text: text}
		for _, s := range sents {
			b.Sentences = append(b.Sentences, Sentence{Text: text[s[0].Start:s[len(s)-1].End], Tokens: s})
		}
		all = append(all, sents...)
		doc.Blocks = append(doc.Blocks, b)
	}
	return all
}

// lemmasAsWritten gives each token without a tagger its text as lemma.
func lemmasAsWritten(all [][]tagger.Token) {
	for _, s := range all {
		for i := range s {
			if s[i].Lemma == "" {
				s[i].Lemma = s[i].Text
			}
		}
	}
}

// pool returns the taggers of lang, making them on first use (their
// processes start on their first request).
func (c *Chain) pool(lang string) (*pool, error) {
	if lang == "" {
		return nil, errors.New("language not identified")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.taggers[lang]; ok {
		return p, nil
	}
	p := &pool{free: make(chan tagger.Tagger, c.cfg.Workers)}
	for range c.cfg.Workers {
		t, err := c.newTagger(lang)
		if err != nil {
			return nil, err
		}
		p.all = append(p.all, t)
		p.free <- t
	}
	p.name = p.all[0].Name()
	c.taggers[lang] = p
	return p, nil
}

// newTagger makes the best tagger available for lang: the configured
// TreeTagger, else Apertium, else Snowball stems.
func (c *Chain) newTagger(lang string) (tagger.Tagger, error) {
	var errs []error
	if m, ok := c.cfg.TreeTagger[lang]; ok {
		tt, err := tagger.NewTreeTagger(lang, m.Bin, m.Par)
		if err == nil {
			return tt, nil
		}
		errs = append(errs, err)
	}
	if !c.cfg.NoApertium {
		a, err := tagger.NewApertium(c.cfg.ApertiumDir, lang)
		if err == nil {
			return a, nil
		}
		errs = append(errs, err)
	}
	s, err := tagger.NewStemmer(lang)
	if err != nil {
		return nil, errors.Join(append(errs, err)...)
	}
	return s, nil
}

// Tagger reports which tagger the chain uses for lang.
func (c *Chain) Tagger(lang string) string {
	p, err := c.pool(lang)
	if err != nil {
		return "none (" + err.Error() + ")"
	}
	return p.name
}

// paragraphs splits text at blank lines.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
