package crawler

import (
	"errors"
	"testing"
)

// TestSummaryErr: the run's own error wins, then an interruption,
// then a crawl whose every URL the guard refused; else nil.
func TestSummaryErr(t *testing.T) {
	own := errors.New("store gone")
	refused := Counters{Outcomes: map[Outcome]int{OutcomeForbidden: 3}}
	for _, tc := range []struct {
		name   string
		sum    Summary
		runErr error
		want   error
	}{
		{"own error", Summary{Stop: StopCancelled, Counters: refused}, own, own},
		{"interrupted", Summary{Stop: StopCancelled}, nil, ErrInterrupted},
		{"all refused", Summary{Stop: StopExhausted, Counters: refused}, nil, ErrNothingFetched},
		{"some fetched", Summary{Stop: StopExhausted, Counters: Counters{Tried: 1, Outcomes: map[Outcome]int{OutcomeForbidden: 3}}}, nil, nil},
		{"done", Summary{Stop: StopMaxPages}, nil, nil},
	} {
		err := tc.sum.Err("c", tc.runErr)
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}
