package ecs_test

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

// Components of the concurrent-run tests.
type (
	crA struct{ N int }
	crB struct{ N int }
)

// meet makes a system of n parties wait for each other: each call counts
// itself in, then waits until n have come, so that n runs that get there
// have run it at the same time. It fails t after a while instead of
// hanging.
func meet(t *testing.T, n int32) func() {
	var arrived atomic.Int32
	return func() {
		arrived.Add(1)
		deadline := time.Now().Add(20 * time.Second)
		for arrived.Load() < n {
			if time.Now().After(deadline) {
				t.Error("the runs never overlapped")
				return
			}
			runtime.Gosched()
		}
	}
}

// Two runs that only read go on at the same time: two runs of one
// workload, and runs of two workloads that share a system.
func TestConcurrentRunsReadTogether(t *testing.T) {
	for _, tc := range []struct {
		name      string
		workloads []string // what each goroutine runs
	}{
		{"same workload", []string{"r", "r"}},
		{"two workloads sharing a system", []string{"r", "s"}},
		{"three runs", []string{"r", "r", "s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := ecs.NewWorld()
			_, err := ecs.AddEntity2(w, crA{1}, crB{2})
			noErr(t, err)
			wait := meet(t, int32(len(tc.workloads)))
			shared := ecs.System(func(a ecs.View[crA], b ecs.View[crB]) { wait() }).Named("shared")
			noErr(t, w.AddWorkload("r", shared))
			noErr(t, w.AddWorkload("s", shared, ecs.System(func(ecs.View[crB]) {}).Named("other")))
			errs := make([]error, len(tc.workloads))
			var wg sync.WaitGroup
			for i, name := range tc.workloads {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = w.RunWorkload(name)
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("run %d of %s: %v", i, tc.workloads[i], err)
				}
			}
		})
	}
}

// A run whose system needs a borrow that another run holds fails, naming
// its system and wrapping the BorrowError, which names the holder; the
// run holding it goes on, and nothing stays borrowed.
func TestConcurrentRunConflictNamesSystem(t *testing.T) {
	for _, tc := range []struct {
		name      string
		second    string // the workload the second goroutine runs
		system    string // the system that fails
		holderMsg string
	}{
		{"same workload", "hold", "hold", "already borrowed as ViewMut[ecs_test.crA] by hold"},
		{"a workload that reads", "read", "read", "already borrowed as ViewMut[ecs_test.crA] by hold"},
		{"a workload sharing the system", "both", "hold", "already borrowed as ViewMut[ecs_test.crA] by hold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := ecs.NewWorld()
			_, err := ecs.AddEntity1(w, crA{1})
			noErr(t, err)
			inside, leave := make(chan struct{}), make(chan struct{})
			// The first run of hold to get there closes inside and waits
			// for leave; the runs after it go through.
			hold := ecs.System(func(a ecs.ViewMut[crA]) {
				select {
				case <-inside:
				default:
					close(inside)
					<-leave
				}
			}).Named("hold")
			noErr(t, w.AddWorkload("hold", hold))
			noErr(t, w.AddWorkload("read", ecs.System(func(ecs.View[crA]) {}).Named("read")))
			noErr(t, w.AddWorkload("both", ecs.System(func(ecs.View[crB]) {}).Named("first"), hold))
			first := make(chan error)
			go func() { first <- w.RunWorkload("hold") }()
			<-inside
			err = w.RunWorkload(tc.second)
			var we *ecs.WorkloadError
			if !errors.As(err, &we) || we.System != tc.system || we.Workload != tc.second {
				t.Fatalf("second run: %v, want a WorkloadError naming %s/%s", err, tc.second, tc.system)
			}
			var be *ecs.BorrowError
			if !errors.As(err, &be) || !errors.Is(err, ecs.ErrBorrowConflict) || !strings.Contains(err.Error(), tc.holderMsg) {
				t.Fatalf("second run: %v, want a BorrowError saying %q", err, tc.holderMsg)
			}
			close(leave)
			noErr(t, <-first)
			for _, name := range []string{"hold", "read", "both"} {
				noErr(t, w.RunWorkload(name))
			}
			noErr(t, w.Run(func(ecs.AllStoragesViewMut) {}))
		})
	}
}

