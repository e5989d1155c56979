package ecs_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type (
	asPos struct{ X int }
	asVel struct{ X int }
)

// asWorld returns a world of three entities with asPos{1…3}, the first
// two with asVel{10, 20} too, and a unique naPlayer.
func asWorld(t *testing.T) (*ecs.World, []ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := 1; i <= 3; i++ {
		id, err := ecs.AddEntity1(w, asPos{i})
		must(t, err)
		if i < 3 {
			must(t, ecs.AddComponent1(w, id, asVel{10 * i}))
		}
		ids = append(ids, id)
	}
	must(t, ecs.AddUnique(w, naPlayer{HP: 5}))
	return w, ids
}

// TestAllStoragesBorrow borrows views under an AllStoragesViewMut: they
// work, they conflict with each other as in the world, calls through the
// AllStoragesViewMut panic while they are held and work again once they
// are released, and a view left held is released with it.
func TestAllStoragesBorrow(t *testing.T) {
	w, ids := asWorld(t)
	err := w.Run(func(all ecs.AllStoragesViewMut) error {
		var pos ecs.ViewMut[asPos]
		var vel ecs.View[asVel]
		var ents ecs.EntitiesView
		var hp ecs.UniqueViewMut[naPlayer]
		release, err := all.Borrow(&pos, &vel, &ents, &hp)
		if err != nil {
			return err
		}
		for p, v := range ecs.Join2(pos, vel).All() {
			p.X += v.X
		}
		hp.Get().HP++
		equal(t, "entities seen", ents.Len(), 3)

		// A second ViewMut of the same type conflicts, naming both; a
		// second shared view does not.
		var pos2 ecs.ViewMut[asPos]
		_, err = all.Borrow(&pos2)
		be := errAs[*ecs.BorrowError](t, err)
		hasAll(t, be.Error(), "ViewMut[ecs_test.asPos]", "AllStoragesViewMut.Borrow")
		var vel2 ecs.View[asVel]
		release2, err := all.Borrow(&vel2)
		must(t, err)
		equal(t, "second View's length", vel2.Len(), 2)
		release2()
		release2() // a second call does nothing

		// Calls through all take no borrow: refused while it lends views.
		for name, call := range map[string]func(){
			"DeleteEntity": func() { _ = all.DeleteEntity(ids[0]) },
			"IsAlive":      func() { all.IsAlive(ids[0]) },
			"AddEntity1":   func() { _, _ = ecs.AddEntity1(all, asPos{9}) },
			"Get":          func() { _, _ = ecs.Get[asPos](all, ids[0]) },
			"Entities":     func() { all.Entities() },
		} {
			r := recovered(call)
			if !errors.Is(asError(r), ecs.ErrBorrowConflict) {
				t.Errorf("%s while views are lent: recovered %v, want a panic wrapping ErrBorrowConflict", name, r)
			}
		}
		release()
		release()
		// Released: everything works again, and the views are too.
		must(t, all.DeleteEntity(ids[2]))
		mustPanicReleased(t, map[string]func(){"ViewMut.Len": func() { pos.Len() }})

		// Left held on purpose: the end of the system releases it.
		var left ecs.ViewMut[asVel]
		_, err = all.Borrow(&left)
		return err
	})
	must(t, err)
	nothingHeld(t, w)
	got, err := ecs.Get[asPos](w, ids[0])
	must(t, err)
	equal(t, "pos of the first entity", got.X, 11)
	player, err := ecs.GetUnique[naPlayer](w)
	must(t, err)
	equal(t, "HP", player.HP, 6)
	equal(t, "entities left", w.EntityCount(), 2)
}

// TestAllStoragesBorrowRefusals gives Borrow what it cannot borrow: an
// error as World.Borrow's, and nothing left borrowed.
func TestAllStoragesBorrowRefusals(t *testing.T) {
	w, _ := asWorld(t)
	var pos ecs.ViewMut[asPos]
	var missing ecs.UniqueView[asVel]
	cases := []struct {
		name  string
		views []any
		is    error
		has   []string
	}{
		{"not a pointer", []any{pos}, ecs.ErrInvalidView, []string{"AllStoragesViewMut.Borrow", "not a non-nil pointer"}},
		{"nil", []any{nil}, ecs.ErrInvalidView, []string{"parameter 1"}},
		{"twice", []any{&pos, &pos}, ecs.ErrInvalidView, []string{"shares memory"}},
		{"conflict", []any{&pos, new(ecs.View[asPos])}, ecs.ErrBorrowConflict, []string{"ViewMut[ecs_test.asPos]"}},
		{"all storages", []any{new(ecs.AllStoragesViewMut)}, ecs.ErrBorrowConflict, []string{"all storages"}},
		{"missing unique", []any{&pos, &missing}, ecs.ErrMissingUnique, []string{"asVel"}},
	}
	err := w.Run(func(all ecs.AllStoragesViewMut) error {
		for _, c := range cases {
			release, err := all.Borrow(c.views...)
			if release != nil {
				t.Errorf("%s: a release function beside error %v", c.name, err)
			}
			if !errors.Is(err, c.is) {
				t.Errorf("%s: got %v, want an error wrapping %v", c.name, err, c.is)
				continue
			}
			hasAll(t, err.Error(), c.has...)
			// Nothing stays borrowed, nothing is lent.
			isTrue(t, all.IsAlive(ecs.NullID) == false, "%s: IsAlive(NullID)", c.name)
		}
		return nil
	})
	must(t, err)
	mustPanicReleased(t, map[string]func(){"the ViewMut of a refused Borrow": func() { pos.Len() }})
	nothingHeld(t, w)
}

