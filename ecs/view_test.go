package ecs_test

import (
	"errors"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

func TestDeleteFromSeveralViews(t *testing.T) {
	w := ecs.NewWorld()
	both, _ := ecs.AddEntity2(w, wPos{1, 1}, wVel{2, 2})
	onlyPos, _ := ecs.AddEntity1(w, wPos{3, 3})
	noErr(t, w.Run(func(p ecs.ViewMut[wPos], v ecs.ViewMut[wVel]) {
		if n := ecs.DeleteFrom(both, p, v); n != 2 {
			t.Errorf("deleted %d from both, want 2", n)
		}
		if n := ecs.DeleteFrom(onlyPos, p, v); n != 1 {
			t.Errorf("deleted %d from onlyPos, want 1", n)
		}
		if n := ecs.DeleteFrom(both, p, v); n != 0 {
			t.Errorf("deleted %d again, want 0", n)
		}
		if p.Len() != 0 || v.Len() != 0 {
			t.Errorf("left %d Pos, %d Vel", p.Len(), v.Len())
		}
	}))
	if !w.IsAlive(both) || !w.IsAlive(onlyPos) {
		t.Fatal("deleting components must not delete entities")
	}
}

func TestUpdateUnique(t *testing.T) {
	w := ecs.NewWorld()
	err := ecs.UpdateUnique(w, func(c *wClock) { c.Ticks++ })
	if err == nil || !errors.Is(err, ecs.ErrMissingUnique) {
		t.Fatalf("missing unique: %v", err)
	}
	noErr(t, ecs.AddUnique(w, wClock{Ticks: 1}))
	// Works while a component storage is borrowed elsewhere...
	var pos ecs.ViewMut[wPos]
	release, err := w.Borrow(&pos)
	noErr(t, err)
	noErr(t, ecs.UpdateUnique(w, func(c *wClock) { c.Ticks += 10 }))
	release()
	c, err := ecs.GetUnique[wClock](w)
	noErr(t, err)
	if c.Ticks != 11 {
		t.Fatalf("ticks = %d", c.Ticks)
	}
	// ...but not while the unique itself is.
	var clock ecs.UniqueView[wClock]
	release, err = w.Borrow(&clock)
	noErr(t, err)
	defer release()
	err = ecs.UpdateUnique(w, func(c *wClock) { c.Ticks++ })
	var be *ecs.BorrowError
	if !errors.As(err, &be) || be.Resource != "unique ecs_test.wClock" {
		t.Fatalf("err = %v", err)
	}
}

func TestUniqueBorrowDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop frames on purpose")
	}
	w := ecs.NewWorld()
	noErr(t, ecs.AddUnique(w, wClock{}))
	sys := func(c ecs.UniqueViewMut[wClock]) { c.Get().Ticks++ }
	noErr(t, w.Run(sys))
	if n := testing.AllocsPerRun(100, func() { _ = w.Run(sys) }); n != 0 {
		t.Fatalf("%v allocations per run of a unique system", n)
	}
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

// TestCustomViewSystemDoesNotAllocate: a system taking a custom view made
// of views only is called without reflect, so running it allocates nothing.
func TestCustomViewSystemDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop frames on purpose")
	}
	w := ecs.NewWorld()
	_, err := ecs.AddEntity2(w, wPos{1, 2}, wVel{3, 4})
	noErr(t, err)
	type bundle struct {
		Pos ecs.ViewMut[wPos]
		Vel ecs.View[wVel]
	}
	runs := 0
	sys := func(b bundle, e ecs.EntitiesView) {
		for p, v := range ecs.Join2(b.Pos, b.Vel).All() {
			p.X += v.X
		}
		runs += e.Len()
	}
	noErr(t, w.Run(sys))
	if n := testing.AllocsPerRun(100, func() { _ = w.Run(sys) }); n != 0 {
		t.Fatalf("%v allocations per run of a system with a custom view", n)
	}
	p, err := ecs.Get[wPos](w, 0)
	noErr(t, err)
	if runs != 102 || p.X != 1+3*102 {
		t.Fatalf("after 102 runs: %d runs counted, Pos.X = %v; want 102 and %v", runs, p.X, 1+3*102)
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
