package ecs_test

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

// atLeastTwoProcs sets GOMAXPROCS to 2 or more for the test, so that a
// world's own pool has a worker.
func atLeastTwoProcs(t *testing.T) {
	if procs := runtime.GOMAXPROCS(0); procs < 2 {
		runtime.GOMAXPROCS(2)
		t.Cleanup(func() { runtime.GOMAXPROCS(procs) })
	}
	if runtime.GOMAXPROCS(0) < 2 || runtime.GOARCH == "wasm" {
		t.Skip("needs systems running at once on two threads; this platform has one")
	}
}

// runConcurrently runs each world's workload "w" runs times, the worlds at
// the same time, and fails on the first error.
func runConcurrently(t *testing.T, runs int, worlds ...*ecs.World) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(worlds))
	for i, w := range worlds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range runs {
				if err := w.RunWorkload("w"); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	noErr(t, errors.Join(errs...))
}

// TestWorldsRunOnTheirOwnPools runs two worlds' workloads at the same time,
// each needing two systems at once (they meet): each world has a pool of
// its own, made on its first run.
func TestWorldsRunOnTheirOwnPools(t *testing.T) {
	atLeastTwoProcs(t)
	a, b := ecs.NewWorld(), ecs.NewWorld()
	metA, metB := addMeeting(t, a, "w"), addMeeting(t, b, "w")
	const runs = 100
	runConcurrently(t, runs, a, b)
	if metA.Load() != 2*runs || metB.Load() != 2*runs {
		t.Fatalf("met %d and %d times in %d runs", metA.Load(), metB.Load(), runs)
	}
	if a.Pool() == b.Pool() {
		t.Fatal("two worlds share a pool they were not given")
	}
	if first, again := a.Pool(), a.Pool(); first != again {
		t.Fatal("a world's own pool changed between calls")
	}
	if got, want := a.Pool().Workers(), runtime.GOMAXPROCS(0)-1; got != want {
		t.Fatalf("a world's own pool has %d workers, want GOMAXPROCS-1 = %d", got, want)
	}
}

// TestWorldsShareAPool gives two worlds one pool of a single worker and
// runs their workloads at the same time: each run needs the worker while
// its caller runs the other system, so the runs take turns with it.
// Inner parallelism, errors and panics work as on a world's own pool.
func TestWorldsShareAPool(t *testing.T) {
	p := ecs.NewPool(1)
	defer p.Close()
	a, b := ecs.NewWorld(), ecs.NewWorld()
	a.SetPool(p)
	b.SetPool(p)
	if a.Pool() != p || b.Pool() != p {
		t.Fatal("World.Pool is not the pool given to SetPool")
	}
	metA, metB := addMeeting(t, a, "w"), addMeeting(t, b, "w")
	const runs = 100
	runConcurrently(t, runs, a, b)
	if metA.Load() != 2*runs || metB.Load() != 2*runs {
		t.Fatalf("met %d and %d times in %d runs", metA.Load(), metB.Load(), runs)
	}

	// A parallel iteration inside a system of a shared pool's workload.
	_, err := ecs.BulkAddEntity1(a, make([]wPos, 3*ecs.ParallelMin))
	noErr(t, err)
	var visits atomic.Int64
	noErr(t, a.AddWorkload("par",
		ecs.System(func(v ecs.ViewMut[wPos]) { v.ParEach(func(*wPos) { visits.Add(1) }) }).Named("par"),
		ecs.System(func(ecs.ViewMut[wVel]) {}).Named("beside"),
	))
	noErr(t, a.RunWorkload("par"))
	if visits.Load() != 3*ecs.ParallelMin {
		t.Fatalf("ParEach visited %d", visits.Load())
	}

	// An error, then a panic, come back to the caller; the pool stays
	// usable.
	boom := errors.New("boom")
	noErr(t, b.AddWorkload("fail",
		ecs.System(func(ecs.ViewMut[wPos]) error { return boom }).Named("fails"),
		ecs.System(func(ecs.ViewMut[wVel]) {}).Named("beside"),
	))
	var we *ecs.WorkloadError
	if err := b.RunWorkload("fail"); !errors.Is(err, boom) || !errors.As(err, &we) || we.System != "fails" {
		t.Fatalf("err = %v", err)
	}
	noErr(t, b.AddWorkload("panic",
		ecs.System(func(ecs.ViewMut[wPos]) { panic("oops") }).Named("panics"),
		ecs.System(func(ecs.ViewMut[wVel]) {}).Named("beside"),
	))
	func() {
		defer func() {
			sp, ok := recover().(*ecs.SystemPanic)
			if !ok || sp.System != "panics" || sp.Value != "oops" {
				t.Fatalf("recovered %v", sp)
			}
		}()
		_ = b.RunWorkload("panic")
		t.Fatal("no panic")
	}()
	runConcurrently(t, 10, a, b)
}

