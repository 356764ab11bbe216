// Package shareddata locates the project's shared data folder (big9-dev,
// ted-bench, ...) that lies beside the repository, for tests and benchmarks
// that measure against it.
package shareddata
