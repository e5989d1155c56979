package ecs_test

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

// Regression tests for borrows left held by panics in hooks, and for runs
// that never finish after runtime.Goexit (issue: borrows never leak and
// every run finishes).

type leakQ struct{ V int }
type leakR struct{ V int }
type leakTick struct{ N int }

// nothingHeld reports whether every storage, unique and the entities
// storage of w can be borrowed exclusively at once (an AllStoragesViewMut
// conflicts with every other borrow), failing the test if not.
func nothingHeld(t *testing.T, w *ecs.World) bool {
	t.Helper()
	var all ecs.AllStoragesViewMut
	release, err := w.Borrow(&all)
	if err != nil {
		t.Errorf("something is still borrowed: %v", err)
		return false
	}
	release()
	return true
}

// mustPanic runs fn and returns the value it panicked with, failing the
// test if it did not panic.
func mustPanic(t *testing.T, fn func()) (r any) {
	t.Helper()
	defer func() { r = recover() }()
	fn()
	t.Fatal("no panic")
	return nil
}

// panicOnBorrow is a custom view whose OnBorrow panics.
type panicOnBorrow struct {
	Q ecs.ViewMut[leakQ]
}

func (*panicOnBorrow) OnBorrow() error { panic("OnBorrow failed") }

// panicOnRelease is a custom view whose OnRelease panics; released counts
// the calls.
type panicOnRelease struct {
	R ecs.View[leakR]
}

var onReleaseCalls int

func (*panicOnRelease) OnRelease() { onReleaseCalls++; panic("OnRelease failed") }

func leakWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	if _, err := ecs.AddEntity2(w, leakQ{1}, leakR{2}); err != nil {
		t.Fatal(err)
	}
	if err := ecs.AddUnique(w, leakTick{}); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestHookPanicsReleaseEveryBorrow(t *testing.T) {
	borrowSys := func(u ecs.UniqueViewMut[leakTick], e ecs.EntitiesViewMut, h panicOnBorrow) {
		t.Error("the system ran although OnBorrow panicked")
	}
	releaseSys := func(u ecs.UniqueViewMut[leakTick], q ecs.ViewMut[leakQ], h panicOnRelease, e ecs.EntitiesView) {}
	for _, tc := range []struct {
		name string
		run  func(w *ecs.World)
		want string
	}{
		{"Run, OnBorrow", func(w *ecs.World) { _ = w.Run(borrowSys) }, "OnBorrow failed"},
		{"Run, OnRelease", func(w *ecs.World) { _ = w.Run(releaseSys) }, "OnRelease failed"},
		{"Borrow, OnBorrow", func(w *ecs.World) {
			var u ecs.UniqueViewMut[leakTick]
			var h panicOnBorrow
			_, _ = w.Borrow(&u, &h)
		}, "OnBorrow failed"},
		{"Borrow, OnRelease", func(w *ecs.World) {
			var q ecs.ViewMut[leakQ]
			var h panicOnRelease
			release, err := w.Borrow(&q, &h)
			if err != nil {
				t.Fatal(err)
			}
			release()
		}, "OnRelease failed"},
		{"RunWorkload, OnBorrow", func(w *ecs.World) {
			if err := w.AddWorkload("w", borrowSys); err != nil {
				t.Fatal(err)
			}
			_ = w.RunWorkload("w")
		}, "OnBorrow failed"},
		{"RunWorkload, OnRelease", func(w *ecs.World) {
			if err := w.AddWorkload("w", releaseSys); err != nil {
				t.Fatal(err)
			}
			_ = w.RunWorkload("w")
		}, "OnRelease failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := leakWorld(t)
			r := mustPanic(t, func() { tc.run(w) })
			if !strings.Contains(panicText(r), tc.want) {
				t.Errorf("panic %v, want one mentioning %q", r, tc.want)
			}
			nothingHeld(t, w)
			if _, err := ecs.AddEntity1(w, leakQ{3}); err != nil {
				t.Errorf("AddEntity after the panic: %v", err)
			}
		})
	}
}

// panicText is the text of a recovered panic value.
func panicText(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return ""
}

