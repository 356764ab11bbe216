package fetchpolicy

import (
	"errors"

	"github.com/gleaner/gleaner/browser"
)

// FailureOf is the kind of a fetch error under a fetch policy: a refusal
// of its own guard (at dial time) is a refusal, not a network failure.
func FailureOf(err error) browser.Failure {
	if errors.Is(err, ErrForbiddenTarget) {
		return browser.FailureRefused
	}
	return browser.Classify(err)
}
