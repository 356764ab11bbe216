package store

// Migration is one versioned step of the schema. See the package
// documentation for how to add one.
type Migration struct {
	Version int
	Name    string
	// Statements run in order in one transaction. {{id}} stands for an
	// auto-increment integer primary key column, {{blob}} for a binary type.
	Statements []string
}

// migrations is the schema, in order. Append only: the next migration takes
// the next Version.
var migrations = []Migration{
	{Version: 1, Name: "core: sites, pages, gold, runs, clusters, distances, extractions, rules", Statements: []string{
		`CREATE TABLE sites (
			name TEXT PRIMARY KEY,
			created_at BIGINT NOT NULL
		)`,
		`CREATE TABLE pages (
			id {{id}},
			site TEXT NOT NULL REFERENCES sites(name),
			url TEXT NOT NULL,
			dataset TEXT NOT NULL DEFAULT '',
			manifest_id TEXT NOT NULL DEFAULT '',
			page_key TEXT NOT NULL,
			label TEXT NOT NULL DEFAULT '',
			fetched_at BIGINT NOT NULL DEFAULT 0,
			status INTEGER NOT NULL DEFAULT 0,
			error TEXT NOT NULL DEFAULT '',
			content_type TEXT NOT NULL DEFAULT '',
			raw_html {{blob}},
			rendered_html {{blob}},
			content_hash TEXT NOT NULL,
			capture {{blob}},
			created_at BIGINT NOT NULL,
			updated_at BIGINT NOT NULL,
			UNIQUE (dataset, page_key)
		)`,
		`CREATE INDEX pages_site ON pages (site, id)`,
		`CREATE INDEX pages_url ON pages (url)`,
		`CREATE INDEX pages_hash ON pages (content_hash)`,
		`CREATE TABLE gold (
			page_id BIGINT PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
			title TEXT NOT NULL,
			body TEXT NOT NULL,
			text TEXT NOT NULL
		)`,
		`CREATE TABLE runs (
			id {{id}},
			site TEXT NOT NULL REFERENCES sites(name),
			seed BIGINT NOT NULL,
			params TEXT,
			started_at BIGINT NOT NULL,
			finished_at BIGINT NOT NULL DEFAULT 0,
			k INTEGER NOT NULL DEFAULT 0,
			silhouette TEXT,
			pages INTEGER NOT NULL DEFAULT 0,
			status TEXT NOT NULL,
			message TEXT NOT NULL DEFAULT ''
		)`,
		`CREATE INDEX runs_site ON runs (site, id)`,
		`CREATE TABLE clusters (
			run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
			cluster INTEGER NOT NULL,
			medoid BIGINT REFERENCES pages(id) ON DELETE SET NULL,
			size INTEGER NOT NULL,
			PRIMARY KEY (run_id, cluster)
		)`,
		`CREATE TABLE memberships (
			run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
			page_id BIGINT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
			cluster INTEGER NOT NULL,
			x DOUBLE PRECISION NOT NULL,
			y DOUBLE PRECISION NOT NULL,
			distance DOUBLE PRECISION NOT NULL DEFAULT 0,
			outlier BOOLEAN NOT NULL DEFAULT FALSE,
			reason TEXT NOT NULL DEFAULT '',
			PRIMARY KEY (run_id, page_id)
		)`,
		`CREATE INDEX memberships_page ON memberships (page_id)`,
		`CREATE TABLE distances (
			view TEXT NOT NULL,
			hash_a TEXT NOT NULL,
			hash_b TEXT NOT NULL,
			distance DOUBLE PRECISION NOT NULL,
			nodes_a INTEGER NOT NULL,
			nodes_b INTEGER NOT NULL,
			PRIMARY KEY (view, hash_a, hash_b)
		)`,
		`CREATE TABLE extractions (
			page_id BIGINT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
			run_id BIGINT NOT NULL DEFAULT 0,
			title TEXT NOT NULL,
			body TEXT NOT NULL,
			selector TEXT NOT NULL DEFAULT '',
			confidence DOUBLE PRECISION NOT NULL DEFAULT 0,
			method TEXT NOT NULL DEFAULT '',
			date TEXT NOT NULL DEFAULT '',
			author TEXT NOT NULL DEFAULT '',
			created_at BIGINT NOT NULL,
			PRIMARY KEY (page_id, run_id)
		)`,
		`CREATE TABLE rules (
			run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
			site TEXT NOT NULL REFERENCES sites(name),
			cluster INTEGER NOT NULL,
			field TEXT NOT NULL,
			selector TEXT NOT NULL,
			support DOUBLE PRECISION NOT NULL,
			PRIMARY KEY (run_id, cluster, field)
		)`,
		`CREATE INDEX rules_site ON rules (site, run_id)`,
	}},
	{Version: 2, Name: "exchanges: a page's HTTP requests and responses as served, for WARC", Statements: []string{
		`CREATE TABLE exchanges (
			page_id BIGINT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
			seq INTEGER NOT NULL,
			url TEXT NOT NULL,
			method TEXT NOT NULL,
			ip TEXT NOT NULL DEFAULT '',
			sent_at BIGINT NOT NULL,
			truncated BOOLEAN NOT NULL DEFAULT FALSE,
			request {{blob}},
			request_body {{blob}},
			response {{blob}},
			payload {{blob}},
			payload_sha256 TEXT NOT NULL,
			PRIMARY KEY (page_id, seq)
		)`,
	}},
	{Version: 3, Name: "extractions: page_type", Statements: []string{
		`ALTER TABLE extractions ADD COLUMN page_type TEXT NOT NULL DEFAULT ''`,
	}},
	{Version: 4, Name: "exchanges: by URL and payload digest, for revisits across exports", Statements: []string{
		`CREATE INDEX exchanges_payload ON exchanges (url, payload_sha256)`,
	}},
	{Version: 5, Name: "pages: version, a later capture of a URL as a page of its own (a monitor's recheck)", Statements: []string{
		`ALTER TABLE pages ADD COLUMN version INTEGER NOT NULL DEFAULT 0`,
		`CREATE INDEX pages_dataset_url ON pages (dataset, url, version)`,
	}},
}
