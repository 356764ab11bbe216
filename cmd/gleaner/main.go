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
	"path/filepath"
	"sort"
	"syscall"

	"github.com/gleaner/gleaner/browser"
)

// command is one subcommand of gleaner. Each lives in its own file and
// registers itself in init.
type command struct {
	name  string
	short string // one line for "gleaner help"
	// run parses args (without the command name) and does the work, writing
	// results to stdout. It returns errUsage (wrapped or not) for bad flags.
	run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

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

// writeAtomic writes path with write through a temporary file in the same
// folder, renamed to path only when write succeeded: an interrupted or
// failed write leaves no truncated file under the name.
func writeAtomic(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	err = f.Chmod(0o644)
	if err == nil {
		err = write(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.Rename(f.Name(), path)
}

// intoFolderAtomic runs write on a temporary folder beside out and moves
// what it wrote into out only when it succeeded: an interrupted export
// leaves no truncated file in out.
func intoFolderAtomic(out string, write func(tmp string) error) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(out)), "."+filepath.Base(filepath.Clean(out))+".part-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := write(tmp); err != nil {
		return err
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(tmp, e.Name()), filepath.Join(out, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Gleaner renders news sites, learns their page templates and extracts the useful content.")
	fmt.Fprintln(w, "\nUsage: gleaner <command> [flags] [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w, "\nRun \"gleaner <command> -h\" for a command's flags.")
}