// TestOnReleasePanicReleasesTheRestFirst checks that a panicking OnRelease
// still lets the hooks of the other custom views run and every view go.
func TestOnReleasePanicReleasesTheRestFirst(t *testing.T) {
	w := leakWorld(t)
	onReleaseCalls = 0
	sys := func(a panicOnRelease, q ecs.ViewMut[leakQ], b panicOnRelease) {}
	mustPanic(t, func() { _ = w.Run(sys) })
	if onReleaseCalls != 2 {
		t.Errorf("%d OnRelease calls, want 2: a panicking hook must not skip the others", onReleaseCalls)
	}
	nothingHeld(t, w)
}

// newTestPool gives w a pool of two workers for the test's length, so
// that systems can run side by side however many cores the machine has.
func newTestPool(t *testing.T, w *ecs.World) {
	t.Helper()
	p := ecs.NewPool(2)
	w.SetPool(p)
	t.Cleanup(p.Close)
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

func TestGatedSystemsRunBesideOthers(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm runs one goroutine at a time")
	}
	for _, tc := range []struct {
		name string
		gate func(s *ecs.SystemSpec) *ecs.SystemSpec
	}{
		{"OnCaller", (*ecs.SystemSpec).OnCaller},
		{"RunIf", func(s *ecs.SystemSpec) *ecs.SystemSpec { return s.RunIf(func() bool { return true }) }},
		{"SkipIf", func(s *ecs.SystemSpec) *ecs.SystemSpec { return s.SkipIf(func() bool { return false }) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := leakWorld(t)
			newTestPool(t, w)
			a, b := rendezvous(t)
			sysA := func(q ecs.ViewMut[leakQ]) { a() }
			sysB := func(r ecs.ViewMut[leakR]) { b() }
			for _, order := range [][]any{
				{tc.gate(ecs.System(sysA)), sysB},
				{sysB, tc.gate(ecs.System(sysA))},
			} {
				name := "w" + strings.Repeat("'", len(w.Workloads()))
				if err := w.AddWorkload(name, order...); err != nil {
					t.Fatal(err)
				}
				a, b = rendezvous(t)
				if err := w.RunWorkload(name); err != nil {
					t.Fatal(err)
				}
			}
			nothingHeld(t, w)
		})
	}
}

func TestGoexitOnAWorkerEndsTheRun(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm runs one goroutine at a time")
	}
	w := leakWorld(t)
	newTestPool(t, w)
	started := make(chan struct{})
	exits := true
	exiting := func(q ecs.ViewMut[leakQ]) {
		if exits {
			close(started)
			runtime.Goexit()
		}
	}
	// The caller runs the gated system first, and waits in it until the
	// other has started on a worker.
	waiting := func(r ecs.ViewMut[leakR]) {
		select {
		case <-started:
		case <-time.After(5 * time.Second):
			t.Error("the other system did not start on a worker")
		}
	}
	if err := w.AddWorkload("w", exiting, ecs.System(waiting).OnCaller()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- w.RunWorkload("w") }()
	select {
	case err := <-done:
		if !errors.Is(err, ecs.ErrGoexit) {
			t.Errorf("RunWorkload: %v, want an error wrapping ErrGoexit", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunWorkload did not return after runtime.Goexit on a worker")
	}
	nothingHeld(t, w)
	exits = false
	for range 3 { // the pool replaced its worker; the workload runs again
		if err := w.RunWorkload("w"); err != nil && !strings.Contains(err.Error(), "did not start") {
			t.Fatalf("the next run: %v", err)
		}
	}
}

func TestGoexitOnTheCallerWaitsForTheWorkers(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm runs one goroutine at a time")
	}
	w := leakWorld(t)
	newTestPool(t, w)
	var mu sync.Mutex
	inside := 0 // systems running now
	enter := func() {
		mu.Lock()
		inside++
		mu.Unlock()
	}
	leave := func() {
		mu.Lock()
		inside--
		mu.Unlock()
	}
	started := make(chan struct{}, 1)
	exits := true
	slow := func(r ecs.ViewMut[leakR]) {
		enter()
		defer leave()
		select {
		case started <- struct{}{}:
		default:
		}
		time.Sleep(20 * time.Millisecond)
	}
	exiting := func(q ecs.ViewMut[leakQ]) {
		if exits {
			<-started // the other one is running on a worker
			runtime.Goexit()
		}
	}
	if err := w.AddWorkload("w", slow, ecs.System(exiting).OnCaller()); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = w.RunWorkload("w")
		t.Error("RunWorkload returned on a goroutine that called runtime.Goexit")
	}()
	<-done
	mu.Lock()
	n := inside
	mu.Unlock()
	if n != 0 {
		t.Errorf("%d systems still running after the caller's goroutine ended", n)
	}
	nothingHeld(t, w)
	exits = false
	if err := w.RunWorkload("w"); err != nil {
		t.Fatalf("the next run: %v", err)
	}
}

