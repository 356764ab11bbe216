package browser

import "github.com/gleaner/gleaner/netguard"

// ClosingFetcher is a fetcher to close when done with it: a [Renderer] or
// an [HTTPFetcher].
type ClosingFetcher interface {
	PageFetcher
	Close() error
}

// NewFetcher returns the fetcher that crawls, workers, monitors, the
// dashboard and the commands fetch with, guarded by policy: Chromium with
// o when render, else plain HTTP GETs bounded by o's PageTimeout,
// MaxHTMLBytes, UserAgent and Record. Every request and connection of either
// passes policy, whatever o says of Guard, Unguarded, AllowRequest and
// Dial: this is the one way to a fetcher of pages of the web.
func NewFetcher(policy netguard.Policy, render bool, o Options) (ClosingFetcher, error) {
	o.Guard, o.Unguarded, o.AllowRequest, o.Dial = policy, false, nil, nil
	if render {
		return New(o)
	}
	return &HTTPFetcher{Guard: policy, Timeout: o.PageTimeout, MaxBytes: int64(o.MaxHTMLBytes), UserAgent: o.UserAgent, Record: o.Record}, nil
}
