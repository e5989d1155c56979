package ecs

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestParallelForRunsChunksAtOnce: parallelFor, on the process-wide pool
// the bulk calls' parallel paths use (inParallel for the storages of
// BulkAddEntity and DeleteEntities, parallelFor itself for the checks and
// the slots of the entities), runs two chunks at once: each waits for
// the other (10 s at most, for failure only), so running them one after
// the other on the caller fails. The bulk calls themselves run no code of
// the caller's per chunk, so they cannot be stopped mid-chunk to be
// observed: this test covers what they call.
func TestParallelForRunsChunksAtOnce(t *testing.T) {
	setProcs(t, 2) // the shared pool has GOMAXPROCS-1 workers
	grain := bulkParallelMin / 2
	cases := []struct {
		name string
		run  func(meet func())
	}{
		{"parallelFor", func(meet func()) {
			parallelFor(2*grain, grain, func(int, int) { meet() })
		}},
		{"inParallel", func(meet func()) {
			inParallel(2, func(int) { meet() })
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var arrived atomic.Int32
			var missed atomic.Bool
			met := make(chan struct{})
			c.run(func() {
				if arrived.Add(1) == 2 {
					close(met)
				}
				select {
				case <-met:
				case <-time.After(10 * time.Second):
					missed.Store(true)
				}
			})
			if missed.Load() || arrived.Load() != 2 {
				t.Errorf("%s: its chunks did not run at once (the first waited 10 s for the other; %d arrived)", c.name, arrived.Load())
			}
		})
	}
}