func TestParEachNilAndGoexit(t *testing.T) {
	w := ecs.NewWorld()
	qs := make([]leakQ, 3*ecs.ParallelMin)
	for i := range qs {
		qs[i].V = i
	}
	if _, err := ecs.BulkAddEntity1(w, qs); err != nil {
		t.Fatal(err)
	}
	var v ecs.ViewMut[leakQ]
	release, err := w.Borrow(&v)
	if err != nil {
		t.Fatal(err)
	}
	r := mustPanic(t, func() { v.ParEach(nil) })
	if got := panicText(r); got != "ecs: ViewMut.ParEach: fn is nil" {
		t.Errorf("ParEach(nil) panicked with %q", got)
	}
	r = mustPanic(t, func() { ecs.Join1(v).ParEach(nil) })
	if got := panicText(r); got != "ecs: Iter1.ParEach: fn is nil" {
		t.Errorf("Join1.ParEach(nil) panicked with %q", got)
	}
	release()

	if runtime.GOOS == "js" {
		return
	}
	newTestPool(t, w)
	// The function ends the goroutine of whoever gets the last component:
	// a worker (then ParEach panics with ErrGoexit on the caller) or the
	// caller (then its goroutine ends after the workers are done).
	var rv ecs.View[leakQ]
	release, err = w.Borrow(&rv)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	outcome := make(chan string, 1)
	go func() {
		ended := true
		defer func() {
			if r := recover(); r != nil {
				if err, ok := r.(error); ok && errors.Is(err, ecs.ErrGoexit) {
					outcome <- "panic"
					return
				}
				outcome <- "other panic"
				return
			}
			if ended {
				outcome <- "goexit"
			}
		}()
		rv.ParEachMin(64, func(q *leakQ) {
			if q.V == len(qs)-1 {
				runtime.Goexit()
			}
		})
		ended = false
		outcome <- "returned"
	}()
	select {
	case o := <-outcome:
		if o != "panic" && o != "goexit" {
			t.Errorf("ParEach with runtime.Goexit in fn: %s", o)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ParEach hung after runtime.Goexit in fn")
	}
	n := 0
	rv.ParEach(func(*leakQ) {}) // the pool still works
	for range rv.All() {
		n++
	}
	if n != len(qs) {
		t.Errorf("%d components, want %d", n, len(qs))
	}
}

// Custom views of unusual shapes: each is borrowed in full, or refused
// when the system is analysed with an error naming the field.

type embedsPtr struct {
	*ecs.View[leakQ]
}

type embedsBeside struct {
	ecs.View[leakQ]
	R ecs.ViewMut[leakR]
}

type arrayOfViews struct {
	Vs [2]ecs.View[leakQ]
	R  ecs.View[leakR]
}

type sliceOfViews struct {
	Vs []ecs.View[leakQ]
}

type arrayOfMuts struct {
	Vs [2]ecs.ViewMut[leakQ]
}

func TestCustomViewShapes(t *testing.T) {
	w := leakWorld(t)
	for _, tc := range []struct {
		name    string
		sys     any
		wantErr []string // the error's text must contain each; nil: the system runs
	}{
		{"embedded *View", func(v embedsPtr) { t.Error("ran") }, []string{"field View", "pointer"}},
		{"embedded View beside a field", func(v embedsBeside) {
			if v.Len() != 1 || v.R.Len() != 1 {
				t.Errorf("lengths %d and %d, want 1 and 1", v.Len(), v.R.Len())
			}
			if q, ok := v.Get(ecs.EntityID(0)); !ok || q.V != 1 {
				t.Errorf("embedded View.Get: %v %v", q, ok)
			}
		}, nil},
		{"array of views", func(v arrayOfViews) {
			for i, e := range v.Vs {
				if e.Len() != 1 {
					t.Errorf("Vs[%d].Len() = %d, want 1", i, e.Len())
				}
			}
			if v.R.Len() != 1 {
				t.Error("R not borrowed")
			}
		}, nil},
		{"slice of views", func(v sliceOfViews) { t.Error("ran") }, []string{"field Vs", "slice"}},
		{"array of conflicting views", func(v arrayOfMuts) { t.Error("ran") }, []string{"ViewMut"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := w.Run(tc.sys)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("Run: %v", err)
			case tc.wantErr != nil && err == nil:
				t.Fatalf("Run succeeded, want an error mentioning %q", tc.wantErr)
			}
			for _, s := range tc.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			nothingHeld(t, w)
		})
	}
}

