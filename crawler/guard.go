package crawler

import "github.com/gleaner/gleaner/netguard"

// TargetGuard is the crawler's name of the guard against server-side
// request forgery (see netguard.Policy): a crawl's is Config.Guard.
type TargetGuard = netguard.Policy

// ErrForbiddenTarget is wrapped by the errors of TargetGuard.
var ErrForbiddenTarget = netguard.ErrForbidden