// TestPoolWithoutWorkers: a pool of no workers runs a workload's systems
// in declared order on the caller.
func TestPoolWithoutWorkers(t *testing.T) {
	atLeastTwoProcs(t)
	w := ecs.NewWorld()
	w.SetPool(ecs.NewPool(0))
	order := addOrderWorkload(t, w)
	for range 20 {
		*order = (*order)[:0]
		noErr(t, w.RunWorkload("w"))
		if want := []string{"a", "b", "c", "d"}; !slices.Equal(*order, want) {
			t.Fatalf("ran %v, want %v", *order, want)
		}
	}
}

// TestPoolClose: a closed pool has no workers, its worlds run their
// workloads on the caller in declared order, Close may be called again,
// and SetPool(nil) gives a world a pool of its own again.
func TestPoolClose(t *testing.T) {
	atLeastTwoProcs(t)
	p := ecs.NewPool(2)
	w := ecs.NewWorld()
	w.SetPool(p)
	met := addMeeting(t, w, "meet")
	noErr(t, w.RunWorkload("meet"))
	if met.Load() != 2 {
		t.Fatalf("met %d", met.Load())
	}
	p.Close()
	p.Close()
	if p.Workers() != 0 {
		t.Fatalf("a closed pool has %d workers", p.Workers())
	}
	order := addOrderWorkload(t, w)
	noErr(t, w.RunWorkload("w"))
	if want := []string{"a", "b", "c", "d"}; !slices.Equal(*order, want) {
		t.Fatalf("ran %v on a closed pool, want %v", *order, want)
	}
	w.SetPool(nil)
	if w.Pool() == p || w.Pool().Workers() == 0 {
		t.Fatal("SetPool(nil) did not give the world a new pool")
	}
	noErr(t, w.RunWorkload("meet"))
	if met.Load() != 4 {
		t.Fatalf("met %d", met.Load())
	}
}

// addOrderWorkload adds workload "w" of four systems that no order
// separates, and returns the list they append their names to.
func addOrderWorkload(t *testing.T, w *ecs.World) *[]string {
	t.Helper()
	var mu sync.Mutex
	order := new([]string)
	rec := func(s string) { mu.Lock(); *order = append(*order, s); mu.Unlock() }
	noErr(t, w.AddWorkload("w",
		ecs.System(func(ecs.View[wPos]) { rec("a") }).Named("a"),
		ecs.System(func(ecs.View[wPos]) { rec("b") }).Named("b"),
		ecs.System(func(ecs.View[wVel]) { rec("c") }).Named("c"),
		ecs.System(func(ecs.View[wVel]) { rec("d") }).Named("d"),
	))
	return order
}

// rendezvous returns two functions for two systems that must run at the
// same time: each says it has started and waits (up to a few seconds) for
// the other to have started too. If the systems run one after the other,
// the first one's wait times out.
func rendezvous(t *testing.T) (a, b func()) {
	startA, startB := make(chan struct{}), make(chan struct{})
	meet := func(mine, theirs chan struct{}, who string) func() {
		return func() {
			close(mine)
			select {
			case <-theirs:
			case <-time.After(5 * time.Second):
				t.Errorf("system %s waited 5 s for the other: they did not run side by side", who)
			}
		}
	}
	return meet(startA, startB, "A"), meet(startB, startA, "B")
}
