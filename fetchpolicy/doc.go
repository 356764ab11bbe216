// Package fetchpolicy is what a fetch of someone else's site must obey,
// whoever fetches (the crawler, the monitor, the command line): the guard
// against forbidden targets (TargetGuard, over netguard), robots.txt
// (Robots), one fetch per host at a time with a delay between fetches
// (Politeness, Admit, PoliteTransport for redirects to another host), the
// canonical form of a URL (Canonicalize) and the checks against spider
// traps (TrapGuard).
package fetchpolicy
