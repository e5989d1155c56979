package ecs_test

// Edge cases of AddTo2 … AddTo8 and RemoveFrom2 … RemoveFrom8
// (view_multi.go, view_multi_gen.go); view_multi_gen_test.go checks every
// arity against the model of join_gen_test.go.

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// vmWantViewsError fails the test unless err is a *ViewsError of op for
// the view at position arg (0: entities), wrapping kind, with same the
// earlier view of the same storage.
func vmWantViewsError(t *testing.T, label string, err error, op string, arg, same int, kind error) {
	t.Helper()
	var ve *ecs.ViewsError
	if !errors.As(err, &ve) || !errors.Is(err, kind) || ve.Op != op || ve.Arg != arg || ve.Same != same {
		t.Errorf("%s: got %v, want a *ViewsError of %s for view %d (same as %d) wrapping %v", label, err, op, arg, same, kind)
		return
	}
	hasAll(t, err.Error(), op, ve.View)
}

// vmWantViewsPanic runs fn, and fails the test unless it panics with a
// *ViewsError as vmWantViewsError wants it.
func vmWantViewsPanic(t *testing.T, label, op string, arg, same int, kind error, fn func()) {
	t.Helper()
	r := vmPanicValue(fn)
	err, _ := r.(error)
	if err == nil {
		t.Errorf("%s: panicked with %v, want a *ViewsError", label, r)
		return
	}
	vmWantViewsError(t, label, err, op, arg, same, kind)
}

// vmPanicValue runs fn and returns what it panicked with, or nil.
func vmPanicValue(fn func()) (r any) {
	defer func() { r = recover() }()
	fn()
	return nil
}

// vmClearRemoved clears the removals recorded for T.
func vmClearRemoved[T any](t *testing.T, w *ecs.World) {
	t.Helper()
	var v ecs.ViewMut[T]
	release, err := w.Borrow(&v)
	must(t, err)
	defer release()
	v.ClearAllRemoved()
}

// vmCheckRemoved fails the test unless the removals recorded for T are
// those of want.
func vmCheckRemoved[T any](t *testing.T, w *ecs.World, label string, want map[ecs.EntityID]bool) {
	t.Helper()
	var v ecs.View[T]
	release, err := w.Borrow(&v)
	must(t, err)
	defer release()
	seq, err := v.Removed()
	must(t, err)
	got := map[ecs.EntityID]bool{}
	for id := range seq {
		got[id] = true
	}
	if !jgSameSet(got, want) {
		t.Errorf("%s: removals recorded for %T: %v, want %v", label, *new(T), jgSorted(got), jgSorted(want))
	}
}

// vmTracked tracks everything.
type vmTracked struct{ V int }

func (vmTracked) Tracking() ecs.Tracking { return ecs.TrackAll }

// vmAlive is an AliveChecker of the caller's: it knows one entity.
type vmAlive struct{ id ecs.EntityID }

func (a vmAlive) IsAlive(id ecs.EntityID) bool { return id == a.id }

// vmState is what the tests compare before and after a refused call.
type vmState struct {
	pos, vel []ecs.EntityID
}

func vmStateOf(pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) vmState {
	return vmState{slices.Clone(pos.IDs()), slices.Clone(vel.IDs())}
}

