// Package monitor watches news sites over time: rounds over their sources
// (feeds, sitemaps, robots.txt Sitemap lines, home pages), each source on an
// adaptive schedule, fetching only URLs never seen before and storing each
// article once, with the metadata an analyst filters on.
//
// # Sources and schedule
//
// A monitored site starts as two sources, the URL given (a home page, a
// feed, a sitemap or a sitemap index: its kind is read from what it
// serves) and its robots.txt; a seed that yields nothing on its first
// check says why (Report.Notes). Checking them discovers the rest: the feeds the home page
// announces (<link rel=alternate>), the sitemaps robots.txt names, the
// children of a sitemap index (package feeds parses them all). Every source
// is fetched with a conditional GET (If-None-Match, If-Modified-Since) and
// has an interval in rounds: halved (down to 1) when a check was the first
// to list URLs never seen before, doubled (up to Config.MaxInterval) when
// not, so a sitemap that repeats a feed backs off. Every source starts at
// 1; robots.txt, sitemap indexes, and the hubs of a site that has a feed or
// a sitemap change rarely and wait at least Config.MaxInterval/2 once
// checked. Such a hub's first check records its links and later checks
// take only the links that appeared since; a site without feed or sitemap
// is watched through its hubs alone, all their links taken.
//
// # Pages
//
// A candidate URL is canonicalised (fetchpolicy.Canonicalize: tracking
// parameters such as utm_* dropped) and fetched only if the monitor never
// saw it. The page is classified article or hub (hub-like URL paths, page
// structure, the URL shapes of the site's known articles, and whether a
// feed or news sitemap listed it); only articles are stored, under the URL
// fetched (Document.URL; the page's canonical link beside it, the site the
// one monitored). An HTTP error status is an error, never a document. A
// second URL of a stored story (the same canonical link, or a canonical
// link naming a stored URL) or a near-duplicate text (relevance.SimHash) of
// another site's article is linked to it as a duplicate instead. A known
// article is fetched again only with Config.Updates, when a source says it
// was modified since, with a conditional GET.
//
// # Templates
//
// At each round's end, every site with Config.LearnAt stored pages (its
// articles and the pages taken for hubs, kept in dataset HubDataset(name))
// has its templates learned by sitelearn.Site (new pages assigned to the
// templates, relearned on drift), within Config.LearnTimeout per site and
// Config.LearnBudget per round, and the documents no template has tried
// are extracted by siteextract.Site: the pair diff with the template's
// medoid, its rules. A text a template gave replaces the single-page one
// (once: documents stored before their site was learned are updated, not
// stored again); a document on a template most of whose members are hubs,
// with no feed listing it and short text, is of kind "hub", left out of
// the default selection. A site whose learning failed or ran out of time
// is learned again once its pages have doubled: the back-off is stored
// with the site, so no process retries it sooner, a restarted one
// included.
//
// # State
//
// Everything lives in the store under the component "monitor" (tables
// monitor_*; SQLite or PostgreSQL), written and read by the repository of
// package store/monitoring, where the states are typed (URLState,
// SourceKind, DocKind, LinkReason): sources with their validators and
// schedule, every URL met with its state, documents, duplicate links,
// rounds and sites' learning back-off. A round first records the candidate URLs its sources list
// (pending), then fetches them (a copy naming a pending original waits for
// it); a round killed midway is redone under the same number by the next
// run, which fetches what is still pending, so nothing is lost or stored
// twice. Fetches go through the target guard, robots.txt and per-host
// politeness of package crawler; the pages of several sites are fetched at
// once (Config.Workers), each read and stored one at a time, so a story
// whose copies arrive together is still stored once. Config.Fetcher (a
// browser.Renderer) renders new article pages when set.
//
// # Corpus
//
// Each stored document is also a page of the store's corpus, in dataset
// Dataset(name), with its single-page extraction and, once its template
// gave its text, that extraction too (the latest, which export reads), so
// that package export writes it in every corpus format (gleaner export
// --monitor selects the pages through Documents). The page is written, by
// idempotent upserts, before the document's row, which keeps its id
// (page_id): a redone URL writes the same page again. A kill in between whose redo decides
// otherwise (the copy of a story then linked as its duplicate) can leave
// a page of no document in the dataset; Documents never selects it.
package monitor
