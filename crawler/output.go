package crawler

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/store"
)

// Edges returns the hyperlink graph of crawl name: page → page links with
// their anchor text, and redirects (anchor "redirect").
func Edges(ctx context.Context, db *store.DB, name string) ([]export.Edge, error) {
	if err := ensureTables(ctx, db); err != nil {
		return nil, fmt.Errorf("crawler tables: %w", err)
	}
	rows, err := db.SQL().QueryContext(ctx, db.Rebind(`SELECT source, target, kind, anchor FROM crawl_edges WHERE crawl = ? ORDER BY source, target, kind`), name)
	if err != nil {
		return nil, fmt.Errorf("edges of crawl %s: %w", name, err)
	}
	defer rows.Close()
	var out []export.Edge
	for rows.Next() {
		var e export.Edge
		var kind string
		if err := rows.Scan(&e.Source, &e.Target, &kind, &e.Text); err != nil {
			return nil, err
		}
		if kind == "redirect" {
			e.Text = "redirect"
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// WriteGraph writes the crawl's hyperlink graph as a CSV edge list and as
// GraphML (package export's writers); nodes fetched by the crawl are marked
// crawled.
func WriteGraph(ctx context.Context, db *store.DB, name string, csvOut, graphML io.Writer) (int, error) {
	edges, err := Edges(ctx, db, name)
	if err != nil {
		return 0, err
	}
	if csvOut != nil {
		if err := export.WriteEdgesCSV(csvOut, edges); err != nil {
			return 0, err
		}
	}
	if graphML != nil {
		fetched, err := Fetched(ctx, db, name)
		if err != nil {
			return 0, err
		}
		pages := make([]*export.Page, len(fetched))
		for i, f := range fetched {
			pages[i] = &export.Page{ID: f.URL, URL: f.URL}
		}
		if err := export.WriteGraphML(graphML, pages, edges); err != nil {
			return 0, err
		}
	}
	return len(edges), nil
}

// Document is one page of a crawl's corpus.
type Document struct {
	URL       string  `json:"url"`
	Site      string  `json:"site"`
	Title     string  `json:"title"`
	Date      string  `json:"date,omitempty"`
	Text      string  `json:"text"`
	Template  string  `json:"template,omitempty"` // "run R cluster C" of the site's templates, "" for none
	Method    string  `json:"method"`
	Relevance float64 `json:"relevance"`
	PageID    int64   `json:"page_id"`
}

// Corpus returns the validated documents of crawl name in fetch order with
// their latest extraction.
func Corpus(ctx context.Context, db *store.DB, name string) ([]Document, error) {
	fetched, err := Fetched(ctx, db, name)
	if err != nil {
		return nil, err
	}
	members := map[int64]map[int64]store.Membership{}
	var out []Document
	for _, f := range fetched {
		if f.Outcome != OutcomeValidated || f.PageID == 0 {
			continue
		}
		xs, err := db.Extractions(ctx, store.ExtractionQuery{PageID: f.PageID})
		if err != nil {
			return nil, err
		}
		if len(xs) == 0 {
			continue
		}
		x := xs[0]
		for _, y := range xs[1:] {
			if y.CreatedAt.After(x.CreatedAt) || (y.CreatedAt.Equal(x.CreatedAt) && y.RunID > x.RunID) {
				x = y
			}
		}
		metas, err := db.Pages(ctx, store.PageQuery{IDs: []int64{f.PageID}})
		if err != nil || len(metas) == 0 {
			return nil, fmt.Errorf("page %d of %s: %v", f.PageID, f.URL, err)
		}
		d := Document{URL: f.URL, Site: metas[0].Site, Title: x.Title, Date: x.Date, Text: x.Body, Method: x.Method, Relevance: f.Score, PageID: f.PageID}
		if x.RunID != 0 {
			ms, ok := members[x.RunID]
			if !ok {
				list, err := db.Memberships(ctx, x.RunID)
				if err != nil {
					return nil, err
				}
				ms = map[int64]store.Membership{}
				for _, m := range list {
					ms[m.PageID] = m
				}
				members[x.RunID] = ms
			}
			if m, ok := ms[f.PageID]; ok {
				d.Template = fmt.Sprintf("run %d cluster %d", x.RunID, m.Cluster)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// WriteCorpus writes the crawl's validated documents as JSON Lines.
func WriteCorpus(ctx context.Context, db *store.DB, name string, w io.Writer) (int, error) {
	docs, err := Corpus(ctx, db, name)
	if err != nil {
		return 0, err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range docs {
		if err := enc.Encode(&docs[i]); err != nil {
			return i, err
		}
	}
	return len(docs), nil
}
