// Package dataset reads collections of pages to import into the store: an
// annotated dataset described by a manifest (the format of Big9's
// manifest.tsv: a TSV header naming at least id, url and html_path, usually
// also era, site and gold_path, with paths relative to the manifest's folder),
// or a plain folder of HTML files with their URLs. It decodes gold annotations
// (UTF-8 when valid, else windows-1252) and imports a collection into a
// store.Store idempotently.
package dataset
