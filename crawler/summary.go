package crawler

import (
	"errors"
	"fmt"
)

// ErrInterrupted is wrapped by the error of a run stopped by the end of
// its context (a signal): the crawl continues where it stopped when run
// again.
var ErrInterrupted = errors.New("interrupted: run the same command again to continue it")

// ErrNothingFetched is wrapped by the error of a run whose every URL was
// refused by the target guard.
var ErrNothingFetched = errors.New("nothing fetched")

// Err is the error a finished run of crawl name exits with: its own
// (runErr), an interruption, or a crawl whose every URL was refused by the
// guard; nil otherwise.
func (s Summary) Err(name string, runErr error) error {
	refused := s.Counters.Outcomes[OutcomeForbidden]
	switch {
	case runErr != nil:
		return runErr
	case s.Stop == StopCancelled:
		return fmt.Errorf("crawl %s: %w", name, ErrInterrupted)
	case s.Counters.Tried == 0 && refused > 0:
		return fmt.Errorf("crawl %s: %w: %d URLs refused by the guard (a private, loopback or link-local target needs --allow-host)", name, ErrNothingFetched, refused)
	}
	return nil
}
