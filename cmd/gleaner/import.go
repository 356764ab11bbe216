package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/store"
)

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("import", stderr)
	db := addDBFlag(fs)
	manifest := fs.String("manifest", "", "annotated dataset manifest `M.tsv` (id, era, site, url, html_path, gold_path…; paths relative to its folder)")
	dir := fs.String("dir", "", "`folder` of HTML files to import (with --urls or --base-url)")
	urls := fs.String("urls", "", "URL list `U.tsv` for --dir: lines file<TAB>url[<TAB>label], file relative to the folder (default: the folder's "+dataset.URLListName+")")
	baseURL := fs.String("base-url", "", "for --dir without a URL list: each .html/.htm file's URL is this `URL` joined with its path")
	siteFrom := fs.String("site-from", "domain", "how a page's site is found: domain (registrable domain of the URL), host, or manifest (its site column)")
	name := fs.String("dataset", "", "dataset `name` in the store (default: the manifest's or folder's base name)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner import --manifest M.tsv [flags]\n       gleaner import --dir D [--urls U.tsv | --base-url URL] [flags]\n\nRe-importing updates the pages in place (same dataset and id, or URL).\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	mode, err := dataset.ParseSiteMode(*siteFrom)
	if err != nil {
		return fmt.Errorf("%w: --site-from: %v", errUsage, err)
	}
	m, err := readImportInput(*manifest, *dir, *urls, *baseURL, mode)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := dataset.Import(ctx, st, m, dataset.Options{SiteMode: mode, Dataset: *name})
	if err != nil {
		return err
	}
	ds := cmp.Or(*name, m.Name)
	fmt.Fprintf(stdout, "imported %d pages (%d with gold) of dataset %q into %s: %d sites: %s\n",
		res.Pages, res.Gold, ds, *db, len(res.Sites), strings.Join(res.Sites, ", "))
	return st.Close()
}

// readImportInput reads the manifest, or the folder of HTML files with
// its URL list or base URL, refusing flags that do not go together.
func readImportInput(manifest, dir, urls, baseURL string, mode store.SiteMode) (*dataset.Manifest, error) {
	switch {
	case manifest != "" && dir != "":
		return nil, fmt.Errorf("%w: give --manifest or --dir, not both", errUsage)
	case manifest != "":
		if urls != "" || baseURL != "" {
			return nil, fmt.Errorf("%w: --urls and --base-url go with --dir", errUsage)
		}
		return dataset.ReadManifest(manifest)
	case dir != "":
		if mode == dataset.SiteFromManifest {
			return nil, fmt.Errorf("%w: --site-from manifest needs --manifest", errUsage)
		}
		return dataset.ReadDir(dir, urls, baseURL)
	}
	return nil, fmt.Errorf("%w: give --manifest M.tsv or --dir D", errUsage)
}