// A system that runs its own workload, borrowing nothing that stops the
// nested runs, ends at the bound on runs under way, with an error wrapping
// ErrWorkloadRunning that reaches the outermost caller; the workload runs
// (and can be removed) afterwards.
func TestNestedRunOfItselfEnds(t *testing.T) {
	w := ecs.NewWorld()
	var depth, most atomic.Int32
	self := func(ecs.View[crA]) error {
		d := depth.Add(1)
		defer depth.Add(-1)
		if d > most.Load() {
			most.Store(d)
		}
		return w.RunWorkload("self")
	}
	noErr(t, w.AddWorkload("self", ecs.System(self).Named("self")))
	done := make(chan error)
	go func() { done <- w.RunWorkload("self") }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("a workload running itself did not end")
	}
	if !errors.Is(err, ecs.ErrWorkloadRunning) {
		t.Fatalf("got %v, want ErrWorkloadRunning", err)
	}
	if most.Load() != 64 || depth.Load() != 0 {
		t.Fatalf("nested %d deep (%d left), want 64 (0)", most.Load(), depth.Load())
	}
	noErr(t, w.Run(func(ecs.ViewMut[crA]) {}))
	noErr(t, w.RemoveWorkload("self"))
}

// Many goroutines run workloads that share systems, beside writers that
// conflict with them and readers of the plans and statistics; -race
// checks the runs. Every run either succeeds or fails with a borrow
// conflict, and the statistics count every run of every system.
func TestConcurrentRunsStress(t *testing.T) {
	w := ecs.NewWorld()
	w.SetTracing(true)
	for i := range 50 {
		_, err := ecs.AddEntity2(w, crA{i}, crB{i})
		noErr(t, err)
	}
	noErr(t, ecs.TrackComponent[crA](w, ecs.TrackAll))
	var sum atomic.Int64
	readA := ecs.System(func(a ecs.View[crA]) {
		for c := range a.All() {
			sum.Add(int64(c.N))
		}
	}).Named("readA")
	changedA := ecs.System(func(a ecs.View[crA]) error {
		c, err := a.InsertedOrModified()
		for range c.All() {
		}
		return err
	}).Named("changedA")
	writeB := ecs.System(func(b ecs.ViewMut[crB]) {
		for c := range b.All() {
			c.N++
		}
	}).Named("writeB")
	noErr(t, w.AddWorkload("r", readA, changedA))
	noErr(t, w.AddWorkload("rw", readA, writeB))
	const goroutines, rounds = 4, 40
	var ok [2]atomic.Int32 // successful runs of r and rw
	var wg sync.WaitGroup
	fail := make(chan error, goroutines+2)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				k := (g + i) % 2
				err := w.RunWorkload([]string{"r", "rw"}[k])
				switch {
				case err == nil:
					ok[k].Add(1)
				case !errors.Is(err, ecs.ErrBorrowConflict):
					fail <- err
					return
				}
			}
		}()
	}
	stop := make(chan struct{})
	var bg sync.WaitGroup
	// background calls step until stop is closed or step fails.
	background := func(step func() error) {
		bg.Add(1)
		go func() {
			defer bg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := step(); err != nil {
					fail <- err
					return
				}
				runtime.Gosched()
			}
		}()
	}
	background(func() error { // a writer of A, conflicting with every run
		err := w.Run(func(a ecs.ViewMut[crA]) {
			for c := range a.All() {
				c.N = -c.N
			}
		})
		if errors.Is(err, ecs.ErrBorrowConflict) {
			return nil
		}
		return err
	})
	background(func() error { // readers of what the runs share
		_ = w.SystemStats()
		_, err := w.WorkloadPlan("r")
		return err
	})
	wg.Wait()
	close(stop)
	bg.Wait()
	close(fail)
	for err := range fail {
		t.Fatal(err)
	}
	runs := map[string]int{}
	for _, s := range w.SystemStats() {
		runs[s.Workload+"/"+s.System] = s.Runs
	}
	// A failed run may have run some of its systems before the one that
	// failed, so a count is at least the successful runs, at most all.
	for key, n := range map[string]int32{"r/readA": ok[0].Load(), "r/changedA": ok[0].Load(), "rw/readA": ok[1].Load(), "rw/writeB": ok[1].Load()} {
		if runs[key] < int(n) || runs[key] > goroutines*rounds {
			t.Errorf("%s ran %d times, want between %d and %d", key, runs[key], n, goroutines*rounds)
		}
	}
}
