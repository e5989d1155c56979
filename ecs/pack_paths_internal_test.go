package ecs

import (
	"errors"
	"testing"
)

// The tests below walk the pack's per-entity paths one case at a time: an
// entity entering the packed range through each member (the two-member
// path of joinNew, and joined for larger groups), leaving it through each
// member (deletePacked, and leave for a tracked member, by Delete and by
// Remove), and a refusal while another member is pinned (pack.pins).

// packWorld returns a world with a group over A, B (and gC when three),
// and n entities having every member but the one at index via, in
// creation order.
func packWorld[A, B any](t *testing.T, three bool, n, via int, mkA func(int) A, mkB func(int) B) (*World, *pack, []EntityID) {
	t.Helper()
	w := NewWorld()
	var err error
	if three {
		err = AddGroup3[A, B, gC](w)
	} else {
		err = AddGroup2[A, B](w)
	}
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]EntityID, n)
	for i := range ids {
		ids[i], err = w.AddEntity()
		mustNoErr(t, err)
		if via != 0 {
			mustNoErr(t, AddComponent1(w, ids[i], mkA(i)))
		}
		if via != 1 {
			mustNoErr(t, AddComponent1(w, ids[i], mkB(i)))
		}
		if three && via != 2 {
			mustNoErr(t, AddComponent1(w, ids[i], gC{i}))
		}
	}
	return w, storageFor[A](w).pack, ids
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// viaMember gives id (the i-th entity) its component of member via,
// through a ViewMut's AddComponent, or removes it (Delete or Remove).
func viaMember[A, B any](t *testing.T, w *World, via int, id EntityID, i int, op string, mkA func(int) A, mkB func(int) B) {
	t.Helper()
	switch via {
	case 0:
		viaView(t, w, id, op, mkA(i))
	case 1:
		viaView(t, w, id, op, mkB(i))
	default:
		viaView(t, w, id, op, gC{i})
	}
}

func viaView[T any](t *testing.T, w *World, id EntityID, op string, c T) {
	t.Helper()
	var ents EntitiesView
	var vm ViewMut[T]
	release, err := w.Borrow(&ents, &vm)
	mustNoErr(t, err)
	defer release()
	switch op {
	case "add":
		mustNoErr(t, vm.AddComponent(ents, id, c))
	case "delete":
		if !vm.Delete(id) {
			t.Fatalf("Delete(%v) = false", id)
		}
	case "remove":
		if _, ok := vm.Remove(id); !ok {
			t.Fatalf("Remove(%v) found nothing", id)
		}
	}
}

// checkPackValues checks that every entity of ids has component values
// matching its index in each member that has one: the swaps kept
// components with their entities.
func checkPackValues(t *testing.T, w *World, ids []EntityID) {
	t.Helper()
	for i, id := range ids {
		for _, v := range []int{valueOf[gA](w, id), valueOf[gB](w, id), valueOf[gC](w, id), valueOf[gT](w, id)} {
			if v != -1 && v != i {
				t.Fatalf("%v (entity %d) has a component of value %d", id, i, v)
			}
		}
	}
}

// valueOf returns the V of id's component of type T (every test type is
// struct{ V int }), or -1.
func valueOf[T any](w *World, id EntityID) int {
	p := storageFor[T](w).get(id)
	if p == nil {
		return -1
	}
	switch c := any(p).(type) {
	case *gA:
		return c.V
	case *gB:
		return c.V
	case *gC:
		return c.V
	case *gT:
		return c.V
	}
	return -1
}

