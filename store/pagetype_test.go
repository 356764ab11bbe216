package store_test

import (
	"context"
	"testing"

	"github.com/gleaner/gleaner/store"
)

// TestExtractionPageType checks that an extraction's page type is stored
// and read back, replaced with the row, and empty when not given.
func TestExtractionPageType(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		pages := []*store.Page{{URL: "http://s.example/1", RawHTML: []byte("1")}, {URL: "http://s.example/2", RawHTML: []byte("2")}}
		if err := db.PutPages(ctx, pages); err != nil {
			t.Fatal(err)
		}
		xs := []store.Extraction{
			{PageID: pages[0].ID, Title: "T", Method: "single-page", PageType: "forum"},
			{PageID: pages[1].ID, Title: "U", Method: "single-page"},
		}
		if err := db.PutExtractions(ctx, xs); err != nil {
			t.Fatal(err)
		}
		xs[0].PageType = "listing"
		if err := db.PutExtractions(ctx, xs[:1]); err != nil {
			t.Fatal(err)
		}
		got, err := db.Extractions(ctx, store.ExtractionQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].PageType != "listing" || got[1].PageType != "" {
			t.Errorf("extractions %+v, want page types listing and none", got)
		}
	})
}
