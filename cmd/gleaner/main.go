// Command gleaner renders news sites, learns each site's page templates and
// extracts the useful content of their pages.
//
// Usage:
//
//	gleaner <command> [flags] [arguments]
//
// Run "gleaner help" for the list of commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gleaner/gleaner/browser"
)

// command is one subcommand of gleaner; each runs from its own file.
type command struct {
	name  string
	short string // one line for "gleaner help"
	// run parses args (without the command name) and does the work, writing
	// results to stdout. It returns errUsage (wrapped or not) for bad flags.
	run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commandList lists the commands, sorted by name.
var commandList = []command{
	{"chain", "annotate text or HTML files with the linguistic chain (language, sentences, tokens, POS, lemmas)", runChain},
	{"crawl", "focused crawl: render, learn templates, extract and judge relevance as it goes (resumable; pause|resume|status|harvest)", runCrawl},
	{"eval", "extract an annotated dataset and score it against its gold texts", runEval},
	{"export", "write the extracted pages as a corpus: CoNLL-U, vertical, TEI, JSONL, WARC, link graph, terms, matrix", runExport},
	{"extract", "extract title, body, date and author of stored pages (pair diff with template medoids, cluster rules)", runExtract},
	{"fixtures", "serve the generated fixture news sites, or export their gold as a manifest", runFixtures},
	{"import", "load an annotated dataset (manifest) or a folder of HTML files into the store", runImport},
	{"learn", "group each site's pages by template (pq-gram distance, MDS, k-means, silhouette) and record the run with its cost", runLearn},
	{"monitor", "watch news sites over time: feeds, sitemaps, new articles only", runMonitor},
	{"render", "render pages in headless Chromium and store them with their capture data", runRender},
	{"serve", "web dashboard: launch, pause and follow crawls live; sites' templates (MDS, heat map); pages; corpus and exports", runServe},
	{"ted", "tree edit distance (and edit mapping) between two HTML pages or bracket trees", runTED},
	{"worker", "join a crawl (or every running crawl) as one more worker; any number of them, on any number of machines sharing a PostgreSQL --db", runWorker},
}

// commands are the commands by name.
var commands = func() map[string]*command {
	m := make(map[string]*command, len(commandList))
	for i := range commandList {
		m[commandList[i].name] = &commandList[i]
	}
	return m
}()

// errUsage marks an error caused by how the command was called.
var errUsage = errors.New("usage")

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gleaner "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// Chromium left by gleaner programs that died (SIGKILL, OOM).
	browser.SweepStale()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one gleaner invocation and returns the process exit code:
// 0 success, 1 failure, 2 bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gleaner: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if err := c.run(ctx, args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) || (errors.Is(err, errUsage) && helpAsked(args[1:])) {
			// The command printed its usage: asking for it is no error.
			return 0
		}
		fmt.Fprintf(stderr, "gleaner %s: %v\n", c.name, err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

// helpAsked reports whether args ask for help (-h, -help, --help) before
// a "--". Commands wrap the flag package's ErrHelp in their usage error
// without keeping it, so the dispatcher looks at the arguments.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help", "--h":
			return true
		}
	}
	return false
}

// parseInterspersed parses args with fs, flags after positional arguments
// included ("crawl URL --name x"), and returns the positional arguments.
// Everything after "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Gleaner renders news sites, learns their page templates and extracts the useful content.")
	fmt.Fprintln(w, "\nUsage: gleaner <command> [flags] [arguments]\n\nCommands:")
	for _, c := range commandList {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w, "\nRun \"gleaner <command> -h\" for a command's flags.")
}
