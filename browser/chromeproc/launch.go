package chromeproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/chromedp/chromedp"
)

// Config says how to launch a browser.
type Config struct {
	ExecPath      string
	Width, Height int
	UserAgent     string // "" keeps Chromium's
	// MaxMemory is the browser's memory bound in bytes: a script's heap is
	// bounded to half of it.
	MaxMemory int64
	// ProxyAddr, when set, is the address of the proxy every connection of
	// the browser goes through; ProxySPKI the key hashes of its
	// certificates, accepted by the browser ("" for none).
	ProxyAddr, ProxySPKI string
	// Extra are added to Chromium's command line.
	Extra []chromedp.ExecAllocatorOption
}

// Browser is one running Chromium process.
type Browser struct {
	Dir         string // private user data directory
	PID         int    // 0 when chromedp did not say
	Ctx         context.Context
	Cancel      context.CancelFunc
	allocCancel context.CancelFunc
}

// startTimeout bounds the launch of a browser.
const startTimeout = 30 * time.Second

// Launch starts a browser with a user data directory of its own, named for
// this program (see SweepStale). The error wraps the cause.
func Launch(c Config) (*Browser, error) {
	dir, err := os.MkdirTemp("", DirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, err
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), c.flags(dir)...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	if err := startWithin(ctx, cancel, startTimeout); err != nil {
		cancel()
		allocCancel()
		KillTree(0, dir)
		os.RemoveAll(dir)
		return nil, fmt.Errorf("chromium %s: %w", c.ExecPath, err)
	}
	b := &Browser{Dir: dir, Ctx: ctx, Cancel: cancel, allocCancel: allocCancel}
	if p := chromedp.FromContext(ctx).Browser.Process(); p != nil {
		b.PID = p.Pid
	}
	return b, nil
}

// startWithin starts the browser of ctx (its life is bound to ctx),
// cancelling it when the start takes longer than d.
func startWithin(ctx context.Context, cancel context.CancelFunc, d time.Duration) error {
	startCtx, startCancel := context.WithTimeout(context.Background(), d)
	defer startCancel()
	stopWatch := context.AfterFunc(startCtx, func() {
		if errors.Is(startCtx.Err(), context.DeadlineExceeded) {
			cancel()
		}
	})
	defer stopWatch()
	return chromedp.Do(ctx)
}

// Stop closes the browser gracefully for up to grace, then kills its whole
// process tree and removes its directory.
func (b *Browser) Stop(grace time.Duration) {
	if b.Ctx.Err() == nil {
		tctx, cancel := context.WithTimeout(b.Ctx, grace)
		chromedp.Cancel(tctx)
		cancel()
	}
	b.Cancel()
	b.allocCancel()
	KillTree(b.PID, b.Dir)
	os.RemoveAll(b.Dir)
}

// flags is Chromium's command line for c with user data directory dir.
func (c Config) flags(dir string) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(c.ExecPath),
		chromedp.UserDataDir(dir),
		chromedp.ModifyCmdFunc(SetProcAttr),
		chromedp.WindowSize(c.Width, c.Height),
		chromedp.DisableGPU,
		chromedp.Flag("no-sandbox", os.Geteuid() == 0), // Chromium refuses to run as root with its sandbox
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-features", "BackForwardCache,Translate,BlinkGenPropertyTrees,OptimizationHints,OptimizationHintsFetching,OptimizationGuideModelDownloading,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,PrivacySandboxSettings4,AccountConsistency,MirrorAccountConsistency,SafeBrowsingOnDemand,ComponentUpdater,ExtensionUpdater,GCMChannelStatus"),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("disable-crash-reporter", true),
		chromedp.Flag("no-default-browser-check", true),
		// No traffic of the browser's own: field trials, services
		// started at launch, variations.
		chromedp.Flag("disable-field-trial-config", true),
		chromedp.Flag("no-service-autorun", true),
		chromedp.Flag("disable-variations-seed-fetch", true),
		// A script's heap is bounded (half the memory bound): an
		// allocation loop kills its renderer, not the machine.
		chromedp.Flag("js-flags", fmt.Sprintf("--max-old-space-size=%d", c.MaxMemory>>21)),
		chromedp.Flag("disable-component-extensions-with-background-pages", true),
		chromedp.Flag("disable-search-engine-choice-screen", true),
		chromedp.Flag("disable-gaia-services", true),
		chromedp.Flag("disable-account-consistency", true),
	)
	if c.UserAgent != "" {
		opts = append(opts, chromedp.UserAgent(c.UserAgent))
	}
	if c.ProxyAddr != "" {
		opts = append(opts, proxyFlags(c.ProxyAddr)...)
	}
	if c.ProxySPKI != "" {
		// The recording proxy's certificates, accepted by their key.
		opts = append(opts, chromedp.Flag("ignore-certificate-errors-spki-list", c.ProxySPKI))
	}
	return append(opts, c.Extra...)
}

// proxyFlags send all of the browser's traffic through the proxy at addr:
// loopback is not bypassed (Chromium's "<-loopback>"), no DNS prefetching,
// and WebRTC may use no UDP that does not go through the proxy.
func proxyFlags(addr string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ProxyServer("http://" + addr),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("dns-prefetch-disable", true),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
	}
}