// Every bad input of AddTo2 returns its typed error, naming what was
// wrong, and changes nothing; none panics.
func TestAddToRefusals(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, Pos{1, 1})
	must(t, err)
	gone, err := w.AddEntity()
	must(t, err)
	must(t, w.DeleteEntity(gone))
	var stale ecs.ViewMut[Pos]
	var staleEnts ecs.EntitiesView
	var staleAll ecs.AllStoragesViewMut
	r, err := w.Borrow(&stale, &staleEnts)
	must(t, err)
	r()
	r, err = w.Borrow(&staleAll)
	must(t, err)
	r()

	type call func(e ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error
	cases := []struct {
		name string
		call call
		want func(t *testing.T, err error)
	}{
		{"dead id",
			func(e ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(e, gone, pos, vel, Pos{9, 9}, Vel{9, 9})
			},
			func(t *testing.T, err error) {
				ee := errAs[*ecs.EntityError](t, err)
				equal(t, "EntityError.ID", ee.ID, gone)
				equal(t, "EntityError.Op", ee.Op, "AddTo2")
			}},
		{"NullID",
			func(e ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(e, ecs.NullID, pos, vel, Pos{}, Vel{})
			},
			func(t *testing.T, err error) { errIs(t, err, ecs.ErrDeadEntity) }},
		{"same view twice",
			func(e ecs.EntitiesView, pos ecs.ViewMut[Pos], _ ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(e, id, pos, pos, Pos{9, 9}, Pos{8, 8})
			},
			func(t *testing.T, err error) {
				vmWantViewsError(t, "same view", err, "AddTo2", 2, 1, ecs.ErrSameStorage)
				hasAll(t, err.Error(), "v2 (ViewMut[ecs_test.Pos]) is a view of the same storage as v1")
			}},
		{"same storage, dead id too: the programmer error first",
			func(e ecs.EntitiesView, pos ecs.ViewMut[Pos], _ ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(e, gone, pos, pos, Pos{9, 9}, Pos{8, 8})
			},
			func(t *testing.T, err error) {
				vmWantViewsError(t, "same view", err, "AddTo2", 2, 1, ecs.ErrSameStorage)
			}},
		{"released view",
			func(e ecs.EntitiesView, _ ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(e, id, vel, stale, Vel{9, 9}, Pos{9, 9})
			},
			func(t *testing.T, err error) {
				vmWantViewsError(t, "released", err, "AddTo2", 2, 0, ecs.ErrReleased)
				hasAll(t, err.Error(), "v2 (ViewMut[ecs_test.Pos]) is released")
			}},
		{"zero view",
			func(e ecs.EntitiesView, pos ecs.ViewMut[Pos], _ ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(e, id, ecs.ViewMut[Vel]{}, pos, Vel{}, Pos{})
			},
			func(t *testing.T, err error) { vmWantViewsError(t, "zero", err, "AddTo2", 1, 0, ecs.ErrReleased) }},
		{"nil entities",
			func(_ ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(nil, id, pos, vel, Pos{9, 9}, Vel{9, 9})
			},
			func(t *testing.T, err error) {
				vmWantViewsError(t, "nil entities", err, "AddTo2", 0, 0, ecs.ErrInvalidView)
				hasAll(t, err.Error(), "entities is nil")
			}},
		{"released EntitiesView",
			func(_ ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(staleEnts, id, pos, vel, Pos{9, 9}, Vel{9, 9})
			},
			func(t *testing.T, err error) {
				vmWantViewsError(t, "released entities", err, "AddTo2", 0, 0, ecs.ErrReleased)
				hasAll(t, err.Error(), "entities (EntitiesView) is released")
			}},
		{"zero EntitiesViewMut",
			func(_ ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(ecs.EntitiesViewMut{}, id, pos, vel, Pos{9, 9}, Vel{9, 9})
			},
			func(t *testing.T, err error) {
				vmWantViewsError(t, "zero entities", err, "AddTo2", 0, 0, ecs.ErrReleased)
			}},
		{"released AllStoragesViewMut",
			func(_ ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(staleAll, id, pos, vel, Pos{9, 9}, Vel{9, 9})
			},
			func(t *testing.T, err error) {
				vmWantViewsError(t, "released all", err, "AddTo2", 0, 0, ecs.ErrReleased)
			}},
		{"an AliveChecker of the caller's that says no",
			func(_ ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) error {
				return ecs.AddTo2(vmAlive{gone}, id, pos, vel, Pos{9, 9}, Vel{9, 9})
			},
			func(t *testing.T, err error) { equal(t, "EntityError.ID", errAs[*ecs.EntityError](t, err).ID, id) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			var before, after vmState
			var p any
			must(t, w.Run(func(e ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) {
				before = vmStateOf(pos, vel)
				p = vmPanicValue(func() { err = c.call(e, pos, vel) })
				after = vmStateOf(pos, vel)
			}))
			if p != nil {
				t.Fatalf("panicked with %v; AddTo2 must return its errors", p)
			}
			c.want(t, err)
			deepEqual(t, "storages after the refused call", after, before)
			got, err := ecs.Get[Pos](w, id)
			must(t, err)
			equal(t, "Pos of the entity", got, Pos{1, 1})
			nothingHeld(t, w)
		})
	}
}

