package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gleaner/gleaner/chain"
	"github.com/gleaner/gleaner/export"
)

// chainFlags are the flags that configure the linguistic chain.
type chainFlags struct {
	workers     *int
	langs       *string
	apertiumDir *string
	noApertium  *bool
	treeTagger  multiFlag
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func addChainFlags(fs *flag.FlagSet) *chainFlags {
	cf := &chainFlags{
		workers:     fs.Int("workers", 1, "documents annotated at once, each language running as many tagger processes"),
		langs:       fs.String("langs", strings.Join(chain.DefaultLanguages, ","), "`languages` documents may be in (ISO 639-1, comma-separated)"),
		apertiumDir: fs.String("apertium-dir", "", "Apertium language data `folder` (default /usr/share/apertium)"),
		noApertium:  fs.Bool("no-apertium", false, "do not use Apertium (Snowball stems unless a TreeTagger is given)"),
	}
	fs.Var(&cf.treeTagger, "treetagger", "use an installed TreeTagger for a language: `lang=BIN:PARFILE` (repeatable)")
	return cf
}

func (cf *chainFlags) config() (chain.Config, error) {
	if *cf.workers < 1 {
		return chain.Config{}, fmt.Errorf("%w: --workers must be at least 1", errUsage)
	}
	cfg := chain.Config{ApertiumDir: *cf.apertiumDir, NoApertium: *cf.noApertium, TreeTagger: map[string]chain.TreeTaggerModel{}, Workers: *cf.workers}
	for _, l := range strings.Split(*cf.langs, ",") {
		if l = strings.TrimSpace(l); l != "" {
			cfg.Languages = append(cfg.Languages, l)
		}
	}
	for _, t := range cf.treeTagger {
		lang, rest, ok1 := strings.Cut(t, "=")
		bin, par, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 || lang == "" || bin == "" || par == "" {
			return cfg, fmt.Errorf("%w: --treetagger %q: want lang=BIN:PARFILE", errUsage, t)
		}
		cfg.TreeTagger[lang] = chain.TreeTaggerModel{Bin: bin, Par: par}
	}
	return cfg, nil
}

// newChain makes the chain the flags describe.
func (cf *chainFlags) newChain() (*chain.Chain, error) {
	cfg, err := cf.config()
	if err != nil {
		return nil, err
	}
	c, err := chain.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return c, nil
}

func runChain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("chain", stderr)
	cf := addChainFlags(fs)
	format := fs.String("format", "conllu", "output `format`: conllu, vertical, jsonl or tei")
	lang := fs.String("lang", "", "the documents' `language` (default: identified per document)")
	html := fs.Bool("html", false, "inputs are HTML: their body is split into coherent blocks (default: files ending in .html/.htm)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner chain [--format conllu|vertical|jsonl|tei] [--lang L] [--langs en,fr,de] [--treetagger lang=BIN:PAR] [FILE...]\n\n"+
			"Annotates each file (standard input when none) and writes the result to standard output.\n"+
			"Paragraphs of text files are blank-line separated; HTML files are split into coherent blocks.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	w, err := export.NewDocumentWriter(out, *format)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	c, err := cf.newChain()
	if err != nil {
		return err
	}
	defer c.Close()
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		in, err := chainInput(name, *lang, *html)
		if err != nil {
			return err
		}
		doc, err := c.Process(ctx, in)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := w.Write(doc, in.Text); err != nil {
			return err
		}
	}
	return out.Flush()
}

// chainInput reads file name ("-": standard input) as the chain's input in
// language lang ("" to identify), HTML with asHTML (chain.InputOf).
func chainInput(name, lang string, asHTML bool) (chain.Input, error) {
	var src []byte
	var err error
	if name == "-" {
		src, err = io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
	} else {
		src, err = os.ReadFile(name)
	}
	if err != nil {
		return chain.Input{}, err
	}
	return chain.InputOf(name, src, lang, asHTML)
}
