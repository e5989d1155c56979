package ecs_test

import (
	"errors"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Tests of borrow.go: what a borrow takes, what its release gives back,
// and copies of views kept past their release.

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

// TestBorrowInAnotherWorldDoesNotAllocate: a system run in turn on two
// worlds borrows its views afresh each time, and a view's borrower keeps
// its name in parts, so that costs no allocation either.
func TestBorrowInAnotherWorldDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop frames on purpose")
	}
	worlds := [2]*ecs.World{ecs.NewWorld(), ecs.NewWorld()}
	for _, w := range worlds {
		_, err := ecs.AddEntity2(w, wPos{1, 2}, wVel{3, 4})
		noErr(t, err)
		noErr(t, ecs.AddUnique(w, wClock{}))
	}
	sys := func(pos ecs.ViewMut[wPos], vel ecs.View[wVel], c ecs.UniqueViewMut[wClock]) {
		c.Get().Ticks += pos.Len() + vel.Len()
	}
	k := 0
	round := func() {
		noErr(t, worlds[k%2].Run(sys))
		k++
	}
	round()
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Fatalf("%v allocations per run, alternating worlds", n)
	}
}

// A copy of a borrowed view shares its state; borrowing the copy gives it
// state of its own, so each is released by its own release: releasing the
// copy of a shared view leaves the original borrowed and usable, and a
// failed borrow of an exclusive view's copy releases nothing of the
// original's. For every kind of view.
func TestBorrowACopyOfABorrowedView(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"View", copyBorrow(true, func(t *testing.T, v ecs.View[Pos], ids []ecs.EntityID) {
			if p, ok := v.Get(ids[1]); !ok || p.X != 2 {
				t.Errorf("Get = %v, %v; want {2 0}", p, ok)
			}
		})},
		{"ViewMut", copyBorrow(false, func(t *testing.T, v ecs.ViewMut[Pos], ids []ecs.EntityID) {
			if p := v.MustGet(ids[0]); p.X != 1 {
				t.Errorf("MustGet = %v, want {1 0}", p)
			}
		})},
		{"EntitiesView", copyBorrow(true, func(t *testing.T, v ecs.EntitiesView, ids []ecs.EntityID) {
			isTrue(t, v.IsAlive(ids[0]), "IsAlive(%v) is false", ids[0])
		})},
		{"EntitiesViewMut", copyBorrow(false, func(t *testing.T, v ecs.EntitiesViewMut, ids []ecs.EntityID) {
			isTrue(t, v.IsAlive(ids[0]), "IsAlive(%v) is false", ids[0])
		})},
		{"UniqueView", copyBorrow(true, func(t *testing.T, v ecs.UniqueView[Camera], ids []ecs.EntityID) { v.Get() })},
		{"UniqueViewMut", copyBorrow(false, func(t *testing.T, v ecs.UniqueViewMut[Camera], ids []ecs.EntityID) { v.Get() })},
		{"AllStoragesViewMut", copyBorrow(false, func(t *testing.T, v ecs.AllStoragesViewMut, ids []ecs.EntityID) {
			_, err := ecs.Get[Pos](v, ids[0])
			must(t, err)
		})},
	}
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

// copyBorrow makes a world of two entities with Pos {1, 0} and {2, 0}
// and a Camera unique, borrows a view of type V, then a copy of it, which
// succeeds for a shared view (and is then released) and fails with a
// borrow conflict for an exclusive one; use must then still work on the
// original (a released view panics), and releasing the original must
// leave nothing borrowed. use gets the ids of the two entities.
func copyBorrow[V any](shared bool, use func(t *testing.T, v V, ids []ecs.EntityID)) func(*testing.T) {
	return func(t *testing.T) {
		w := ecs.NewWorld()
		ids, err := ecs.BulkAddEntity1(w, []Pos{{1, 0}, {2, 0}})
		must(t, err)
		must(t, ecs.AddUnique(w, Camera{}))
		var orig V
		release, err := w.Borrow(&orig)
		must(t, err)
		cp := orig
		releaseCopy, err := w.Borrow(&cp)
		switch {
		case shared && err != nil:
			t.Fatalf("borrowing a copy of a shared view: %v", err)
		case shared:
			releaseCopy()
		case !errors.Is(err, ecs.ErrBorrowConflict):
			t.Fatalf("borrowing a copy of an exclusive view: got %v, want a borrow conflict", err)
		}
		if r := recovered(func() { use(t, orig, ids) }); r != nil {
			t.Errorf("the original after its copy's borrow: %v", r)
		}
		release()
		assertNothingBorrowed(t, w)
	}
}