// TestAllStoragesRun runs systems under an AllStoragesViewMut: they see
// and change the storages, their errors come back as World.Run's, a
// system that conflicts is not called, and a panic in one releases its
// views before going on.
func TestAllStoragesRun(t *testing.T) {
	w, ids := asWorld(t)
	errBoom := errors.New("boom")
	err := w.Run(func(all ecs.AllStoragesViewMut) error {
		must(t, all.Run(func(pos ecs.ViewMut[asPos], vel ecs.View[asVel]) {
			for p, v := range ecs.Join2(pos, vel).All() {
				p.X += v.X
			}
		}))
		err := all.Run(func(ecs.View[asPos]) error { return errBoom })
		errIs(t, err, errBoom)
		_ = errAs[*ecs.SystemFailure](t, err)

		// Conflicts: with a view borrowed from all and held, and with
		// all itself.
		var held ecs.View[asVel]
		release, err := all.Borrow(&held)
		must(t, err)
		called := false
		err = all.Run(func(ecs.ViewMut[asVel]) { called = true })
		errHas(t, err, "ViewMut[ecs_test.asVel]", "View[ecs_test.asVel]")
		errIs(t, err, ecs.ErrBorrowConflict)
		release()
		err = all.Run(func(ecs.AllStoragesViewMut) { called = true })
		errIs(t, err, ecs.ErrBorrowConflict)
		isTrue(t, !called, "a system whose views conflict was called")
		errIs(t, all.Run(42), ecs.ErrInvalidSystem)

		// The system may not call through all while it runs.
		err = all.Run(func(ecs.View[asPos]) {
			r := recovered(func() { _ = all.DeleteEntity(ids[0]) })
			if !errors.Is(asError(r), ecs.ErrBorrowConflict) {
				t.Errorf("DeleteEntity inside Run: recovered %v, want ErrBorrowConflict", r)
			}
		})
		must(t, err)

		// A panic inside Run: the system's views are released.
		r := recovered(func() {
			_ = all.Run(func(ecs.ViewMut[asPos]) { panic("inside") })
		})
		equal(t, "recovered", r, any("inside"))
		var pos ecs.ViewMut[asPos]
		release, err = all.Borrow(&pos)
		must(t, err)
		release()
		return all.DeleteEntity(ids[1]) // all works again
	})
	must(t, err)
	nothingHeld(t, w)
	got, err := ecs.Get[asPos](w, ids[0])
	must(t, err)
	equal(t, "pos of the first entity", got.X, 11)
	equal(t, "entities left", w.EntityCount(), 2)
}

// TestAllStoragesEntities iterates the live entities through an
// AllStoragesViewMut: those of an EntitiesView, in the same order, deleted
// ones left out; breaking off stops the iteration.
func TestAllStoragesEntities(t *testing.T) {
	w, ids := asWorld(t)
	extra, err := w.AddEntity()
	must(t, err)
	must(t, w.DeleteEntity(ids[1]))
	var want []ecs.EntityID
	must(t, w.Run(func(e ecs.EntitiesView) { want = slices.Collect(e.All()) }))
	deepEqual(t, "want", want, []ecs.EntityID{ids[0], ids[2], extra})
	var got, first []ecs.EntityID
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		got = slices.Collect(all.Entities())
		for id := range all.Entities() {
			first = append(first, id)
			break
		}
	}))
	deepEqual(t, "Entities", got, want)
	deepEqual(t, "first", first, want[:1])
}

// TestAllStoragesReleased uses an AllStoragesViewMut kept past its
// system, and one borrowed by World.Borrow past its release: every new
// call panics with ErrReleased, and a Borrow taken under it and still
// held was released with it.
func TestAllStoragesReleased(t *testing.T) {
	w, _ := asWorld(t)
	var kept ecs.AllStoragesViewMut
	var seq func()
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		kept = all
		seq = rangeOver1(all.Entities())
	}))
	uses := func(a ecs.AllStoragesViewMut) map[string]func() {
		return map[string]func(){
			"Borrow":   func() { _, _ = a.Borrow(new(ecs.View[asPos])) },
			"Run":      func() { _ = a.Run(func(ecs.View[asPos]) {}) },
			"Entities": func() { a.Entities() },
			"RunValue": func() { _, _ = ecs.RunValue1(a, func(ecs.View[asPos]) int { return 0 }) },
		}
	}
	m := uses(kept)
	m["a sequence ranged over"] = seq
	mustPanicReleased(t, m)
	mustPanicReleased(t, uses(ecs.AllStoragesViewMut{}))

	var all ecs.AllStoragesViewMut
	release, err := w.Borrow(&all)
	must(t, err)
	var pos ecs.ViewMut[asPos]
	_, err = all.Borrow(&pos)
	must(t, err)
	release()
	mustPanicReleased(t, uses(all))
	mustPanicReleased(t, map[string]func(){"the ViewMut borrowed under it": func() { pos.Len() }})
	nothingHeld(t, w)
}

// TestAllStoragesPanicReleases panics in a system while it holds views
// borrowed from its AllStoragesViewMut: they are released with it.
func TestAllStoragesPanicReleases(t *testing.T) {
	w, _ := asWorld(t)
	r := recovered(func() {
		_ = w.Run(func(all ecs.AllStoragesViewMut) {
			var pos ecs.ViewMut[asPos]
			if _, err := all.Borrow(&pos); err != nil {
				t.Error(err)
			}
			panic("mid-system")
		})
	})
	equal(t, "recovered", r, any("mid-system"))
	nothingHeld(t, w)
}
