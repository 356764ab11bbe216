package dashboard

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gleaner/gleaner/browser"
)

// One headless Chromium serves every browser test of the package; each
// test opens its own tab.
var (
	brOnce   sync.Once
	brCtx    context.Context
	brCancel = func() {}
	brErr    error
)

// tab opens a tab in the shared Chromium, closed at the end of the test.
func tab(t *testing.T) context.Context {
	t.Helper()
	exec, err := browser.FindChromium()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have Chromium: %v", err)
		}
		t.Skip(err)
	}
	brOnce.Do(func() { brErr = startBrowser(exec) })
	if brErr != nil {
		t.Fatal(brErr)
	}
	ctx, cancel := chromedp.NewContext(brCtx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancel() })
	return ctx
}

func startBrowser(exec string) error {
	dir, err := makeTempDir()
	if err != nil {
		return err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exec), chromedp.UserDataDir(dir),
		chromedp.WindowSize(1400, 1100), chromedp.DisableGPU, chromedp.Flag("no-sandbox", os.Geteuid() == 0))
	alloc, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(alloc)
	brCtx, brCancel = ctx, func() { cancelB(); cancelA() }
	if err := chromedp.Do(ctx); err != nil {
		return err
	}
	return nil
}

func closeBrowser() { brCancel() }

// shoot saves a screenshot of the tab as NAME.png in $DASHBOARD_SCREENS
// when it is set (docs/screens holds the committed ones).
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("DASHBOARD_SCREENS")
	if dir == "" {
		return
	}
	// Frames and charts finish loading; the viewport is captured, since a
	// full-page capture leaves the sandboxed frames blank.
	time.Sleep(700 * time.Millisecond)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Error(err)
	}
}

// eval runs JavaScript in the tab's page (DevTools is not bound by the
// page's Content-Security-Policy).
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor polls expr in the page until it is true.
func waitFor(t *testing.T, ctx context.Context, what, expr string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: not within %v (%s)", what, within, expr)
}
