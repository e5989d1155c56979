package ecs

import (
	"testing"
	"time"
)

// SystemStats, read while workloads run, never makes a run fail.
func TestSystemStatsDoesNotBlockRuns(t *testing.T) {
	w := NewWorld()
	check(t, w.AddWorkload("w", func(View[gA]) {}))
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			default:
				_ = w.SystemStats()
			}
		}
	}()
	defer close(done)
	for range 2000 {
		if err := w.RunWorkload("w"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSystemStatsMean: the mean of the runs counted, 0 for a system that
// never ran.
func TestSystemStatsMean(t *testing.T) {
	for _, c := range []struct {
		s    SystemStats
		want time.Duration
	}{
		{SystemStats{}, 0},
		{SystemStats{Runs: 0, Total: time.Second}, 0},
		{SystemStats{Runs: 1, Total: 3 * time.Millisecond}, 3 * time.Millisecond},
		{SystemStats{Runs: 4, Total: 10 * time.Millisecond}, 2500 * time.Microsecond},
	} {
		if got := c.s.Mean(); got != c.want {
			t.Errorf("%+v.Mean() = %v, want %v", c.s, got, c.want)
		}
	}
}
