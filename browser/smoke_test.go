package browser

import (
	"context"
	"testing"
)

func TestSmoke(t *testing.T) {
	ts := testServer(t)
	r := sharedRenderer(t)
	for _, path := range []string{"/inject.html", "/layout.html", "/scroll.html", "/consent.html", "/loadmore.html"} {
		p, err := r.Fetch(context.Background(), ts.URL+path)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s status=%d title=%q partial=%v %q notes=%v elapsed=%v req=%d blocked=%d links=%d frames=%d boxes=%d redirects=%v\n%.1500s", path, p.Status, p.Title, p.Partial, p.PartialReason, p.Notes, p.Elapsed, p.Requests, p.Blocked, len(p.Links), len(p.Frames), len(p.Layout.Boxes), p.Redirects, p.HTML)
	}
}