// A release releases what its own borrow took: a failed borrow of a
// variable already borrowed leaves the first borrow usable and its release
// working, and a variable borrowed twice is released by both releases.
func TestReleaseIsBoundToItsBorrow(t *testing.T) {
	w := leakWorld(t)
	var v ecs.ViewMut[leakQ]
	release1, err := w.Borrow(&v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Borrow(&v); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Fatalf("second borrow: %v, want a borrow conflict", err)
	}
	if v.Len() != 1 {
		t.Errorf("the failed borrow broke the first one: Len %d", v.Len())
	}
	release1()
	nothingHeld(t, w)

	var r ecs.View[leakQ]
	ra, err := w.Borrow(&r)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := w.Borrow(&r)
	if err != nil {
		t.Fatal(err)
	}
	ra()
	rb()
	nothingHeld(t, w)

	for _, tc := range []struct {
		name string
		view func() any
	}{
		{"UniqueViewMut", func() any { return new(ecs.UniqueViewMut[leakTick]) }},
		{"EntitiesViewMut", func() any { return new(ecs.EntitiesViewMut) }},
		{"AllStoragesViewMut", func() any { return new(ecs.AllStoragesViewMut) }},
	} {
		v := tc.view()
		rel, err := w.Borrow(v)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := w.Borrow(v); err == nil {
			t.Fatalf("%s borrowed twice", tc.name)
		}
		rel()
		nothingHeld(t, w)
	}
}

// Copies of unique views kept past their release panic, also once their
// variable is borrowed again; copies of entities and all-storages views
// (one word each, so that passing them as interfaces allocates nothing)
// panic while released.
func TestKeptCopiesOfOtherViewsPanic(t *testing.T) {
	w := leakWorld(t)
	var u ecs.UniqueViewMut[leakTick]
	var e ecs.EntitiesViewMut
	var a ecs.AllStoragesViewMut
	rel, err := w.Borrow(&u)
	if err != nil {
		t.Fatal(err)
	}
	ku := u
	rel()
	rel, err = w.Borrow(&u)
	if err != nil {
		t.Fatal(err)
	}
	if r := mustPanic(t, func() { ku.Get() }); !errors.Is(r.(error), ecs.ErrReleased) {
		t.Errorf("UniqueViewMut: panic %v, want ErrReleased", r)
	}
	rel()
	rel, err = w.Borrow(&e)
	if err != nil {
		t.Fatal(err)
	}
	ke := e
	rel()
	if r := mustPanic(t, func() { ke.Len() }); !errors.Is(r.(error), ecs.ErrReleased) {
		t.Errorf("EntitiesViewMut: panic %v, want ErrReleased", r)
	}
	rel, err = w.Borrow(&a)
	if err != nil {
		t.Fatal(err)
	}
	ka := a
	rel()
	if r := mustPanic(t, func() { ka.IsAlive(0) }); !errors.Is(r.(error), ecs.ErrReleased) {
		t.Errorf("AllStoragesViewMut: panic %v, want ErrReleased", r)
	}
	nothingHeld(t, w)
}

// World-level reads check that ids are alive: they borrow the entities
// storage too, so they wait for a system creating or deleting entities
// instead of racing with it.
func TestWorldReadsBorrowTheEntities(t *testing.T) {
	w := leakWorld(t)
	var e ecs.EntitiesViewMut
	release, err := w.Borrow(&e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ecs.Get[leakQ](w, 0); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Errorf("Get beside EntitiesViewMut: %v, want a borrow conflict", err)
	}
	if _, _, err := ecs.Get2[leakQ, leakR](w, 0); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Errorf("Get2 beside EntitiesViewMut: %v, want a borrow conflict", err)
	}
	release()
	if q, err := ecs.Get[leakQ](w, 0); err != nil || q.V != 1 {
		t.Errorf("Get after the release: %v, %v", q, err)
	}
}
