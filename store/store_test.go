package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

func TestPageRoundTrip(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		fetched := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
		in := &store.Page{
			URL: "https://news.example.co.uk/a/1.html", Dataset: "ds", ManifestID: "p1", Label: "2009",
			FetchedAt: fetched, Status: 200, ContentType: "text/html; charset=utf-8",
			RawHTML:      []byte("<html><body><p>raw</p></body></html>"),
			RenderedHTML: []byte("<html><body><p>rendered</p></body></html>"),
			Capture: &store.Capture{FinalURL: "https://news.example.co.uk/a/1", Title: "T",
				Redirects: []store.Redirect{{URL: "http://news.example.co.uk/a/1.html", Status: 301}},
				Links:     []store.Link{{URL: "https://news.example.co.uk/b", Text: "B", Source: "a"}},
				Frames:    []store.Frame{{URL: "https://news.example.co.uk/f", Path: "/html/body/iframe", HTML: "<p>f</p>"}},
				Rendered:  true, Partial: true, PartialReason: "deadline", Notes: []string{"scroll: 3 steps"},
				Elapsed: 1500 * time.Millisecond, Attempts: 2, Requests: 14, Blocked: 3,
				Layout: json.RawMessage(`{"width":800,"height":2000,"boxes":{"/html/body":[0,0,800,2000,1]}}`)},
			Gold: &store.Gold{Title: "Title", Body: "Body é", Text: "Title\n\nBody é"},
		}
		if err := db.PutPages(ctx, []*store.Page{in}); err != nil {
			t.Fatal(err)
		}
		if in.ID == 0 || in.Site != "example.co.uk" {
			t.Fatalf("after put: id %d site %q", in.ID, in.Site)
		}
		if want := store.ContentHash(in.RenderedHTML); in.Hash != want {
			t.Errorf("hash %s, want hash of rendered HTML %s", in.Hash, want)
		}
		got, err := db.Page(ctx, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.RawHTML, in.RawHTML) || !bytes.Equal(got.RenderedHTML, in.RenderedHTML) {
			t.Errorf("HTML differs: %q %q", got.RawHTML, got.RenderedHTML)
		}
		if !reflect.DeepEqual(got.Capture, in.Capture) || !reflect.DeepEqual(got.Gold, in.Gold) {
			t.Errorf("capture/gold differ: %+v %+v", got.Capture, got.Gold)
		}
		if !got.FetchedAt.Equal(fetched) || got.Status != 200 || got.Label != "2009" || got.Hash != in.Hash {
			t.Errorf("metadata differs: %+v", got)
		}
		byKey, err := db.PageByKey(ctx, "ds", "p1")
		if err != nil || byKey.ID != in.ID {
			t.Fatalf("PageByKey: %v %v", byKey, err)
		}
		if _, err := db.Page(ctx, 999); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing page: err %v, want ErrNotFound", err)
		}
	})
}

func TestRunRoundTrip(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		db, _ := openTemp(t, b)
		var pages []*store.Page
		for i := range 3 {
			pages = append(pages, &store.Page{URL: "http://example.com/" + string(rune('a'+i)), RawHTML: []byte{byte(i)}})
		}
		if err := db.PutPages(ctx, pages); err != nil {
			t.Fatal(err)
		}
		r := &store.Run{Site: "example.com", Seed: 7, Params: json.RawMessage(`{"kmax":5}`)}
		if err := db.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		r.K = 2
		r.Silhouette = map[int]float64{1: math.NaN(), 2: 0.75, 3: 0.5}
		r.Pages = 3
		clusters := []store.Cluster{{ID: 0, Medoid: pages[0].ID, Size: 2}, {ID: 1, Medoid: pages[2].ID, Size: 1}}
		members := []store.Membership{
			{PageID: pages[0].ID, Cluster: 0, X: 0.1, Y: -0.2},
			{PageID: pages[1].ID, Cluster: 0, X: 0.2, Y: -0.1, Distance: 0.05},
			{PageID: pages[2].ID, Cluster: 1, X: 3, Y: 4, Outlier: true, Reason: "singleton"},
		}
		if err := db.FinishRun(ctx, r, clusters, members); err != nil {
			t.Fatal(err)
		}
		got, err := db.LatestRun(ctx, "example.com", store.RunDone)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != r.ID || got.K != 2 || got.Seed != 7 || string(got.Params) != `{"kmax":5}` ||
			got.Silhouette[2] != 0.75 || !math.IsNaN(got.Silhouette[1]) || got.Status != store.RunDone {
			t.Errorf("run = %+v", got)
		}
		gc, err := db.Clusters(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i := range clusters {
			clusters[i].RunID = r.ID
		}
		if !reflect.DeepEqual(gc, clusters) {
			t.Errorf("clusters = %+v, want %+v", gc, clusters)
		}
		gm, err := db.Memberships(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gm, members) {
			t.Errorf("memberships = %+v, want %+v", gm, members)
		}

		// A new page joins the run's nearest template; an old one moves.
		late := &store.Page{URL: "http://example.com/late", RawHTML: []byte("late")}
		if err := db.PutPages(ctx, []*store.Page{late}); err != nil {
			t.Fatal(err)
		}
		more := []store.Membership{
			{RunID: r.ID, PageID: late.ID, Cluster: 1, X: 2.5, Y: 4, Distance: 0.2},
			{RunID: r.ID, PageID: pages[1].ID, Cluster: 1, X: 2, Y: 3, Distance: 0.4, Outlier: true, Reason: "far from every medoid"},
		}
		if err := db.PutMemberships(ctx, more); err != nil {
			t.Fatal(err)
		}
		gm, err = db.Memberships(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := []store.Membership{members[0], more[1], members[2], more[0]}
		if !reflect.DeepEqual(gm, want) {
			t.Errorf("memberships after PutMemberships = %+v, want %+v", gm, want)
		}
		if err := db.PutMemberships(ctx, []store.Membership{{RunID: r.ID + 100, PageID: late.ID}}); err == nil {
			t.Error("membership of a missing run accepted")
		}
		byHash, err := db.Pages(ctx, store.PageQuery{Hash: late.Hash})
		if err != nil || len(byHash) != 1 || byHash[0].ID != late.ID {
			t.Errorf("pages by hash: %+v %v", byHash, err)
		}
	})
}
