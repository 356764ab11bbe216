package monitoring

import (
	"context"
	"database/sql"
	"fmt"
)

// Untried is a document no learned template has tried yet.
type Untried struct {
	DocID, PageID            int64
	Round                    int
	Title, Author, Published string
	Text                     string
	// Hint is the hint of the URL it was stored from ("" when none).
	Hint string
}

// Untried lists the documents with a page that no learned template has
// tried, in the order they were stored.
func (r *Repo) Untried(ctx context.Context) ([]Untried, error) {
	var out []Untried
	err := r.each(ctx, `SELECT d.id, d.page_id, d.round, d.title, d.author, d.published, d.body,
		COALESCE((SELECT MAX(u.hint) FROM monitor_urls u WHERE u.monitor = d.monitor AND u.doc_id = d.id AND u.state = ?), '')
		FROM monitor_docs d WHERE d.monitor = ? AND d.tried_run = 0 AND d.page_id > 0 ORDER BY d.id`, []any{URLArticle.String(), r.name},
		func(rows *sql.Rows) error {
			var u Untried
			err := rows.Scan(&u.DocID, &u.PageID, &u.Round, &u.Title, &u.Author, &u.Published, &u.Text, &u.Hint)
			out = append(out, u)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("monitor: documents to extract: %w", err)
	}
	return out, nil
}

// DocPages lists the store pages of the monitor's documents.
func (r *Repo) DocPages(ctx context.Context) ([]int64, error) {
	return r.ids(ctx, `SELECT page_id FROM monitor_docs WHERE monitor = ? AND page_id > 0`, r.name)
}

// TemplateText is the text a document's learned template gave it.
type TemplateText struct {
	Text       string
	SimHash    int64
	Method     string
	Confidence float64
	// Run and Template are the learning run and its cluster that gave the
	// text (0 and -1: none, a second opinion); Tried the run the document
	// was tried against.
	Run      int64
	Template int
	Tried    int64
}

// SetTemplateText replaces a document's text with its template's.
func (r *Repo) SetTemplateText(ctx context.Context, id int64, t TemplateText) error {
	_, err := r.exec(ctx, `UPDATE monitor_docs SET body = ?, simhash = ?, method = ?, confidence = ?, run_id = ?, template = ?, tried_run = ?
		WHERE id = ?`, t.Text, t.SimHash, t.Method, t.Confidence, t.Run, t.Template, t.Tried, id)
	if err != nil {
		return fmt.Errorf("monitor: template text of document %d: %w", id, err)
	}
	return nil
}

// SetTried records that the templates of run tried a document and kept
// its text.
func (r *Repo) SetTried(ctx context.Context, id, run int64) error {
	if _, err := r.exec(ctx, `UPDATE monitor_docs SET tried_run = ? WHERE id = ?`, run, id); err != nil {
		return fmt.Errorf("monitor: template text of document %d: %w", id, err)
	}
	return nil
}

// SetKind changes a document's kind.
func (r *Repo) SetKind(ctx context.Context, id int64, k DocKind) error {
	if _, err := r.exec(ctx, `UPDATE monitor_docs SET kind = ? WHERE id = ?`, k.String(), id); err != nil {
		return fmt.Errorf("monitor: kind of document %d: %w", id, err)
	}
	return nil
}
