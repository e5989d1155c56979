package ecs

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// poolState is what a pool's workers are doing: how many there are, how
// many are blocked waiting for a job, how many poll for one, and how many
// job shares are queued.
type poolState struct{ live, parked, spinning, queued int }

func (p *Pool) state() poolState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return poolState{p.live, len(p.parked), int(p.spinning.Load()), int(p.queued.Load())}
}

// awaitState waits until the pool's state satisfies ok, and fails the test
// if it does not within a generous deadline: workers finishing their
// last share of a job get there in far less time.
func awaitState(t *testing.T, p *Pool, what string, ok func(poolState) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := p.state()
		if ok(s) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: pool state %+v", what, s)
		}
		time.Sleep(time.Millisecond)
	}
}

// allBlocked reports whether every worker of the pool is blocked, none
// polls and no share waits in the queue.
func allBlocked(s poolState) bool { return s.parked == s.live && s.spinning == 0 && s.queued == 0 }

type poolA struct{ X float64 }
type poolB struct{ X float64 }

// busyWorld returns a world running on p, with a workload "w" of systems
// that run side by side and a parallel iteration.
func busyWorld(t *testing.T, p *Pool) *World {
	t.Helper()
	w := NewWorld()
	w.SetPool(p)
	if _, err := BulkAddEntity2(w, make([]poolA, 4*ParallelMin), make([]poolB, 4*ParallelMin)); err != nil {
		t.Fatal(err)
	}
	var sink atomic.Int64
	sys := func(v ViewMut[poolA]) {
		p.parallelFor(v.Len(), 64, func(start, end int) { sink.Add(int64(end - start)) })
	}
	if err := w.AddWorkload("w",
		System(sys).Named("iterates"),
		System(func(v View[poolB]) { sink.Add(int64(v.Len())) }).Named("reads"),
		System(func(v View[poolB]) { sink.Add(int64(v.Len())) }).Named("reads too"),
	); err != nil {
		t.Fatal(err)
	}
	return w
}

func setProcs(t *testing.T, n int) {
	if runtime.GOARCH == "wasm" {
		// One thread: the workers' idle timers and parked goroutines
		// are not the state these tests wait for there.
		t.Skip("the pool's worker states need threads; js/wasm has one")
	}
	procs := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) })
}

// TestIdleWorkersBlock: after a run, every worker of the pool is blocked,
// with spinning off (the default) and, once the spin time has passed,
// with it on.
func TestIdleWorkersBlock(t *testing.T) {
	setProcs(t, 4)
	p := NewPool(3)
	p.SetIdleTimeout(0) // keep them, to see them blocked
	defer p.Close()
	w := busyWorld(t, p)
	for range 50 {
		if err := w.RunWorkload("w"); err != nil {
			t.Fatal(err)
		}
	}
	if s := p.state(); s.live == 0 || s.live > 3 {
		t.Fatalf("%d workers after the runs, want 1 to 3", s.live)
	}
	awaitState(t, p, "spinning off", allBlocked)

	p.SetSpin(time.Millisecond)
	for range 50 {
		if err := w.RunWorkload("w"); err != nil {
			t.Fatal(err)
		}
	}
	awaitState(t, p, "spinning on", allBlocked)
}

// TestIdleWorkersExit: workers exit after the idle timeout, a world's own
// pool's as others', and are started again by the next job.
func TestIdleWorkersExit(t *testing.T) {
	setProcs(t, 4)
	p := NewPool(2)
	p.SetIdleTimeout(time.Millisecond)
	w := busyWorld(t, p)
	for range 3 {
		for range 20 {
			if err := w.RunWorkload("w"); err != nil {
				t.Fatal(err)
			}
		}
		awaitState(t, p, "after the idle timeout", func(s poolState) bool { return s.live == 0 })
	}

	own := NewWorld()
	own.Pool().SetIdleTimeout(time.Millisecond)
	met := make(chan struct{})
	if err := own.AddWorkload("w",
		System(func(ViewMut[poolA]) { <-met }).Named("waits"),
		System(func(ViewMut[poolB]) { close(met) }).Named("releases"),
	); err != nil {
		t.Fatal(err)
	}
	if err := own.RunWorkload("w"); err != nil {
		t.Fatal(err)
	}
	awaitState(t, own.Pool(), "a world's own pool", func(s poolState) bool { return s.live == 0 })
}

// TestCloseStopsWorkers: Close stops blocked workers at once, and busy
// ones when they have finished their share; a closed pool runs jobs on
// their callers.
func TestCloseStopsWorkers(t *testing.T) {
	setProcs(t, 4)
	p := NewPool(3)
	p.SetIdleTimeout(0)
	w := busyWorld(t, p)
	for range 20 {
		if err := w.RunWorkload("w"); err != nil {
			t.Fatal(err)
		}
	}
	awaitState(t, p, "before Close", allBlocked)
	p.Close()
	awaitState(t, p, "after Close", func(s poolState) bool { return s.live == 0 && s.parked == 0 })

	// A job in progress when the pool closes: its helper finishes its
	// share, the caller the rest.
	q := NewPool(1)
	q.SetIdleTimeout(0)
	started, release := make(chan struct{}), make(chan struct{})
	var once atomic.Bool
	var sum atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.parallelFor(1000, 1, func(start, end int) {
			if once.CompareAndSwap(false, true) {
				close(started)
				<-release
			}
			sum.Add(int64(end - start))
		})
	}()
	<-started
	q.Close()
	close(release)
	<-done
	if sum.Load() != 1000 {
		t.Fatalf("covered %d of 1000", sum.Load())
	}
	awaitState(t, q, "after Close during a job", func(s poolState) bool { return s.live == 0 && s.queued == 0 })
	if err := busyWorld(t, q).RunWorkload("w"); err != nil {
		t.Fatal(err)
	}
	if s := q.state(); s.live != 0 {
		t.Fatalf("a closed pool started %d workers", s.live)
	}
}

// TestNestedJobsOnOnePool: systems running on the pool's only worker run
// parallel iterations and other worlds' workloads on the same pool; the
// inner callers never wait for the busy worker.
func TestNestedJobsOnOnePool(t *testing.T) {
	setProcs(t, 2)
	p := NewPool(1)
	defer p.Close()
	inner := []*World{busyWorld(t, p), busyWorld(t, p)}
	outer := NewWorld()
	outer.SetPool(p)
	var sum atomic.Int64
	if err := outer.AddWorkload("outer",
		System(func(ViewMut[poolA]) error {
			p.parallelFor(10_000, 16, func(start, end int) { sum.Add(int64(end - start)) })
			return inner[0].RunWorkload("w")
		}).Named("o1"),
		System(func(ViewMut[poolB]) error {
			p.parallelFor(10_000, 16, func(start, end int) { sum.Add(int64(end - start)) })
			return inner[1].RunWorkload("w")
		}).Named("o2"),
	); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if err := outer.RunWorkload("outer"); err != nil {
			t.Fatal(err)
		}
	}
	if sum.Load() != 100*2*10_000 {
		t.Fatalf("sum %d", sum.Load())
	}
}
