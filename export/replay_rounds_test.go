package export

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/store"
)

// renderRound renders url with a renderer of its own (a fresh browser:
// nothing cached, every resource requested again) and stores it in the
// dataset of monitor m.
func renderRound(t *testing.T, st store.Store, url string) int64 {
	t.Helper()
	r, err := browser.New(browser.Options{Tabs: 1, PageTimeout: 20 * time.Second, Guard: loopbackGuard, Record: browser.RecordOptions{On: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	p, err := r.Fetch(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := capture.ToStore(p.URL, "monitor:m", store.SiteFromDomain, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutPages(ctx, []*store.Page{sp}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutExtractions(ctx, []store.Extraction{{PageID: sp.ID, Title: "Story", Body: capturedArticle}}); err != nil {
		t.Fatal(err)
	}
	return sp.ID
}

// exportRound writes the WARC of one page of monitor m alone, and reads
// it back.
func exportRound(t *testing.T, st store.Store, id int64) (string, []Record) {
	t.Helper()
	out := t.TempDir()
	if _, err := Corpus(context.Background(), st, nil, CorpusOptions{Formats: []string{"warc"}, Out: out, Dataset: "monitor:m", PageIDs: []int64{id}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, "corpus.warc.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadWARC(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	return path, recs
}

// needWabac skips (fails on CI) without wabac.js.
func needWabac(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(wabacSW); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have wabac.js (scripts/setup.sh): %v", err)
		}
		t.Skip("wabac.js missing: run scripts/setup.sh")
	}
}

// twoRounds captures the script-made article in two rounds of monitor m
// (a fresh browser each) and returns the server, the store and the two
// rounds' pages.
func twoRounds(t *testing.T) (*httptest.Server, store.Store, int64, int64) {
	t.Helper()
	srv, _ := captureServer(t)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return srv, st, renderRound(t, st, srv.URL+"/old"), renderRound(t, st, srv.URL+"/old?round=2")
}

// TestReplayRoundAlone exports round 2 alone as a WACZ, as "export
// --format wacz --monitor NAME --round 2" does: its revisits refer to
// round 1's records, which the package now holds too (before, it held
// only the revisits, and wabac.js replayed nothing of them). Loaded
// alone in wabac.js, origin shut down, it replays the live render's
// text.
func TestReplayRoundAlone(t *testing.T) {
	needWabac(t)
	srv, st, _, second := twoRounds(t)
	out := t.TempDir()
	if _, err := Corpus(context.Background(), st, nil, CorpusOptions{Formats: []string{"wacz"}, Out: out, Dataset: "monitor:m", PageIDs: []int64{second}}); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(out, "corpus.wacz")
	ids, revisits := map[string]bool{}, []Record{}
	for name, b := range readZip(t, pkg) {
		if !strings.HasSuffix(name, ".warc.gz") {
			continue
		}
		recs, err := ReadWARC(bytes.NewReader(b), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			ids[r.Header.Get("WARC-Record-ID")] = true
			if r.Type() == "revisit" {
				revisits = append(revisits, r)
			}
		}
	}
	if len(revisits) < 3 {
		t.Errorf("round 2 has %d revisits, want the document, the script and the JSON", len(revisits))
	}
	for _, r := range revisits {
		if !ids[r.Header.Get("WARC-Refers-To")] {
			t.Errorf("round 2's revisit of %s refers to %s, not in the package", r.TargetURI(), r.Header.Get("WARC-Refers-To"))
		}
	}
	ctx := headless(t)
	live := pageText(t, ctx, srv.URL+"/old?round=2", "#story")
	origin := srv.URL
	srv.Close()
	replayed, f1 := replayRound2(t, ctx, pkg, origin, live)
	t.Logf("round 2's WACZ alone (%d revisits, their originals included), replayed offline by wabac.js: shingle F1 %.3f against the live render", len(revisits), f1)
	if f1 < 0.99 || !strings.Contains(replayed, capturedArticle) {
		t.Errorf("replayed text %q\nlive %q", replayed, live)
	}
}

// replayRound2 replays round 2's story from the package pkg in wabac.js,
// and its shingle F1 against the live render's text.
func replayRound2(t *testing.T, ctx context.Context, pkg, origin, live string) (string, float64) {
	t.Helper()
	replay := replayServer(t, pkg)
	loadCollection(t, ctx, replay.URL)
	replayed := replayInFrame(t, ctx, replay.URL+"/replay/w/test/mp_/"+origin+"/old?round=2",
		`document.querySelector("#story") && document.querySelector("#story").textContent.length > 0`)
	c := eval.ShingleCounts(live, replayed)
	return replayed, 2 * c.TP / max(2*c.TP+c.FP+c.FN, 1e-9)
}

// TestReplayRoundsPackagedApart captures the script-made article in two
// rounds of a monitor and exports each round alone: the second round's
// document, script and JSON are revisits of the first round's records.
// Packaged together (AddWARC), the two files replay in wabac.js, origin
// shut down, with the live render's text: each revisit found its record
// in the other file.
func TestReplayRoundsPackagedApart(t *testing.T) {
	needWabac(t)
	srv, st, first, second := twoRounds(t)
	path1, recs1 := exportRound(t, st, first)
	path2, recs2 := exportRound(t, st, second)
	ids := map[string]bool{}
	for _, r := range recs1 {
		ids[r.Header.Get("WARC-Record-ID")] = true
	}
	revisits := 0
	for _, r := range recs2 {
		if r.Type() == "revisit" {
			revisits++
			if !ids[r.Header.Get("WARC-Refers-To")] {
				t.Errorf("round 2's revisit of %s refers to %s, no record of round 1", r.TargetURI(), r.Header.Get("WARC-Refers-To"))
			}
		}
	}
	if revisits < 3 {
		t.Errorf("round 2 has %d revisits, want the document, the script and the JSON", revisits)
	}
	warcio(t, path1)
	warcio(t, path2)
	ctx := headless(t)
	live := pageText(t, ctx, srv.URL+"/old?round=2", "#story")
	origin := srv.URL
	srv.Close()
	pkg := filepath.Join(t.TempDir(), "rounds.wacz")
	z, err := NewWACZ(pkg, WACZOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path1, path2} {
		if err := z.AddWARC(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	replayed, f1 := replayRound2(t, ctx, pkg, origin, live)
	t.Logf("round 2 exported alone (%d revisits), packaged with round 1, replayed offline by wabac.js: shingle F1 %.3f against the live render", revisits, f1)
	if f1 < 0.99 || !strings.Contains(replayed, capturedArticle) {
		t.Errorf("replayed text %q\nlive %q", replayed, live)
	}
}
