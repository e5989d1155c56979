//go:build race

package ecs_test

// raceEnabled tells tests that count allocations that the race detector is
// on: it makes sync.Pool drop items on purpose, so pooled frames allocate.
const raceEnabled = true
