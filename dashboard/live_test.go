package dashboard

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserLaunchAndFollow opens the dashboard in Chromium, launches a
// plain crawl of the fixture web from the form, and sees the tried counter
// and the log change on the crawl's page without reloading it (Server-Sent
// Events), until the crawl stops at its page limit.
func TestBrowserLaunchAndFollow(t *testing.T) {
	_, db := fixtureStore(t)
	_, ts := startDashboard(t, db, Options{})
	ctx := tab(t)
	cfg := fixtureConfig(ownFixtureWeb(t, 2), "live")
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("form#launch")),
		chromedp.SetValue(chromedp.CSS(`input[name=name]`), "live"),
		chromedp.SetValue(chromedp.CSS(`textarea[name=seeds]`), strings.Join(cfg.Seeds, "\n")),
		chromedp.SetValue(chromedp.CSS(`textarea[name=terms]`), strings.Join(cfg.Terms, ", ")),
		chromedp.SetValue(chromedp.CSS(`select[name=mode]`), "plain"),
		chromedp.SetValue(chromedp.CSS(`input[name=max_pages]`), "24"),
		chromedp.SetValue(chromedp.CSS(`input[name=delay]`), "200ms"),
		chromedp.SetValue(chromedp.CSS(`input[name=timeout]`), "2s"),
		chromedp.SetValue(chromedp.CSS(`input[name=allow_hosts]`), strings.Join(cfg.AllowHosts, " ")),
	)
	if err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, "1-crawls")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`form#launch button[type=submit]`)), chromedp.WaitVisible(chromedp.ID("c-tried"))); err != nil {
		t.Fatalf("%v: %s", err, eval[string](t, ctx, "document.body.innerText"))
	}
	if loc := eval[string](t, ctx, "location.pathname"); loc != "/crawls/live" {
		t.Fatalf("after launch at %s", loc)
	}
	first := eval[string](t, ctx, `window.__sameDocument = true; document.getElementById("c-tried").textContent`)
	waitFor(t, ctx, "tried counter changes live", `document.getElementById("c-tried").textContent !== `+strconv.Quote(first), 20*time.Second)
	waitFor(t, ctx, "the crawl stops at 24 pages", `document.getElementById("c-tried").textContent === "24" && document.getElementById("state").textContent === "stopped"`, 60*time.Second)
	if !eval[bool](t, ctx, `window.__sameDocument === true && document.getElementById("log").textContent.includes("stopped: max-pages")`) {
		t.Errorf("the page was reloaded, or the log did not stream: %q", eval[string](t, ctx, `document.getElementById("log").textContent`))
	}
	t.Log(eval[string](t, ctx, `document.getElementById("log").textContent`))
	time.Sleep(1200 * time.Millisecond) // the chart reloads at most once a second
	shoot(t, ctx, "2-crawl-live")
}
