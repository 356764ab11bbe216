package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dialect is what differs between SQL backends.
type dialect struct {
	name   string
	types  *strings.Replacer     // {{id}}, {{blob}} in migrations
	rebind func(q string) string // "?" placeholders to the backend's
	// lockMigrations, when set, is run first in every migration
	// transaction to serialise migrating processes.
	lockMigrations string
	// retryable, when set, reports errors after which a write transaction
	// may be run again (deadlocks, serialization failures, busy locks).
	retryable func(error) bool
}

// DB is the SQL implementation of Store.
type DB struct {
	db   *sql.DB
	d    dialect
	name string
	// readOnly: opened with OpenReadOnly; Migrate only checks versions.
	readOnly bool
	// migrated: the components MigrateOnce brought up to date.
	migrated sync.Map
}

var _ Store = (*DB)(nil)

// SQL returns the underlying database handle, for packages that keep their own
// tables (added as migrations, see the package documentation). Use Rebind on
// queries written with "?" placeholders.
func (s *DB) SQL() *sql.DB { return s.db }

// Rebind rewrites a query written with "?" placeholders for this backend.
func (s *DB) Rebind(q string) string { return s.d.rebind(q) }

// Close closes the database.
func (s *DB) Close() error { return s.db.Close() }

// coreComponent names the store's own migrations in schema_migrations.
const coreComponent = "store"

// SchemaVersion returns the version of the last core migration applied.
func (s *DB) SchemaVersion(ctx context.Context) (int, error) {
	return s.schemaVersion(ctx, coreComponent)
}

func (s *DB) schemaVersion(ctx context.Context, component string) (int, error) {
	var v sql.NullInt64
	if err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT MAX(version) FROM schema_migrations WHERE component = ?`), component).Scan(&v); err != nil {
		return 0, fmt.Errorf("store: schema version of %s: %w", component, err)
	}
	return int(v.Int64), nil
}

// Migrate brings the tables of a component (a package keeping its own tables
// in this database, e.g. "crawler") up to date with its migrations, numbered
// 1, 2, … in order, and records them in schema_migrations under its name.
// It is idempotent and safe when several processes open the database at
// once; call it once when the component starts using the store.
func (s *DB) Migrate(ctx context.Context, component string, ms []Migration) error {
	if component == "" || component == coreComponent {
		return fmt.Errorf("store: migrate: component name %q is reserved", component)
	}
	if s.readOnly {
		return s.checkSchema(ctx, component, ms)
	}
	if err := s.migrate(ctx, component, ms); err != nil {
		return fmt.Errorf("store: migrate %s: %w", component, err)
	}
	return nil
}

func (s *DB) migrate(ctx context.Context, component string, ms []Migration) error {
	if err := s.createSchemaMigrations(ctx); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `SELECT component FROM schema_migrations WHERE 1 = 0`); err != nil {
		return fmt.Errorf("schema_migrations has no component column: the database was made by a pre-release gleaner of November 2026; delete it and import again (%w)", err)
	}
	for i, m := range ms {
		if m.Version != i+1 {
			return fmt.Errorf("migration %q has version %d, want %d (versions are consecutive from 1)", m.Name, m.Version, i+1)
		}
	}
	have, err := s.schemaVersion(ctx, component)
	if err != nil {
		return err
	}
	if have > len(ms) {
		return fmt.Errorf("database schema version %d of %s is newer than this program's (%d)", have, component, len(ms))
	}
	for _, m := range ms[have:] {
		if err := s.apply(ctx, component, m); err != nil {
			return err
		}
	}
	return nil
}

const createSchemaMigrationsSQL = `CREATE TABLE IF NOT EXISTS schema_migrations (
	component TEXT NOT NULL,
	version INTEGER NOT NULL,
	name TEXT NOT NULL,
	applied_at BIGINT NOT NULL,
	PRIMARY KEY (component, version)
)`

// createSchemaMigrations creates the table of applied migrations unless it
// exists, under the migration lock where the backend has one (PostgreSQL's
// CREATE TABLE IF NOT EXISTS is not safe against a concurrent one).
func (s *DB) createSchemaMigrations(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockMigrations(ctx, tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, createSchemaMigrationsSQL)
		return err
	})
}

// apply runs one migration in a transaction, unless another process applied
// it meanwhile.
func (s *DB) apply(ctx context.Context, component string, m Migration) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockMigrations(ctx, tx); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM schema_migrations WHERE component = ? AND version = ?`),
			component, m.Version).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		for i, st := range m.Statements {
			if _, err := tx.ExecContext(ctx, s.d.types.Replace(st)); err != nil {
				return fmt.Errorf("migration %d (%s), statement %d: %w", m.Version, m.Name, i+1, err)
			}
		}
		_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO schema_migrations (component, version, name, applied_at) VALUES (?, ?, ?, ?)`),
			component, m.Version, m.Name, millis(time.Now()))
		return err
	})
}

// lockMigrations makes tx wait for other processes' migrations, where the
// backend needs it.
func (s *DB) lockMigrations(ctx context.Context, tx *sql.Tx) error {
	if s.d.lockMigrations == "" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, s.d.lockMigrations); err != nil {
		return fmt.Errorf("lock migrations: %w", err)
	}
	return nil
}

// txAttempts is how many times a write transaction runs when the backend
// rolls it back for a deadlock or a serialization failure.
const txAttempts = 5

// tx runs f in a write transaction, committing when f returns nil. A
// transaction the backend rolled back as retryable is run again after a
// random pause, so f must only write its results, not accumulate them.
func (s *DB) tx(ctx context.Context, f func(*sql.Tx) error) error {
	var err error
	for attempt := range txAttempts {
		if err = s.tx1(ctx, f); err == nil || s.d.retryable == nil || !s.d.retryable(err) {
			return err
		}
		pause := time.Duration(rand.Int64N(int64(10*time.Millisecond) << attempt))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
	return err
}

// tx1 runs f in one write transaction.
func (s *DB) tx1(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// compress gzips b; nil stays nil (SQL NULL).
func compress(b []byte) ([]byte, error) {
	if b == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decompress(b []byte) ([]byte, error) {
	if b == nil {
		return nil, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}

// PutSite creates the site if it does not exist.
func (s *DB) PutSite(ctx context.Context, name string) error {
	if name == "" {
		return fmt.Errorf("store: put site: empty name")
	}
	if _, err := s.db.ExecContext(ctx, s.d.rebind(putSiteSQL), name, millis(time.Now())); err != nil {
		return fmt.Errorf("store: put site %q: %w", name, err)
	}
	return nil
}

const putSiteSQL = `INSERT INTO sites (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`

// Sites lists the sites with their page counts.
func (s *DB) Sites(ctx context.Context) ([]Site, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.name, s.created_at, COUNT(p.id)
		FROM sites s LEFT JOIN pages p ON p.site = s.name
		GROUP BY s.name, s.created_at ORDER BY s.name`)
	if err != nil {
		return nil, fmt.Errorf("store: sites: %w", err)
	}
	defer rows.Close()
	var out []Site
	for rows.Next() {
		var st Site
		var created int64
		if err := rows.Scan(&st.Name, &created, &st.Pages); err != nil {
			return nil, fmt.Errorf("store: sites: %w", err)
		}
		st.CreatedAt = fromMillis(created)
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: sites: %w", err)
	}
	return out, nil
}