func TestGroupEnterLeaveEachMember(t *testing.T) {
	const n = 9
	mkA := func(i int) gA { return gA{i} }
	mkB := func(i int) gB { return gB{i} }
	mkT := func(i int) gT { return gT{i} }
	// Entities enter in an order that makes most of them swap (odd
	// positions from the back first), then leave from the middle out.
	enter := []int{7, 5, 3, 1, 0, 8, 2, 6, 4}
	leave := []int{4, 0, 8, 2, 6, 1, 7, 3, 5}
	type run func(t *testing.T, via int, op string)
	generic := func(t *testing.T, w *World, g *pack, ids []EntityID, members, via int, op string, add func(i int), del func(i int)) {
		t.Helper()
		for k, i := range enter {
			add(i)
			checkGroup(t, g)
			if g.n != k+1 {
				t.Fatalf("after %d entities entered through member %d, n = %d", k+1, via, g.n)
			}
			checkPackValues(t, w, ids)
		}
		for k, i := range leave {
			del(i)
			checkGroup(t, g)
			if g.n != n-k-1 {
				t.Fatalf("after %d entities left through member %d by %s, n = %d", k+1, via, op, g.n)
			}
			checkPackValues(t, w, ids)
			for m := range members {
				if got := g.members[m].pos(ids[i]); (m == via) != (got < 0) {
					t.Fatalf("after %v left by %s of member %d: position in member %d = %d", ids[i], op, via, m, got)
				}
			}
		}
	}
	cases := []struct {
		name    string
		members int
		run     run
	}{
		{"two untracked members", 2, func(t *testing.T, via int, op string) {
			w, g, ids := packWorld(t, false, n, via, mkA, mkB)
			generic(t, w, g, ids, 2, via, op,
				func(i int) { viaMember(t, w, via, ids[i], i, "add", mkA, mkB) },
				func(i int) { viaMember(t, w, via, ids[i], i, op, mkA, mkB) })
		}},
		{"a tracked member", 2, func(t *testing.T, via int, op string) {
			w, g, ids := packWorld(t, false, n, via, mkT, mkB)
			generic(t, w, g, ids, 2, via, op,
				func(i int) { viaMember(t, w, via, ids[i], i, "add", mkT, mkB) },
				func(i int) { viaMember(t, w, via, ids[i], i, op, mkT, mkB) })
			if via != 0 {
				return
			}
			// Every gT was inserted, then deleted or removed, through
			// the group's swaps: tracking saw each entity once.
			mustNoErr(t, w.Run(func(v View[gT]) {
				ins, _ := v.Inserted()
				if ins.Count() != 0 {
					t.Errorf("%d inserted components left, want 0 (all gone)", ins.Count())
				}
				var gone int
				if op == "delete" {
					d, err := v.Deleted()
					mustNoErr(t, err)
					for range d {
						gone++
					}
				} else {
					r, err := v.Removed()
					mustNoErr(t, err)
					for range r {
						gone++
					}
				}
				if gone != n {
					t.Errorf("%s tracked %d components, want %d", op, gone, n)
				}
			}))
		}},
		{"three members", 3, func(t *testing.T, via int, op string) {
			w, g, ids := packWorld(t, true, n, via, mkA, mkB)
			generic(t, w, g, ids, 3, via, op,
				func(i int) { viaMember(t, w, via, ids[i], i, "add", mkA, mkB) },
				func(i int) { viaMember(t, w, via, ids[i], i, op, mkA, mkB) })
		}},
	}
	for _, tc := range cases {
		for via := range tc.members {
			for _, op := range []string{"delete", "remove"} {
				t.Run(tc.name+"/member "+string(rune('0'+via))+"/"+op, func(t *testing.T) { tc.run(t, via, op) })
			}
		}
	}
}

// TestGroupPinnedRefusalUnchanged checks that a View of one member pins
// it while a frame changes another: additions and removals that would
// move the pinned components are refused and change nothing, and once
// the frame is released the pack counts no pins and allows them again.
func TestGroupPinnedRefusalUnchanged(t *testing.T) {
	mkA := func(i int) gA { return gA{i} }
	mkB := func(i int) gB { return gB{i} }
	for _, tc := range []struct {
		name string
		op   func(ents EntitiesView, a ViewMut[gA], in, out EntityID) error
	}{
		{"AddComponent joining", func(ents EntitiesView, a ViewMut[gA], _, out EntityID) error {
			return a.AddComponent(ents, out, gA{99})
		}},
		{"AddComponentUnchecked joining", func(_ EntitiesView, a ViewMut[gA], _, out EntityID) error {
			return a.AddComponentUnchecked(out, gA{99})
		}},
		{"Delete leaving", func(_ EntitiesView, a ViewMut[gA], in, _ EntityID) error {
			return panicked(func() { a.Delete(in) })
		}},
		{"Remove leaving", func(_ EntitiesView, a ViewMut[gA], in, _ EntityID) error {
			return panicked(func() { a.Remove(in) })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, g, ids := packWorld(t, false, 6, -1, mkA, mkB)
			in := ids[2]
			out, err := w.AddEntity()
			mustNoErr(t, err)
			mustNoErr(t, AddComponent1(w, out, gB{6}))
			beforeA := append([]EntityID(nil), storageFor[gA](w).dense...)
			beforeB := append([]EntityID(nil), storageFor[gB](w).dense...)
			var ents EntitiesView
			var a ViewMut[gA]
			var b View[gB]
			release, err := w.Borrow(&ents, &a, &b)
			mustNoErr(t, err)
			if g.pins != 1 || g.index[1].readers != 1 {
				t.Fatalf("while the View of gB is held: pins %d, readers %d; want 1, 1", g.pins, g.index[1].readers)
			}
			var ge *GroupError
			if err := tc.op(ents, a, in, out); !errors.As(err, &ge) || ge.View != "View[ecs.gB]" {
				t.Fatalf("err = %v, want a *GroupError naming View[ecs.gB]", err)
			}
			release()
			if g.pins != 0 || g.index[1].readers != 0 || g.reader(0) != -1 {
				t.Fatalf("after release: pins %d, readers %d, reader %d; want 0, 0, -1", g.pins, g.index[1].readers, g.reader(0))
			}
			if g.n != 6 || !equalIDs(storageFor[gA](w).dense, beforeA) || !equalIDs(storageFor[gB](w).dense, beforeB) {
				t.Fatalf("a refused change moved components: n = %d", g.n)
			}
			checkGroup(t, g)
			// Allowed again once released.
			viaView(t, w, out, "add", gA{6})
			viaView(t, w, in, "delete", gA{})
			if g.n != 6 {
				t.Fatalf("after one join and one leave, n = %d, want 6", g.n)
			}
			checkGroup(t, g)
		})
	}
}

// panicked runs f and returns the error it panicked with, or nil.
func panicked(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err, _ = r.(error)
			if err == nil {
				err = errors.New("panicked with a non-error")
			}
		}
	}()
	f()
	return nil
}

func equalIDs(a, b []EntityID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
