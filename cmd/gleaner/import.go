package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gleaner/gleaner/dataset"
)

func init() {
	register(&command{
		name:  "import",
		short: "load an annotated dataset (manifest) or a folder of HTML files into the store",
		run:   runImport,
	})
}

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
	var m *dataset.Manifest
	switch {
	case *manifest != "" && *dir != "":
		return fmt.Errorf("%w: give --manifest or --dir, not both", errUsage)
	case *manifest != "":
		if *urls != "" || *baseURL != "" {
			return fmt.Errorf("%w: --urls and --base-url go with --dir", errUsage)
		}
		m, err = dataset.ReadManifest(*manifest)
	case *dir != "":
		if mode == dataset.SiteFromManifest {
			return fmt.Errorf("%w: --site-from manifest needs --manifest", errUsage)
		}
		m, err = dataset.ReadDir(*dir, *urls, *baseURL)
	default:
		return fmt.Errorf("%w: give --manifest M.tsv or --dir D", errUsage)
	}
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
	ds := m.Name
	if *name != "" {
		ds = *name
	}
	fmt.Fprintf(stdout, "imported %d pages (%d with gold) of dataset %q into %s: %d sites: %s\n",
		res.Pages, res.Gold, ds, *db, len(res.Sites), strings.Join(res.Sites, ", "))
	return st.Close()
}
