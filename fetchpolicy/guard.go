package fetchpolicy

import "github.com/gleaner/gleaner/netguard"

// TargetGuard is the fetch policy's name of the guard against server-side
// request forgery (see netguard.Policy): a crawl's is crawler.Config.Guard.
type TargetGuard = netguard.Policy

// ErrForbiddenTarget is wrapped by the errors of TargetGuard.
var ErrForbiddenTarget = netguard.ErrForbidden
