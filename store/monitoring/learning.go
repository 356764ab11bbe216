package monitoring

import (
	"context"
	"fmt"
	"time"
)

// LearningBackoff returns the page count of a store site when its
// template learning last failed, 0 when it has not (or succeeded since).
func (r *Repo) LearningBackoff(ctx context.Context, site string) (int, error) {
	var n int
	err := r.queryRow(ctx, `SELECT failed_pages FROM monitor_learning WHERE site = ?`, site).Scan(&n)
	if _, err := noRow(err); err != nil {
		return 0, fmt.Errorf("monitor: learning of %s: %w", site, err)
	}
	return n, nil
}

// LearningFailed records that a store site's learning failed at t, with
// pages pages, for cause.
func (r *Repo) LearningFailed(ctx context.Context, site string, pages int, t time.Time, cause error) error {
	_, err := r.exec(ctx, `INSERT INTO monitor_learning (site, failed_pages, failures, failed_at, error) VALUES (?, ?, 1, ?, ?)
		ON CONFLICT (site) DO UPDATE SET failed_pages = excluded.failed_pages, failures = monitor_learning.failures + 1,
		failed_at = excluded.failed_at, error = excluded.error`, site, pages, t.UnixMilli(), truncate(cause.Error(), 500))
	if err != nil {
		return fmt.Errorf("monitor: learning of %s: %w", site, err)
	}
	return nil
}

// LearningDone clears a store site's back-off once its learning
// succeeded.
func (r *Repo) LearningDone(ctx context.Context, site string) error {
	if _, err := r.exec(ctx, `DELETE FROM monitor_learning WHERE site = ?`, site); err != nil {
		return fmt.Errorf("monitor: learning of %s: %w", site, err)
	}
	return nil
}
