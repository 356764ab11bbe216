package browser

import (
	"context"
	"fmt"
	"net/http"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"strings"

	"github.com/gleaner/gleaner/browser/wire"
)

// RecordOptions ask for the HTTP exchanges of a page to be kept as they
// went over the wire (Page.Exchanges); see wire.RecordOptions.
type RecordOptions = wire.RecordOptions

// Exchange is one HTTP request and its response, as exchanged on the wire
// (wire.Exchange).
type Exchange = wire.Exchange

// maxTabURLs bounds the request URLs a tab remembers for its page.
const maxTabURLs = 4096

// noteURL remembers a URL the tab's page requested (caller holds s.mu).
func (s *tabState) noteURL(u string) {
	if s.urls == nil {
		s.urls = map[string]bool{}
	}
	if len(s.urls) < maxTabURLs {
		s.urls[u] = true
	}
}

// noteTag remembers the exchange tag of a response the tab's page
// received (wire.TagHeader), its name in the proxy's record (caller
// holds s.mu).
func (s *tabState) noteTag(h network.Headers) {
	for k, v := range h {
		if !strings.EqualFold(k, wire.TagHeader) {
			continue
		}
		if s.tags == nil {
			s.tags = map[string]bool{}
		}
		if tag, ok := v.(string); ok && len(s.tags) < maxTabURLs {
			s.tags[tag] = true
		}
	}
}

// recordUncached turns the tab's HTTP cache off when recording: a page's
// capture then holds every response it was built from, and a page
// fetched again (a monitor's recheck of a changed page) comes from the
// server, not from what the browser kept of the earlier fetch.
func (r *Renderer) recordUncached(ctx context.Context) error {
	if r.proxy == nil || !r.proxy.Recording() {
		return nil
	}
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		return fmt.Errorf("record: turn the cache off: %w", err)
	}
	return nil
}

// claimExchanges gives p the exchanges its tab's requests made through the
// proxy, when recording.
func (r *Renderer) claimExchanges(st *tabState, p *Page) {
	if r.proxy == nil || !r.proxy.Recording() || p == nil {
		return
	}
	st.mu.Lock()
	urls, tags := st.urls, st.tags
	st.mu.Unlock()
	ex, note := r.proxy.Claim(urls, tags, p.FetchedAt)
	p.Exchanges = ex
	if note != "" {
		p.Notes = append(p.Notes, note)
	}
	if !r.proxy.RecordsTLS() && (strings.HasPrefix(p.URL, "https:") || strings.HasPrefix(p.FinalURL, "https:")) {
		p.Notes = append(p.Notes, "record: HTTPS exchanges are not recorded by the renderer (TLS tunnel)")
	}
}

// recordingClient sets client's transport to one recording every round
// trip, and returns it (nil when f does not record).
func (f *HTTPFetcher) recordingClient(client *http.Client) *wire.Transport {
	if !f.Record.On {
		return nil
	}
	f.recOnce.Do(func() { f.rec = wire.NewRecorder(f.Record) })
	t := f.rec.Transport(client.Transport)
	client.Transport = t
	return t
}
