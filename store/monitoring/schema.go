package monitoring

import "github.com/gleaner/gleaner/store"

// migrations are the monitor's tables (component "monitor" of
// store.DB.Migrate). Append only.
var migrations = []store.Migration{
	{Version: 1, Name: "monitors, sources, urls, documents, links, rounds", Statements: []string{
		`CREATE TABLE monitor_sources (
			monitor TEXT NOT NULL,
			url TEXT NOT NULL,
			kind TEXT NOT NULL,
			site TEXT NOT NULL,
			etag TEXT NOT NULL DEFAULT '',
			last_modified TEXT NOT NULL DEFAULT '',
			interval_rounds INTEGER NOT NULL,
			next_round INTEGER NOT NULL,
			checks INTEGER NOT NULL DEFAULT 0,
			found INTEGER NOT NULL DEFAULT 0,
			errors INTEGER NOT NULL DEFAULT 0,
			last_error TEXT NOT NULL DEFAULT '',
			links TEXT NOT NULL DEFAULT '',
			seq BIGINT NOT NULL,
			PRIMARY KEY (monitor, url)
		)`,
		`CREATE TABLE monitor_urls (
			monitor TEXT NOT NULL,
			url TEXT NOT NULL,
			site TEXT NOT NULL,
			state TEXT NOT NULL,
			round INTEGER NOT NULL,
			seq BIGINT NOT NULL,
			hint TEXT NOT NULL DEFAULT '',
			doc_id BIGINT NOT NULL DEFAULT 0,
			etag TEXT NOT NULL DEFAULT '',
			last_modified TEXT NOT NULL DEFAULT '',
			listed_modified BIGINT NOT NULL DEFAULT 0,
			update_round INTEGER NOT NULL DEFAULT 0,
			attempts INTEGER NOT NULL DEFAULT 0,
			detail TEXT NOT NULL DEFAULT '',
			PRIMARY KEY (monitor, url)
		)`,
		`CREATE INDEX monitor_urls_round ON monitor_urls (monitor, round, state)`,
		`CREATE TABLE monitor_docs (
			id {{id}},
			monitor TEXT NOT NULL,
			url TEXT NOT NULL,
			site TEXT NOT NULL,
			section TEXT NOT NULL DEFAULT '',
			title TEXT NOT NULL DEFAULT '',
			author TEXT NOT NULL DEFAULT '',
			lang TEXT NOT NULL DEFAULT '',
			published TEXT NOT NULL DEFAULT '',
			modified TEXT NOT NULL DEFAULT '',
			first_seen TEXT NOT NULL,
			round INTEGER NOT NULL,
			updated_round INTEGER NOT NULL DEFAULT 0,
			simhash BIGINT NOT NULL DEFAULT 0,
			content_hash TEXT NOT NULL DEFAULT '',
			body TEXT NOT NULL DEFAULT '',
			score DOUBLE PRECISION NOT NULL DEFAULT 0,
			UNIQUE (monitor, url)
		)`,
		`CREATE TABLE monitor_links (
			monitor TEXT NOT NULL,
			url TEXT NOT NULL,
			doc_id BIGINT NOT NULL,
			reason TEXT NOT NULL,
			round INTEGER NOT NULL,
			PRIMARY KEY (monitor, url)
		)`,
		`CREATE TABLE monitor_rounds (
			monitor TEXT NOT NULL,
			round INTEGER NOT NULL,
			started_at BIGINT NOT NULL,
			finished_at BIGINT NOT NULL DEFAULT 0,
			requests INTEGER NOT NULL DEFAULT 0,
			errors INTEGER NOT NULL DEFAULT 0,
			sources INTEGER NOT NULL DEFAULT 0,
			PRIMARY KEY (monitor, round)
		)`,
	}},
	{Version: 2, Name: "document's page in the store's corpus", Statements: []string{
		// The store page (dataset Dataset(name)) that carries the
		// document into export; 0 for documents stored before.
		`ALTER TABLE monitor_docs ADD COLUMN page_id BIGINT NOT NULL DEFAULT 0`,
	}},
	{Version: 3, Name: "document's canonical URL beside the URL fetched", Statements: []string{
		// url is the URL fetched (tracking parameters dropped), canonical
		// what the page names as its canonical URL ("" when none).
		`ALTER TABLE monitor_docs ADD COLUMN canonical TEXT NOT NULL DEFAULT ''`,
		`CREATE INDEX monitor_docs_canonical ON monitor_docs (monitor, canonical)`,
		// The extraction that gave the text: method and confidence, the
		// learning run whose template (cluster) it was compared with (0
		// and -1 for none), and the run it was last tried against (0:
		// never, so single-page text waiting for the site's templates).
		`ALTER TABLE monitor_docs ADD COLUMN method TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE monitor_docs ADD COLUMN confidence DOUBLE PRECISION NOT NULL DEFAULT 0`,
		`ALTER TABLE monitor_docs ADD COLUMN run_id BIGINT NOT NULL DEFAULT 0`,
		`ALTER TABLE monitor_docs ADD COLUMN template INTEGER NOT NULL DEFAULT -1`,
		`ALTER TABLE monitor_docs ADD COLUMN tried_run BIGINT NOT NULL DEFAULT 0`,
		// The page kind: "article", or "hub" when the document's template
		// is one the site's hubs make.
		`ALTER TABLE monitor_docs ADD COLUMN kind TEXT NOT NULL DEFAULT 'article'`,
		// A hub's page in the store (dataset Dataset(name)), learned
		// with the site's articles: a template of hubs is a hub template.
		`ALTER TABLE monitor_urls ADD COLUMN page_id BIGINT NOT NULL DEFAULT 0`,
	}},
	{Version: 4, Name: "learning back-off stored with the site", Statements: []string{
		// A store site whose template learning failed or ran out of time,
		// with its page count then: learning waits until the site's pages
		// have doubled, in every process and across restarts (a relearning
		// costs about as much). Keyed by the store's site: learning is of
		// the site's pages, whichever monitor stored them.
		`CREATE TABLE monitor_learning (
			site TEXT PRIMARY KEY,
			failed_pages INTEGER NOT NULL,
			failures INTEGER NOT NULL DEFAULT 1,
			failed_at BIGINT NOT NULL,
			error TEXT NOT NULL DEFAULT ''
		)`,
	}},
	{Version: 5, Name: "a document's captures, one per fetch, by round", Statements: []string{
		// Every store page a document was fetched into (dataset
		// Dataset(name)), with the round of the fetch: the first, and
		// each recheck's (a changed page, a 304 as a page of its own
		// holding the answer). The document's page_id is its latest
		// content; the earlier captures stay as fetched, to be cited.
		`CREATE TABLE monitor_captures (
			monitor TEXT NOT NULL,
			doc_id BIGINT NOT NULL,
			page_id BIGINT NOT NULL,
			round INTEGER NOT NULL,
			PRIMARY KEY (monitor, page_id)
		)`,
		`CREATE INDEX monitor_captures_doc ON monitor_captures (monitor, doc_id)`,
		`INSERT INTO monitor_captures (monitor, doc_id, page_id, round)
			SELECT monitor, id, page_id, round FROM monitor_docs WHERE page_id <> 0`,
	}},
	{Version: 6, Name: "where a document's language came from", Statements: []string{
		// "text" (identified on the document's text), "feed" (its feed
		// item's), "declared" (the page's declaration only: a document
		// without text); "" for documents stored before.
		`ALTER TABLE monitor_docs ADD COLUMN lang_source TEXT NOT NULL DEFAULT ''`,
	}},
}
