// Package feeds reads the sources a news monitor watches: RSS 2.0, Atom and
// JSON Feed documents (parsed by github.com/mmcdole/gofeed), sitemaps
// (urlset, sitemap index, Google News sitemaps with news:publication_date;
// gzip-compressed or not), the Sitemap: lines of a robots.txt, and the
// feeds a home page announces with <link rel="alternate">.
//
// It only parses: fetching (politeness, robots, the target guard,
// conditional GET) is the caller's. Every input is bounded (MaxBytes
// decoded, MaxEntries entries) and every error names the source and wraps
// one of the sentinel errors, so a monitor can tell a broken feed from an
// oversized one.
package feeds