const putPageSQL = `INSERT INTO pages (site, url, dataset, manifest_id, page_key, label,
	fetched_at, status, error, content_type, raw_html, rendered_html, content_hash, capture,
	created_at, updated_at, version)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (dataset, page_key) DO UPDATE SET
	site = excluded.site, url = excluded.url, manifest_id = excluded.manifest_id,
	label = excluded.label, fetched_at = excluded.fetched_at, status = excluded.status,
	error = excluded.error, content_type = excluded.content_type,
	raw_html = excluded.raw_html, rendered_html = excluded.rendered_html,
	content_hash = excluded.content_hash, capture = excluded.capture,
	updated_at = excluded.updated_at
	RETURNING id, created_at`

const putGoldSQL = `INSERT INTO gold (page_id, title, body, text) VALUES (?, ?, ?, ?)
	ON CONFLICT (page_id) DO UPDATE SET title = excluded.title, body = excluded.body, text = excluded.text`

// PutPages inserts or updates pages in one transaction.
func (s *DB) PutPages(ctx context.Context, pages []*Page) error {
	b, err := newPageBatch(pages)
	if err != nil {
		return err
	}
	if err := s.tx(ctx, func(tx *sql.Tx) error { return s.writeBatch(ctx, tx, b) }); err != nil {
		return err
	}
	for i, p := range pages {
		p.ID = b.ids[i]
		p.CreatedAt = fromMillis(b.created[i])
		p.UpdatedAt = fromMillis(millis(b.now))
	}
	return nil
}

// pageBatch is a batch of pages being stored: their columns prepared
// before the write lock is taken, and the IDs and creation times the store
// gives them.
type pageBatch struct {
	pages        []*Page
	prep         []preparedPage
	now          time.Time
	ids, created []int64
}

// preparedPage is a page's compressed columns and its exchanges' rows.
type preparedPage struct {
	raw, rendered, capture []byte
	exchanges              []exchangeRow
}

// newPageBatch validates and compresses pages (a page without a site gets
// its URL's, and every page its content hash).
func newPageBatch(pages []*Page) (*pageBatch, error) {
	b := &pageBatch{pages: pages, prep: make([]preparedPage, len(pages))}
	for i, p := range pages {
		if err := checkPage(i, p); err != nil {
			return nil, err
		}
		pr, err := preparePage(p)
		if err != nil {
			return nil, err
		}
		b.prep[i] = pr
		p.Hash = ContentHash(p.HTML())
	}
	b.now = time.Now()
	b.ids = make([]int64, len(pages))
	b.created = make([]int64, len(pages))
	return b, nil
}

