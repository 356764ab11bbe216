package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gleaner/gleaner/export"
)

// runExportPack is "gleaner export pack": finished WARC files (the rounds
// of a monitor exported one by one, the files crawl --warc wrote) put as
// they are in one WACZ package, where revisits find the records they
// refer to.
func runExportPack(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("export pack", stderr)
	out := fs.String("out", "", "the WACZ `file` to write")
	title := fs.String("title", "", "the package's title")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner export pack --out FILE.wacz WARC.gz...\n\n"+
			"Packages finished WARC files (gzip per record) as they are in one WACZ, indexed,\n"+
			"with their pages (their DOM conversion records): rounds exported apart replay together.\n\nFlags:")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *out == "" || len(files) == 0 {
		return fmt.Errorf("%w: give --out and the WARC files", errUsage)
	}
	if !strings.HasSuffix(*out, ".wacz") {
		return fmt.Errorf("%w: --out %q: want a .wacz file", errUsage, *out)
	}
	z, err := export.NewWACZ(*out, export.WACZOptions{Title: *title})
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := z.AddWARC(f); err != nil {
			z.Abort()
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "packed %d WARC files into %s\n", len(files), filepath.Clean(*out))
	return nil
}