// AddTo2 through an AllStoragesViewMut's views: the AllStoragesViewMut
// cannot check liveness while it lends them, and says so; an
// EntitiesView borrowed with them can.
func TestAddToUnderAllStorages(t *testing.T) {
	w := ecs.NewWorld()
	id, err := w.AddEntity()
	must(t, err)
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		must(t, all.Run(func(e ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) {
			err := ecs.AddTo2(all, id, pos, vel, Pos{1, 2}, Vel{3, 4})
			errIs(t, err, ecs.ErrBorrowConflict)
			isTrue(t, !pos.Contains(id) && !vel.Contains(id), "the refused call added components")
			must(t, ecs.AddTo2(e, id, pos, vel, Pos{1, 2}, Vel{3, 4}))
		}))
		// Not lending, it checks liveness itself.
		var pos ecs.ViewMut[Pos]
		var vel ecs.ViewMut[Vel]
		release, err := all.Borrow(&pos, &vel)
		must(t, err)
		// While it lends pos and vel, it refuses.
		errIs(t, ecs.AddTo2(all, id, pos, vel, Pos{}, Vel{}), ecs.ErrBorrowConflict)
		release()
	}))
	p, v, err := ecs.Get2[Pos, Vel](w, id)
	must(t, err)
	equal(t, "Pos", p, Pos{1, 2})
	equal(t, "Vel", v, Vel{3, 4})
	nothingHeld(t, w)
}

// An AliveChecker of the caller's is asked, as AddComponent asks it.
func TestAddToAsksCallersAliveChecker(t *testing.T) {
	w := ecs.NewWorld()
	id, err := w.AddEntity()
	must(t, err)
	must(t, w.Run(func(pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) {
		must(t, ecs.AddTo2(vmAlive{id}, id, pos, vel, Pos{1, 2}, Vel{3, 4}))
	}))
	p, v, err := ecs.Get2[Pos, Vel](w, id)
	must(t, err)
	equal(t, "values", [2]any{p, v}, [2]any{Pos{1, 2}, Vel{3, 4}})
}

// Tracking: a component new to the entity is an insertion, a
// replacement a modification, as with AddComponent; RemoveFrom records
// removals, and the Taken of an absent component is the zero value.
func TestViewMultiTracking(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, vmTracked{1})
	must(t, err)
	must(t, w.Run(func(v ecs.ViewMut[vmTracked]) { v.ClearAllInsertedAndModified() }))
	type vmTracked2 struct{ vmTracked }
	must(t, ecs.TrackComponent[vmTracked2](w, ecs.TrackAll))
	must(t, w.Run(func(e ecs.EntitiesView, a ecs.ViewMut[vmTracked], b ecs.ViewMut[vmTracked2]) {
		must(t, ecs.AddTo2(e, id, a, b, vmTracked{2}, vmTracked2{vmTracked{3}}))
		ins, err := a.Inserted()
		must(t, err)
		mod, err := a.Modified()
		must(t, err)
		equal(t, "a: inserted, modified", [2]int{ins.Count(), mod.Count()}, [2]int{0, 1})
		insB, err := b.Inserted()
		must(t, err)
		modB, err := b.Modified()
		must(t, err)
		equal(t, "b: inserted, modified", [2]int{insB.Count(), modB.Count()}, [2]int{1, 0})

		ra, rb := ecs.RemoveFrom2(id, a, b)
		equal(t, "taken a", ra, ecs.Taken[vmTracked]{vmTracked{2}, true})
		equal(t, "taken b", rb, ecs.Taken[vmTracked2]{vmTracked2{vmTracked{3}}, true})
		ra, rb = ecs.RemoveFrom2(id, a, b)
		equal(t, "taken a again", ra, ecs.Taken[vmTracked]{})
		equal(t, "taken b again", rb, ecs.Taken[vmTracked2]{})
		c, ok := ra.Get()
		equal(t, "Get of nothing", [2]any{c, ok}, [2]any{vmTracked{}, false})
	}))
	vmCheckRemoved[vmTracked](t, w, "a", map[ecs.EntityID]bool{id: true})
	vmCheckRemoved[vmTracked2](t, w, "b", map[ecs.EntityID]bool{id: true})
}