// checkPage checks page i of a batch, p, and sets its site from its URL
// when it has none.
func checkPage(i int, p *Page) error {
	if p == nil {
		return fmt.Errorf("store: put page %d: nil page", i)
	}
	if p.URL == "" {
		return fmt.Errorf("store: put page %q: empty URL", p.Key())
	}
	if p.Site != "" {
		return nil
	}
	site, err := SiteOf(p.URL, SiteFromDomain)
	if err != nil {
		return fmt.Errorf("store: put page %q: %w", p.Key(), err)
	}
	p.Site = site
	return nil
}

// preparePage compresses p's HTML and capture and prepares its exchanges.
func preparePage(p *Page) (preparedPage, error) {
	var pr preparedPage
	var err error
	if pr.raw, err = compress(p.RawHTML); err != nil {
		return pr, fmt.Errorf("store: put page %q: compress raw HTML: %w", p.Key(), err)
	}
	if pr.rendered, err = compress(p.RenderedHTML); err != nil {
		return pr, fmt.Errorf("store: put page %q: compress rendered HTML: %w", p.Key(), err)
	}
	if pr.capture, err = compressCapture(p.Capture); err != nil {
		return pr, fmt.Errorf("store: put page %q: capture: %w", p.Key(), err)
	}
	pr.exchanges, err = prepareExchanges(p)
	return pr, err
}

