package monitoring

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// LastRound returns the monitor's latest round and whether it finished;
// 0 when it ran none.
func (r *Repo) LastRound(ctx context.Context) (round int, finished bool, err error) {
	var n, at sql.NullInt64
	err = r.queryRow(ctx, `SELECT round, finished_at FROM monitor_rounds WHERE monitor = ? ORDER BY round DESC LIMIT 1`, r.name).Scan(&n, &at)
	if found, err := noRow(err); !found {
		if err != nil {
			return 0, false, fmt.Errorf("monitor %s: last round: %w", r.name, err)
		}
		return 0, false, nil
	}
	return int(n.Int64), at.Int64 != 0, nil
}

// StartRound records round n as started at t unless it already was; it
// reports whether it was (a round interrupted and now redone).
func (r *Repo) StartRound(ctx context.Context, n int, t time.Time) (resumed bool, err error) {
	c, err := r.count(ctx, `SELECT COUNT(*) FROM monitor_rounds WHERE monitor = ? AND round = ?`, r.name, n)
	if err != nil {
		return false, fmt.Errorf("monitor %s: round %d: %w", r.name, n, err)
	}
	if c > 0 {
		return true, nil
	}
	if _, err := r.exec(ctx, `INSERT INTO monitor_rounds (monitor, round, started_at) VALUES (?, ?, ?)`, r.name, n, t.UnixMilli()); err != nil {
		return false, fmt.Errorf("monitor %s: start round %d: %w", r.name, n, err)
	}
	return false, nil
}

// RoundWork is what a run of a round did that the store cannot count:
// added to the round's totals when it finishes.
type RoundWork struct {
	Requests, Errors, Sources int
}

// FinishRound closes round n at t, adding w to its totals (a resumed
// round adds what its second run did).
func (r *Repo) FinishRound(ctx context.Context, n int, t time.Time, w RoundWork) error {
	_, err := r.exec(ctx, `UPDATE monitor_rounds SET finished_at = ?, requests = requests + ?, errors = errors + ?, sources = sources + ?
		WHERE monitor = ? AND round = ?`, t.UnixMilli(), w.Requests, w.Errors, w.Sources, r.name, n)
	if err != nil {
		return fmt.Errorf("monitor %s: finish round %d: %w", r.name, n, err)
	}
	return nil
}

// RoundCounts are a round's outcomes as stored, whichever run of the
// round stored them.
type RoundCounts struct {
	New         int // articles first stored in the round
	Templated   int // of which extracted against a learned template
	HubTemplate int // documents of the round found on a template of hubs
	Updated     int // documents updated in the round
	Duplicates  int // URLs linked to a stored document in the round
	Hubs        int // URLs first listed in the round that were hubs
	OffFocus    int // and articles under the focus threshold
}

// Counts reads round n's outcomes.
func (r *Repo) Counts(ctx context.Context, n int) (RoundCounts, error) {
	var c RoundCounts
	counts := []struct {
		q    string
		args []any
		dst  *int
	}{
		{`SELECT COUNT(*) FROM monitor_docs WHERE monitor = ? AND round = ? AND kind = ?`, []any{KindArticle.String()}, &c.New},
		{`SELECT COUNT(*) FROM monitor_docs WHERE monitor = ? AND round = ? AND kind = ? AND run_id > 0`, []any{KindArticle.String()}, &c.Templated},
		{`SELECT COUNT(*) FROM monitor_docs WHERE monitor = ? AND round = ? AND kind = ?`, []any{KindHub.String()}, &c.HubTemplate},
		{`SELECT COUNT(*) FROM monitor_docs WHERE monitor = ? AND updated_round = ?`, nil, &c.Updated},
		{`SELECT COUNT(*) FROM monitor_links WHERE monitor = ? AND round = ?`, nil, &c.Duplicates},
		{`SELECT COUNT(*) FROM monitor_urls WHERE monitor = ? AND round = ? AND state = ?`, []any{URLHub.String()}, &c.Hubs},
		{`SELECT COUNT(*) FROM monitor_urls WHERE monitor = ? AND round = ? AND state = ?`, []any{URLOffFocus.String()}, &c.OffFocus},
	}
	for _, q := range counts {
		v, err := r.count(ctx, q.q, append([]any{r.name, n}, q.args...)...)
		if err != nil {
			return c, fmt.Errorf("monitor %s: round %d counts: %w", r.name, n, err)
		}
		*q.dst = v
	}
	return c, nil
}