// In a group whose third member a View of the same system reads, adding
// or removing could move the components under that View: AddTo2 returns
// the GroupError, RemoveFrom2 panics with it, before changing anything,
// also when the refusal concerns the second view only.
func TestViewMultiGroupRefusals(t *testing.T) {
	w, ids := groupWorld(t, 4)
	must(t, ecs.AddComponent1(w, ids[0], GB{7}))
	must(t, ecs.AddComponent1(w, ids[0], GC{7}))
	must(t, ecs.AddComponent1(w, ids[1], GB{8}))
	type vmOther struct{}
	must(t, w.Run(func(e ecs.EntitiesView, a ecs.View[GA], b ecs.ViewMut[GB], c ecs.ViewMut[GC], o ecs.ViewMut[vmOther]) {
		lens := func() [3]int { return [3]int{b.Len(), c.Len(), o.Len()} }
		before := lens()
		// ids[1] has GB: replacing it is allowed, adding its GC is not.
		err := ecs.AddTo2(e, ids[1], o, c, vmOther{}, GC{1})
		ge := errAs[*ecs.GroupError](t, err)
		hasAll(t, err.Error(), "AddTo2 (through ViewMut[ecs_test.GC])", "View[ecs_test.GA]")
		equal(t, "GroupError.View", ge.View, "View[ecs_test.GA]")
		equal(t, "lengths after the refused AddTo2", lens(), before)
		isTrue(t, !o.Contains(ids[1]), "the refused AddTo2 added the first component")
		// A replacement of both moves nothing.
		must(t, ecs.AddTo2(e, ids[0], b, c, GB{1}, GC{1}))

		// ids[0] is packed: removing from c is refused, and o keeps its
		// component.
		must(t, o.AddComponent(e, ids[0], vmOther{}))
		before = lens()
		r := vmPanicValue(func() { ecs.RemoveFrom2(ids[0], o, c) })
		err, _ = r.(error)
		errAs[*ecs.GroupError](t, err)
		hasAll(t, err.Error(), "RemoveFrom2 (through ViewMut[ecs_test.GC])")
		equal(t, "lengths after the refused RemoveFrom2", lens(), before)
		// An entity out of the group is removed from.
		to, tc := ecs.RemoveFrom2(ids[1], o, c)
		isTrue(t, !to.OK && !tc.OK, "RemoveFrom2 of ids[1]: %v %v", to, tc)
	}))
	nothingHeld(t, w)
	if n, _, err := ecs.GroupLen[GA](w); err != nil || n != 1 {
		t.Errorf("GroupLen = %d, %v; want 1", n, err)
	}
}