// compressCapture is the capture c as compressed JSON, nil without one.
func compressCapture(c *Capture) ([]byte, error) {
	if c == nil {
		return nil, nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	return compress(b)
}

// writeBatch writes the batch b in the transaction tx.
func (s *DB) writeBatch(ctx context.Context, tx *sql.Tx, b *pageBatch) error {
	site, err := tx.PrepareContext(ctx, s.d.rebind(putSiteSQL))
	if err != nil {
		return err
	}
	defer site.Close()
	page, err := tx.PrepareContext(ctx, s.d.rebind(putPageSQL))
	if err != nil {
		return err
	}
	defer page.Close()
	gold, err := tx.PrepareContext(ctx, s.d.rebind(putGoldSQL))
	if err != nil {
		return err
	}
	defer gold.Close()
	// Sites first, each once, in name order: concurrent batches then
	// lock shared sites in one order and cannot deadlock on them.
	for _, name := range sortedSites(b.pages) {
		if _, err := site.ExecContext(ctx, name, millis(b.now)); err != nil {
			return fmt.Errorf("store: put site %q: %w", name, err)
		}
	}
	for i := range b.pages {
		if err := s.writePage(ctx, tx, page, gold, b, i); err != nil {
			return err
		}
	}
	return nil
}

// writePage writes page i of the batch b, its gold and its exchanges with
// the prepared statements page and gold.
func (s *DB) writePage(ctx context.Context, tx *sql.Tx, page, gold *sql.Stmt, b *pageBatch, i int) error {
	p, pr, now := b.pages[i], b.prep[i], millis(b.now)
	if err := page.QueryRowContext(ctx, p.Site, p.URL, p.Dataset, p.ManifestID, p.Key(), p.Label,
		millis(p.FetchedAt), p.Status, p.Error, p.ContentType, pr.raw, pr.rendered,
		p.Hash, pr.capture, now, now, p.Version).Scan(&b.ids[i], &b.created[i]); err != nil {
		return fmt.Errorf("store: put page %q: %w", p.Key(), err)
	}
	if p.Gold != nil {
		if _, err := gold.ExecContext(ctx, b.ids[i], p.Gold.Title, p.Gold.Body, p.Gold.Text); err != nil {
			return fmt.Errorf("store: put gold of page %q: %w", p.Key(), err)
		}
	}
	if p.Exchanges != nil {
		return s.putExchanges(ctx, tx, b.ids[i], pr.exchanges)
	}
	return nil
}

// sortedSites returns the sites of pages, each once, in name order.
func sortedSites(pages []*Page) []string {
	seen := map[string]bool{}
	var names []string
	for _, p := range pages {
		if !seen[p.Site] {
			seen[p.Site] = true
			names = append(names, p.Site)
		}
	}
	sort.Strings(names)
	return names
}

const pageMetaCols = `p.id, p.site, p.url, p.dataset, p.manifest_id, p.label, p.fetched_at, p.status,
	p.error, p.content_type, p.content_hash, p.created_at, p.updated_at, p.version`

const pageContentCols = `, p.raw_html, p.rendered_html, p.capture, g.title, g.body, g.text`

// queryPages runs a page query whose select list is pageMetaCols (plus
// pageContentCols when content is true).
func (s *DB) queryPages(ctx context.Context, q string, content bool, args ...any) ([]*Page, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Page
	for rows.Next() {
		p := &Page{}
		var fetched, created, updated int64
		dest := []any{&p.ID, &p.Site, &p.URL, &p.Dataset, &p.ManifestID, &p.Label, &fetched, &p.Status,
			&p.Error, &p.ContentType, &p.Hash, &created, &updated, &p.Version}
		var raw, rendered, capture []byte
		var gTitle, gBody, gText sql.NullString
		if content {
			dest = append(dest, &raw, &rendered, &capture, &gTitle, &gBody, &gText)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		p.FetchedAt, p.CreatedAt, p.UpdatedAt = fromMillis(fetched), fromMillis(created), fromMillis(updated)
		if content {
			if p.RawHTML, err = decompress(raw); err != nil {
				return nil, fmt.Errorf("page %d: raw HTML: %w", p.ID, err)
			}
			if p.RenderedHTML, err = decompress(rendered); err != nil {
				return nil, fmt.Errorf("page %d: rendered HTML: %w", p.ID, err)
			}
			if capture != nil {
				b, err := decompress(capture)
				if err != nil {
					return nil, fmt.Errorf("page %d: capture: %w", p.ID, err)
				}
				p.Capture = &Capture{}
				if err := json.Unmarshal(b, p.Capture); err != nil {
					return nil, fmt.Errorf("page %d: capture: %w", p.ID, err)
				}
			}
			if gTitle.Valid {
				p.Gold = &Gold{Title: gTitle.String, Body: gBody.String, Text: gText.String}
			}
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func pageSelect(content bool) string {
	if content {
		return `SELECT ` + pageMetaCols + pageContentCols + ` FROM pages p LEFT JOIN gold g ON g.page_id = p.id`
	}
	return `SELECT ` + pageMetaCols + ` FROM pages p`
}

// Page returns one page with its content.
func (s *DB) Page(ctx context.Context, id int64) (*Page, error) {
	ps, err := s.queryPages(ctx, pageSelect(true)+` WHERE p.id = ?`, true, id)
	if err != nil {
		return nil, fmt.Errorf("store: page %d: %w", id, err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("store: page %d: %w", id, ErrNotFound)
	}
	return ps[0], nil
}

// PageByKey returns the page of dataset whose manifest id (or URL, for pages
// without one) is key.
func (s *DB) PageByKey(ctx context.Context, dataset, key string) (*Page, error) {
	ps, err := s.queryPages(ctx, pageSelect(true)+` WHERE p.dataset = ? AND p.page_key = ?`, true, dataset, key)
	if err != nil {
		return nil, fmt.Errorf("store: page %q of dataset %q: %w", key, dataset, err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("store: page %q of dataset %q: %w", key, dataset, ErrNotFound)
	}
	return ps[0], nil
}

// NextVersion is the Version a new capture of url in dataset takes: one
// more than its latest, 0 when it has none.
func (s *DB) NextVersion(ctx context.Context, dataset, url string) (int, error) {
	var v sql.NullInt64
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT MAX(version) FROM pages WHERE dataset = ? AND url = ?`), dataset, url).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("store: versions of %s in %q: %w", url, dataset, err)
	}
	if !v.Valid {
		return 0, nil
	}
	return int(v.Int64) + 1, nil
}

// maxIDsPerQuery bounds the placeholders of one IN list.
const maxIDsPerQuery = 500

// Pages lists pages matching q in ID order.
func (s *DB) Pages(ctx context.Context, q PageQuery) ([]*Page, error) {
	where, args := pageFilters(q)
	if q.IDs == nil {
		ps, err := s.pagesWhere(ctx, q, where, args)
		if err != nil {
			return nil, fmt.Errorf("store: pages: %w", err)
		}
		return ps, nil
	}
	var out []*Page
	for start := 0; start < len(q.IDs); start += maxIDsPerQuery {
		chunk := q.IDs[start:min(start+maxIDsPerQuery, len(q.IDs))]
		ids := make([]any, len(chunk))
		for i, id := range chunk {
			ids[i] = id
		}
		w := append(slices.Clone(where), "p.id IN ("+placeholders(len(chunk))+")")
		ps, err := s.pagesWhere(ctx, q, w, append(slices.Clone(args), ids...))
		if err != nil {
			return nil, fmt.Errorf("store: pages: %w", err)
		}
		out = append(out, ps...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// pageFilters returns the conditions of q other than its IDs, and their
// arguments.
func pageFilters(q PageQuery) (where []string, args []any) {
	if q.Site != "" {
		where, args = append(where, "p.site = ?"), append(args, q.Site)
	}
	if q.Dataset != "" {
		where, args = append(where, "p.dataset = ?"), append(args, q.Dataset)
	}
	if q.Label != "" {
		where, args = append(where, "p.label = ?"), append(args, q.Label)
	}
	if q.Hash != "" {
		where, args = append(where, "p.content_hash = ?"), append(args, q.Hash)
	}
	if q.AfterID > 0 {
		where, args = append(where, "p.id > ?"), append(args, q.AfterID)
	}
	return where, args
}

// pagesWhere lists the pages meeting the conditions where (with their
// arguments args) in ID order, up to q.Limit, with their content if q asks.
func (s *DB) pagesWhere(ctx context.Context, q PageQuery, where []string, args []any) ([]*Page, error) {
	sqlq := pageSelect(q.WithContent)
	if len(where) > 0 {
		sqlq += " WHERE " + strings.Join(where, " AND ")
	}
	sqlq += " ORDER BY p.id"
	if q.Limit > 0 {
		sqlq += " LIMIT " + strconv.Itoa(q.Limit)
	}
	return s.queryPages(ctx, sqlq, q.WithContent, args...)
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// encodeSilhouette encodes silhouettes per k as a JSON object; undefined
// values (NaN, ±Inf) become null, which JSON numbers cannot hold.
func encodeSilhouette(m map[int]float64) (sql.NullString, error) {
	if m == nil {
		return sql.NullString{}, nil
	}
	out := make(map[string]*float64, len(m))
	for k, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			out[strconv.Itoa(k)] = nil
			continue
		}
		out[strconv.Itoa(k)] = &v
	}
	b, err := json.Marshal(out)
	return sql.NullString{String: string(b), Valid: true}, err
}

func decodeSilhouette(s sql.NullString) (map[int]float64, error) {
	if !s.Valid {
		return nil, nil
	}
	var raw map[string]*float64
	if err := json.Unmarshal([]byte(s.String), &raw); err != nil {
		return nil, err
	}
	out := make(map[int]float64, len(raw))
	for k, v := range raw {
		n, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("silhouette key %q: %w", k, err)
		}
		if v == nil {
			out[n] = math.NaN()
		} else {
			out[n] = *v
		}
	}
	return out, nil
}

func nullJSON(b json.RawMessage) sql.NullString {
	if len(b) == 0 {
		return sql.NullString{}
	}
	return sql.NullString{String: string(b), Valid: true}
}

// CreateRun records the start of a learning run.
func (s *DB) CreateRun(ctx context.Context, r *Run) error {
	if r.Site == "" {
		return fmt.Errorf("store: create run: empty site")
	}
	if len(r.Params) > 0 && !json.Valid(r.Params) {
		return fmt.Errorf("store: create run of site %q: params are not valid JSON", r.Site)
	}
	if r.StartedAt.IsZero() {
		r.StartedAt = time.Now().UTC().Truncate(time.Millisecond)
	}
	if r.Status == "" {
		r.Status = RunRunning
	}
	sil, err := encodeSilhouette(r.Silhouette)
	if err != nil {
		return fmt.Errorf("store: create run of site %q: silhouette: %w", r.Site, err)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(putSiteSQL), r.Site, millis(time.Now())); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, s.d.rebind(`INSERT INTO runs (site, seed, params, started_at, finished_at, k, silhouette, pages, status, message)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			r.Site, r.Seed, nullJSON(r.Params), millis(r.StartedAt), millis(r.FinishedAt), r.K, sil, r.Pages, r.Status, r.Message).Scan(&r.ID)
	})
	if err != nil {
		return fmt.Errorf("store: create run of site %q: %w", r.Site, err)
	}
	return nil
}

// FinishRun stores a run's outcome, clusters and memberships, replacing any
// stored before for that run.
func (s *DB) FinishRun(ctx context.Context, r *Run, clusters []Cluster, members []Membership) error {
	if r.ID == 0 {
		return fmt.Errorf("store: finish run: run has no ID (create it first)")
	}
	finishedNow(r)
	sil, err := encodeSilhouette(r.Silhouette)
	if err != nil {
		return fmt.Errorf("store: finish run %d: silhouette: %w", r.ID, err)
	}
	if err := checkMemberships(members); err != nil {
		return fmt.Errorf("store: finish run %d: %w", r.ID, err)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.updateRun(ctx, tx, r, sil); err != nil {
			return err
		}
		if err := s.replaceClusters(ctx, tx, r.ID, clusters); err != nil {
			return err
		}
		for i := range members {
			members[i].RunID = r.ID
		}
		return s.putMemberships(ctx, tx, members)
	})
	if err != nil {
		return fmt.Errorf("store: finish run %d: %w", r.ID, err)
	}
	return nil
}

// finishedNow gives a run finishing without a finish time or outcome the
// present and RunDone.
func finishedNow(r *Run) {
	if r.FinishedAt.IsZero() {
		r.FinishedAt = time.Now().UTC().Truncate(time.Millisecond)
	}
	if r.Status == "" || r.Status == RunRunning {
		r.Status = RunDone
	}
}

// updateRun stores the outcome of run r, its silhouettes encoded as sil;
// ErrNotFound if the run is not stored.
func (s *DB) updateRun(ctx context.Context, tx *sql.Tx, r *Run, sil sql.NullString) error {
	res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE runs SET finished_at = ?, k = ?, silhouette = ?, pages = ?, status = ?, message = ?,
			params = COALESCE(?, params) WHERE id = ?`),
		millis(r.FinishedAt), r.K, sil, r.Pages, r.Status, r.Message, nullJSON(r.Params), r.ID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return ErrNotFound
	}
	return nil
}

// replaceClusters replaces the clusters and memberships stored for run
// with clusters.
func (s *DB) replaceClusters(ctx context.Context, tx *sql.Tx, run int64, clusters []Cluster) error {
	for _, del := range []string{`DELETE FROM memberships WHERE run_id = ?`, `DELETE FROM clusters WHERE run_id = ?`} {
		if _, err := tx.ExecContext(ctx, s.d.rebind(del), run); err != nil {
			return err
		}
	}
	cst, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO clusters (run_id, cluster, medoid, size) VALUES (?, ?, ?, ?)`))
	if err != nil {
		return err
	}
	defer cst.Close()
	for _, c := range clusters {
		medoid := sql.NullInt64{Int64: c.Medoid, Valid: c.Medoid != 0}
		if _, err := cst.ExecContext(ctx, run, c.ID, medoid, c.Size); err != nil {
			return fmt.Errorf("cluster %d: %w", c.ID, err)
		}
	}
	return nil
}

func checkMemberships(members []Membership) error {
	for _, m := range members {
		if math.IsNaN(m.X) || math.IsNaN(m.Y) || math.IsNaN(m.Distance) {
			return fmt.Errorf("membership of page %d: NaN coordinate or distance", m.PageID)
		}
	}
	return nil
}

const putMembershipSQL = `INSERT INTO memberships (run_id, page_id, cluster, x, y, distance, outlier, reason)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, page_id) DO UPDATE SET
	cluster = excluded.cluster, x = excluded.x, y = excluded.y, distance = excluded.distance,
	outlier = excluded.outlier, reason = excluded.reason`

func (s *DB) putMemberships(ctx context.Context, tx *sql.Tx, members []Membership) error {
	st, err := tx.PrepareContext(ctx, s.d.rebind(putMembershipSQL))
	if err != nil {
		return err
	}
	defer st.Close()
	for _, m := range members {
		if _, err := st.ExecContext(ctx, m.RunID, m.PageID, m.Cluster, m.X, m.Y, m.Distance, m.Outlier, m.Reason); err != nil {
			return fmt.Errorf("membership of page %d in run %d: %w", m.PageID, m.RunID, err)
		}
	}
	return nil
}

// PutMemberships inserts or replaces memberships of existing runs.
func (s *DB) PutMemberships(ctx context.Context, members []Membership) error {
	if err := checkMemberships(members); err != nil {
		return fmt.Errorf("store: put memberships: %w", err)
	}
	if err := s.tx(ctx, func(tx *sql.Tx) error { return s.putMemberships(ctx, tx, members) }); err != nil {
		return fmt.Errorf("store: put memberships: %w", err)
	}
	return nil
}

const runCols = `id, site, seed, params, started_at, finished_at, k, silhouette, pages, status, message`

func (s *DB) queryRuns(ctx context.Context, q string, args ...any) ([]*Run, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Run
	for rows.Next() {
		r := &Run{}
		var params, sil sql.NullString
		var started, finished int64
		if err := rows.Scan(&r.ID, &r.Site, &r.Seed, &params, &started, &finished, &r.K, &sil, &r.Pages, &r.Status, &r.Message); err != nil {
			return nil, err
		}
		if params.Valid {
			r.Params = json.RawMessage(params.String)
		}
		r.StartedAt, r.FinishedAt = fromMillis(started), fromMillis(finished)
		if r.Silhouette, err = decodeSilhouette(sil); err != nil {
			return nil, fmt.Errorf("run %d: %w", r.ID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Run returns one run.
func (s *DB) Run(ctx context.Context, id int64) (*Run, error) {
	rs, err := s.queryRuns(ctx, `SELECT `+runCols+` FROM runs WHERE id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("store: run %d: %w", id, err)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("store: run %d: %w", id, ErrNotFound)
	}
	return rs[0], nil
}

// LatestRun returns the newest run of site with the given status ("" for
// any).
func (s *DB) LatestRun(ctx context.Context, site, status string) (*Run, error) {
	q := `SELECT ` + runCols + ` FROM runs WHERE site = ?`
	args := []any{site}
	if status != "" {
		q += ` AND status = ?`
		args = append(args, status)
	}
	rs, err := s.queryRuns(ctx, q+` ORDER BY id DESC LIMIT 1`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: latest run of site %q: %w", site, err)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("store: latest run of site %q: %w", site, ErrNotFound)
	}
	return rs[0], nil
}

// Runs lists the runs of site ("" for all), newest first.
func (s *DB) Runs(ctx context.Context, site string) ([]*Run, error) {
	q := `SELECT ` + runCols + ` FROM runs`
	var args []any
	if site != "" {
		q += ` WHERE site = ?`
		args = append(args, site)
	}
	rs, err := s.queryRuns(ctx, q+` ORDER BY id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: runs of site %q: %w", site, err)
	}
	return rs, nil
}

// Clusters lists the clusters of a run.
func (s *DB) Clusters(ctx context.Context, runID int64) ([]Cluster, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT cluster, medoid, size FROM clusters WHERE run_id = ? ORDER BY cluster`), runID)
	if err != nil {
		return nil, fmt.Errorf("store: clusters of run %d: %w", runID, err)
	}
	defer rows.Close()
	var out []Cluster
	for rows.Next() {
		c := Cluster{RunID: runID}
		var medoid sql.NullInt64
		if err := rows.Scan(&c.ID, &medoid, &c.Size); err != nil {
			return nil, fmt.Errorf("store: clusters of run %d: %w", runID, err)
		}
		c.Medoid = medoid.Int64
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: clusters of run %d: %w", runID, err)
	}
	return out, nil
}

// Memberships lists the memberships of a run.
func (s *DB) Memberships(ctx context.Context, runID int64) ([]Membership, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT page_id, cluster, x, y, distance, outlier, reason
		FROM memberships WHERE run_id = ? ORDER BY page_id`), runID)
	if err != nil {
		return nil, fmt.Errorf("store: memberships of run %d: %w", runID, err)
	}
	defer rows.Close()
	var out []Membership
	for rows.Next() {
		m := Membership{RunID: runID}
		if err := rows.Scan(&m.PageID, &m.Cluster, &m.X, &m.Y, &m.Distance, &m.Outlier, &m.Reason); err != nil {
			return nil, fmt.Errorf("store: memberships of run %d: %w", runID, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: memberships of run %d: %w", runID, err)
	}
	return out, nil
}

// distancesPerQuery is how many pairs one lookup query asks for: the pairs
// form a VALUES list joined to the table, so the database probes the primary
// key once per pair without a round trip per pair. (CROSS JOIN makes SQLite
// keep that join order; a row-value IN list would scan the whole view.)
const distancesPerQuery = 250

// Distances looks up cached distances.
func (s *DB) Distances(ctx context.Context, view string, pairs []Pair) (map[Pair]Distance, error) {
	out := make(map[Pair]Distance)
	want := make(map[Pair]bool, len(pairs))
	uniq := make([]Pair, 0, len(pairs))
	for _, p := range pairs {
		p = MakePair(p.A, p.B)
		if !want[p] {
			want[p] = true
			uniq = append(uniq, p)
		}
	}
	var q strings.Builder
	args := make([]any, 0, 1+2*distancesPerQuery)
	for start := 0; start < len(uniq); start += distancesPerQuery {
		chunk := uniq[start:min(start+distancesPerQuery, len(uniq))]
		q.Reset()
		q.WriteString(`WITH want (a, b) AS (VALUES `)
		args = args[:0]
		for i, p := range chunk {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?)")
			args = append(args, p.A, p.B)
		}
		q.WriteString(`) SELECT d.hash_a, d.hash_b, d.distance, d.nodes_a, d.nodes_b
			FROM want CROSS JOIN distances d
			WHERE d.view = ? AND d.hash_a = want.a AND d.hash_b = want.b`)
		args = append(args, view)
		if err := s.scanDistances(ctx, q.String(), args, view, out); err != nil {
			return nil, fmt.Errorf("store: distances (%s): %w", view, err)
		}
	}
	return out, nil
}

func (s *DB) scanDistances(ctx context.Context, q string, args []any, view string, out map[Pair]Distance) error {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(q), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		d := Distance{View: view}
		if err := rows.Scan(&d.A, &d.B, &d.Distance, &d.NodesA, &d.NodesB); err != nil {
			return err
		}
		out[d.Pair] = d
	}
	return rows.Err()
}

// PutDistances inserts or replaces cached distances, many rows per
// statement. A pair given twice keeps its last distance.
func (s *DB) PutDistances(ctx context.Context, ds []Distance) error {
	type key struct {
		view string
		p    Pair
	}
	last := make(map[key]int, len(ds))
	for i, d := range ds {
		if d.View == "" || d.A == "" || d.B == "" {
			return fmt.Errorf("store: put distance %.12s/%.12s: empty view or hash", d.A, d.B)
		}
		if math.IsNaN(d.Distance) || math.IsInf(d.Distance, 0) {
			return fmt.Errorf("store: put distance (%s) %.12s/%.12s: distance is %v", d.View, d.A, d.B, d.Distance)
		}
		last[key{d.View, MakePair(d.A, d.B)}] = i
	}
	rows := make([]Distance, 0, len(last))
	for i, d := range ds {
		d = d.canonical()
		if last[key{d.View, d.Pair}] == i {
			rows = append(rows, d)
		}
	}
	var q strings.Builder
	args := make([]any, 0, 6*distancesPerQuery)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for start := 0; start < len(rows); start += distancesPerQuery {
			chunk := rows[start:min(start+distancesPerQuery, len(rows))]
			q.Reset()
			q.WriteString(`INSERT INTO distances (view, hash_a, hash_b, distance, nodes_a, nodes_b) VALUES `)
			args = args[:0]
			for i, d := range chunk {
				if i > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(?, ?, ?, ?, ?, ?)")
				args = append(args, d.View, d.A, d.B, d.Distance, d.NodesA, d.NodesB)
			}
			q.WriteString(` ON CONFLICT (view, hash_a, hash_b) DO UPDATE SET
				distance = excluded.distance, nodes_a = excluded.nodes_a, nodes_b = excluded.nodes_b`)
			if _, err := tx.ExecContext(ctx, s.d.rebind(q.String()), args...); err != nil {
				return fmt.Errorf("distances (%s) %.12s/%.12s…: %w", chunk[0].View, chunk[0].A, chunk[0].B, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: put distances: %w", err)
	}
	return nil
}

// PutExtractions inserts or replaces extractions.
func (s *DB) PutExtractions(ctx context.Context, xs []Extraction) error {
	now := time.Now().UTC().Truncate(time.Millisecond)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO extractions (page_id, run_id, title, body, selector, confidence, method, date, author, page_type, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (page_id, run_id) DO UPDATE SET
			title = excluded.title, body = excluded.body, selector = excluded.selector,
			confidence = excluded.confidence, method = excluded.method, date = excluded.date,
			author = excluded.author, page_type = excluded.page_type, created_at = excluded.created_at`))
		if err != nil {
			return err
		}
		defer st.Close()
		for i := range xs {
			x := &xs[i]
			if x.CreatedAt.IsZero() {
				x.CreatedAt = now
			}
			if math.IsNaN(x.Confidence) {
				return fmt.Errorf("extraction of page %d: NaN confidence", x.PageID)
			}
			if _, err := st.ExecContext(ctx, x.PageID, x.RunID, x.Title, x.Body, x.Selector, x.Confidence,
				x.Method, x.Date, x.Author, x.PageType, millis(x.CreatedAt)); err != nil {
				return fmt.Errorf("extraction of page %d (run %d): %w", x.PageID, x.RunID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: put extractions: %w", err)
	}
	return nil
}

// Extractions lists extractions matching q.
func (s *DB) Extractions(ctx context.Context, q ExtractionQuery) ([]Extraction, error) {
	sqlq := `SELECT x.page_id, x.run_id, x.title, x.body, x.selector, x.confidence, x.method, x.date, x.author, x.page_type, x.created_at
		FROM extractions x`
	var where []string
	var args []any
	if q.Site != "" {
		sqlq += ` JOIN pages p ON p.id = x.page_id`
		where, args = append(where, "p.site = ?"), append(args, q.Site)
	}
	if q.PageID != 0 {
		where, args = append(where, "x.page_id = ?"), append(args, q.PageID)
	}
	if q.RunID != 0 {
		where, args = append(where, "x.run_id = ?"), append(args, q.RunID)
	}
	if len(where) > 0 {
		sqlq += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(sqlq+" ORDER BY x.page_id, x.run_id"), args...)
	if err != nil {
		return nil, fmt.Errorf("store: extractions: %w", err)
	}
	defer rows.Close()
	var out []Extraction
	for rows.Next() {
		var x Extraction
		var created int64
		if err := rows.Scan(&x.PageID, &x.RunID, &x.Title, &x.Body, &x.Selector, &x.Confidence, &x.Method, &x.Date, &x.Author, &x.PageType, &created); err != nil {
			return nil, fmt.Errorf("store: extractions: %w", err)
		}
		x.CreatedAt = fromMillis(created)
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: extractions: %w", err)
	}
	return out, nil
}

// PutRules replaces the rules of every run present in rules.
func (s *DB) PutRules(ctx context.Context, rules []Rule) error {
	runs := map[int64]bool{}
	for _, r := range rules {
		if r.RunID == 0 || r.Site == "" || r.Field == "" {
			return fmt.Errorf("store: put rule (run %d, cluster %d): missing run, site or field", r.RunID, r.Cluster)
		}
		runs[r.RunID] = true
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for id := range runs {
			if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM rules WHERE run_id = ?`), id); err != nil {
				return err
			}
		}
		st, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO rules (run_id, site, cluster, field, selector, support) VALUES (?, ?, ?, ?, ?, ?)`))
		if err != nil {
			return err
		}
		defer st.Close()
		for _, r := range rules {
			if _, err := st.ExecContext(ctx, r.RunID, r.Site, r.Cluster, r.Field, r.Selector, r.Support); err != nil {
				return fmt.Errorf("rule (run %d, cluster %d, %s): %w", r.RunID, r.Cluster, r.Field, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: put rules: %w", err)
	}
	return nil
}

// Rules lists the rules of a run.
func (s *DB) Rules(ctx context.Context, runID int64) ([]Rule, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT site, cluster, field, selector, support FROM rules
		WHERE run_id = ? ORDER BY cluster, field`), runID)
	if err != nil {
		return nil, fmt.Errorf("store: rules of run %d: %w", runID, err)
	}
	defer rows.Close()
	var out []Rule
	for rows.Next() {
		r := Rule{RunID: runID}
		if err := rows.Scan(&r.Site, &r.Cluster, &r.Field, &r.Selector, &r.Support); err != nil {
			return nil, fmt.Errorf("store: rules of run %d: %w", runID, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: rules of run %d: %w", runID, err)
	}
	return out, nil
}
