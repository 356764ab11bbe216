package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gleaner/gleaner/store"
)

// richestRun is the finished learning run with the most pages among the
// fixture sites, and the pages of it (not medoids) with an extraction
// whose selector is set.
func richestRun(t *testing.T, db *store.DB) (*store.Run, []store.Membership, []int64) {
	t.Helper()
	ctx := context.Background()
	runs, err := db.Runs(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var best *store.Run
	var members []store.Membership
	for _, r := range runs {
		ms, err := db.Memberships(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == store.RunDone && len(ms) > len(members) {
			best, members = r, ms
		}
	}
	if best == nil {
		t.Fatal("the fixture crawl learned no template")
	}
	latest, err := db.LatestRun(ctx, best.Site, store.RunDone)
	if err != nil || latest.ID != best.ID {
		t.Skipf("site %s has a later run than %d", best.Site, best.ID)
	}
	medoids := map[int64]bool{}
	cs, _ := db.Clusters(ctx, best.ID)
	for _, c := range cs {
		medoids[c.Medoid] = true
	}
	var ids []int64
	for _, m := range members {
		xs, _ := db.Extractions(ctx, store.ExtractionQuery{PageID: m.PageID})
		// A page extracted against this run's templates, placed in a
		// cluster: it is shown beside its medoid.
		if x := latestPerPage(xs)[m.PageID]; !medoids[m.PageID] && !m.Outlier && x.Selector != "" && x.RunID == best.ID {
			ids = append(ids, m.PageID)
		}
	}
	if len(ids) == 0 {
		t.Fatalf("no extracted page in run %d", best.ID)
	}
	return best, members, ids
}

// clickableMark is the page id of a mark among ids that no other mark
// covers at its centre (pages of equal content share coordinates).
const clickableMark = `((ids) => {
	for (const m of document.querySelectorAll("svg.scatter .mark")) {
		const r = m.getBoundingClientRect();
		const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
		if (ids.includes(Number(m.dataset.page)) && top === m) { return Number(m.dataset.page); }
	}
	return 0;
})(%s)`

// TestBrowserSiteAndPage opens a site in Chromium: its scatter has one
// mark per page of the run and its heat map n×n cells; clicking a point
// opens the page, whose sandboxed static copy has the extracted region
// marked and laid out (a box of non-zero size).
func TestBrowserSiteAndPage(t *testing.T) {
	_, db := fixtureStore(t)
	_, ts := startDashboard(t, db, Options{})
	run, members, candidates := richestRun(t, db)
	ctx := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/sites"), chromedp.WaitVisible(chromedp.CSS("table"))); err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, "3-sites")
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/corpus?site="+url.QueryEscape(run.Site)), chromedp.WaitVisible(chromedp.CSS("table.docs"))); err != nil {
		t.Fatal(err)
	}
	xs, err := db.Extractions(context.Background(), store.ExtractionQuery{Site: run.Site})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := eval[int](t, ctx, `document.querySelectorAll("table.docs tbody tr").length`), len(latestPerPage(xs)); got != want {
		t.Errorf("corpus of %s lists %d documents, want its %d extracted pages", run.Site, got, want)
	}
	shoot(t, ctx, "6-corpus")
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/sites/"+url.PathEscape(run.Site)), chromedp.WaitVisible(chromedp.CSS("svg.heatmap"))); err != nil {
		t.Fatal(err)
	}
	n := len(members)
	if got := eval[int](t, ctx, `document.querySelectorAll("svg.scatter .mark").length`); got != n {
		t.Errorf("scatter: %d marks, want one per page of run %d: %d", got, run.ID, n)
	}
	if got := eval[int](t, ctx, `new Set([...document.querySelectorAll("svg.scatter .mark")].map(m => m.dataset.page)).size`); got != n {
		t.Errorf("scatter: %d distinct pages marked, want %d", got, n)
	}
	if got := eval[int](t, ctx, `document.querySelectorAll("svg.heatmap rect.cell").length`); got != n*n {
		t.Errorf("heat map: %d cells, want %d×%d", got, n, n)
	}
	shoot(t, ctx, "4-site-templates")
	ids, _ := json.Marshal(candidates)
	pageID := eval[int64](t, ctx, fmt.Sprintf(clickableMark, ids))
	if pageID == 0 {
		t.Fatalf("no uncovered mark among pages %v", candidates)
	}
	mark := fmt.Sprintf(`svg.scatter .mark[data-page="%d"]`, pageID)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(mark)), chromedp.WaitVisible(chromedp.ID("view-page"))); err != nil {
		t.Fatal(err)
	}
	if loc := eval[string](t, ctx, "location.pathname"); loc != fmt.Sprintf("/pages/%d", pageID) {
		t.Fatalf("clicking the point of page %d opened %s", pageID, loc)
	}
	if sb := eval[string](t, ctx, `document.getElementById("view-page").getAttribute("sandbox")`); sb != "" {
		t.Errorf("the page's frame grants %q, want an empty sandbox", sb)
	}
	if eval[int](t, ctx, `document.querySelectorAll("iframe").length`) != 2 {
		t.Error("the page is not shown beside its template medoid")
	}
	shoot(t, ctx, "5-page")
	src := eval[string](t, ctx, `document.getElementById("view-page").src`)
	if err := chromedp.Do(ctx, chromedp.Navigate(src)); err != nil {
		t.Fatal(err)
	}
	box, err := chromedp.Run(ctx, chromedp.Dimensions(chromedp.CSS("[data-gleaner-extracted]")))
	if err != nil {
		t.Fatalf("no highlighted region in %s: %v", src, err)
	}
	if box.Width == 0 || box.Height == 0 {
		t.Errorf("highlighted region has no area: %+v", box)
	}
	if !strings.Contains(src, "#gleaner-extracted") {
		t.Errorf("frame source %s does not scroll to the region", src)
	}
}