// Adding the last members of a group through AddTo2 and AddTo3 packs
// the entity, and RemoveFrom2 of two members unpacks it, with the
// storages' layouts checked after each.
func TestViewMultiGroupPacking(t *testing.T) {
	w, ids := groupWorld(t, 6)
	groupLen := func(want int) {
		t.Helper()
		must(t, ecs.CheckLayouts(w))
		if n, _, err := ecs.GroupLen[GA](w); err != nil || n != want {
			t.Errorf("GroupLen = %d, %v; want %d", n, err, want)
		}
	}
	must(t, w.Run(func(e ecs.EntitiesView, b ecs.ViewMut[GB], c ecs.ViewMut[GC]) {
		for i, id := range ids[2:] {
			must(t, ecs.AddTo2(e, id, c, b, GC{i}, GB{i}))
		}
	}))
	groupLen(4)
	var fresh ecs.EntityID
	must(t, w.Run(func(e ecs.EntitiesViewMut, a ecs.ViewMut[GA], b ecs.ViewMut[GB], c ecs.ViewMut[GC]) {
		fresh = e.AddEntity()
		must(t, ecs.AddTo3(e, fresh, b, a, c, GB{10}, GA{10}, GC{10}))
	}))
	groupLen(5)
	must(t, w.Run(func(a ecs.ViewMut[GA], c ecs.ViewMut[GC]) {
		ta, tc := ecs.RemoveFrom2(ids[3], c, a)
		equal(t, "taken", [2]any{ta, tc}, [2]any{ecs.Taken[GC]{GC{1}, true}, ecs.Taken[GA]{GA{3}, true}})
	}))
	groupLen(4)
	for i, id := range ids {
		a, err := ecs.Get[GA](w, id)
		if i == 3 {
			errIs(t, err, ecs.ErrMissingComponent)
			continue
		}
		must(t, err)
		equal(t, "GA", a, GA{i})
	}
	got, err := ecs.Get[GB](w, fresh)
	must(t, err)
	equal(t, "GB of the fresh entity", got, GB{10})
}

// RemoveFrom2's refusals panic with a *ViewsError, changing nothing:
// the same view twice, a released view, a zero one.
func TestRemoveFromRefusals(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 1}, Vel{2, 2})
	must(t, err)
	var stale ecs.ViewMut[Vel]
	r, err := w.Borrow(&stale)
	must(t, err)
	r()
	must(t, w.Run(func(pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) {
		vmWantViewsPanic(t, "same view", "RemoveFrom2", 2, 1, ecs.ErrSameStorage, func() { ecs.RemoveFrom2(id, pos, pos) })
		vmWantViewsPanic(t, "released", "RemoveFrom2", 2, 0, ecs.ErrReleased, func() { ecs.RemoveFrom2(id, pos, stale) })
		vmWantViewsPanic(t, "zero", "RemoveFrom2", 1, 0, ecs.ErrReleased, func() { ecs.RemoveFrom2(id, ecs.ViewMut[Vel]{}, pos) })
		isTrue(t, pos.Contains(id) && vel.Contains(id), "a refused RemoveFrom2 removed a component")
	}))
	nothingHeld(t, w)
	msg := (&ecs.ViewsError{}).Error()
	isTrue(t, strings.HasPrefix(msg, "ecs: "), "zero ViewsError: %q", msg)
}

// A call through several views allocates nothing.
func TestViewMultiAllocs(t *testing.T) {
	w := ecs.NewWorld()
	id, err := w.AddEntity()
	must(t, err)
	var e ecs.EntitiesView
	var pos ecs.ViewMut[Pos]
	var vel ecs.ViewMut[Vel]
	release, err := w.Borrow(&e, &pos, &vel)
	must(t, err)
	defer release()
	must(t, ecs.AddTo2(e, id, pos, vel, Pos{}, Vel{})) // the storages' first pages and arrays
	n := testing.AllocsPerRun(100, func() {
		if err := ecs.AddTo2(e, id, pos, vel, Pos{1, 1}, Vel{1, 1}); err != nil {
			t.Fatal(err)
		}
		ecs.RemoveFrom2(id, pos, vel)
	})
	equal(t, "allocations per AddTo2 and RemoveFrom2", n, 0.0)
}
