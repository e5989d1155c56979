package ecs_test

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The types of the sort, retain and drain tests.
type (
	soV   struct{ V int }
	soT   struct{ V int } // tracks everything
	soF   struct{ F float64 }
	soG1  struct{ V int } // soG1 and soG2 form a group
	soG2  struct{ V int }
	soOth struct{ V int }
)

func (soT) Tracking() ecs.Tracking { return ecs.TrackAll }

// soWorld returns a world whose entities have the soV values vals, in
// order, and their ids.
func soWorld(t *testing.T, vals ...int) (*ecs.World, []ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for _, v := range vals {
		id, err := ecs.AddEntity1(w, soV{v})
		must(t, err)
		ids = append(ids, id)
	}
	return w, ids
}

// soValues returns the values of T's storage in storage order, through
// a View's Slice and All (which must agree).
func soValues(t *testing.T, w *ecs.World) []int {
	t.Helper()
	var got, viaAll []int
	must(t, w.Run(func(v ecs.View[soV]) {
		for _, c := range v.Slice() {
			got = append(got, c.V)
		}
		for c := range v.All() {
			viaAll = append(viaAll, c.V)
		}
	}))
	deepEqual(t, "All against Slice", viaAll, got)
	return got
}

// TestSortFuncOrders: table tests of SortFunc and SortByKey on an
// ordinary storage: the values come out sorted, stably, and each entity
// keeps its own value.
func TestSortFuncOrders(t *testing.T) {
	byV := func(a, b *soV) int { return cmp.Compare(a.V, b.V) }
	byTens := func(a, b *soV) int { return cmp.Compare(a.V/10, b.V/10) }
	for _, tc := range []struct {
		name  string
		vals  []int
		cmp   func(a, b *soV) int
		key   func(*soV) int
		want  []int
		order []int // the positions of vals, in the expected storage order
	}{
		{name: "empty", cmp: byV},
		{name: "one", vals: []int{7}, cmp: byV, want: []int{7}, order: []int{0}},
		{name: "sorted", vals: []int{1, 2, 3}, cmp: byV, want: []int{1, 2, 3}, order: []int{0, 1, 2}},
		{name: "reversed", vals: []int{3, 2, 1}, cmp: byV, want: []int{1, 2, 3}, order: []int{2, 1, 0}},
		{name: "stable ties", vals: []int{21, 11, 22, 12, 13}, cmp: byTens, want: []int{11, 12, 13, 21, 22}, order: []int{1, 3, 4, 0, 2}},
		{name: "all equal", vals: []int{5, 5, 5}, cmp: func(a, b *soV) int { return 0 }, want: []int{5, 5, 5}, order: []int{0, 1, 2}},
		{name: "key", vals: []int{2, -1, 0}, key: func(c *soV) int { return c.V }, want: []int{-1, 0, 2}, order: []int{1, 2, 0}},
		{name: "key descending, ties stable", vals: []int{1, 3, 1, 3}, key: func(c *soV) int { return -c.V }, want: []int{3, 3, 1, 1}, order: []int{1, 3, 0, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, ids := soWorld(t, tc.vals...)
			must(t, w.Run(func(vm ecs.ViewMut[soV]) error {
				if tc.key != nil {
					return ecs.SortByKey(vm, tc.key)
				}
				return vm.SortFunc(tc.cmp)
			}))
			deepEqual(t, "values", soValues(t, w), tc.want)
			var wantIDs []ecs.EntityID
			for _, k := range tc.order {
				wantIDs = append(wantIDs, ids[k])
			}
			deepEqual(t, "ids", ecs.OrderOf[soV](w), wantIDs)
			for k, id := range ids {
				c, err := ecs.Get[soV](w, id)
				must(t, err)
				equal(t, "value of "+id.String(), c.V, tc.vals[k])
			}
			must(t, ecs.CheckLayouts(w))
		})
	}
}

// TestSortByKeyFloats: keys in cmp.Compare's order, NaN first.
func TestSortByKeyFloats(t *testing.T) {
	w := ecs.NewWorld()
	for _, f := range []float64{2, math.NaN(), -1, math.Inf(1), 0} {
		_, err := ecs.AddEntity1(w, soF{f})
		must(t, err)
	}
	var got []float64
	must(t, w.Run(func(vm ecs.ViewMut[soF]) error {
		if err := ecs.SortByKey(vm, func(c *soF) float64 { return c.F }); err != nil {
			return err
		}
		for c := range vm.All() {
			got = append(got, c.F)
		}
		return nil
	}))
	isTrue(t, math.IsNaN(got[0]), "NaN not first: %v", got)
	deepEqual(t, "rest", got[1:], []float64{-1, 0, 2, math.Inf(1)})
}

// TestSortIterationFollows: WithID, IDs and a join driven by the sorted
// storage follow its order; the storage keeps it at a sync point, where
// re-alignment would otherwise sort it in another storage's order, until
// SortAs hands it back.
func TestSortIterationFollows(t *testing.T) {
	w := ecs.NewWorld()
	ecs.SetAlignMinMisses(w, 1)
	var ids []ecs.EntityID
	for i := range 200 {
		id, err := ecs.AddEntity2(w, soV{-i}, soOth{i})
		must(t, err)
		ids = append(ids, id)
	}
	// soOth is the shorter storage: joins are driven by it.
	for _, id := range ids[:10] {
		_, err := ecs.DeleteComponent[soOth](w, id)
		must(t, err)
	}
	must(t, w.Run(func(vm ecs.ViewMut[soV]) error {
		return ecs.SortByKey(vm, func(c *soV) int { return c.V })
	}))
	want := slices.Clone(ids)
	slices.Reverse(want)
	deepEqual(t, "IDs after the sort", ecs.OrderOf[soV](w), want)
	must(t, w.Run(func(v ecs.View[soV]) {
		var got []ecs.EntityID
		for id := range v.WithID() {
			got = append(got, id)
		}
		deepEqual(t, "WithID", got, want)
	}))
	// A join driven by soOth misses every guess in soV: it asks for
	// re-alignment, which the end of Run would do; the sort stays.
	for range 3 {
		must(t, w.Run(func(v ecs.View[soV], o ecs.View[soOth]) {
			n := 0
			for range ecs.Join2(o, v).All() {
				n++
			}
			equal(t, "joined", n, 190)
		}))
	}
	deepEqual(t, "order after joins and sync points", ecs.OrderOf[soV](w), want)
	// SortAs sorts it, and hands it back to re-alignment.
	_, err := ecs.SortAs[soV, soOth](w)
	must(t, err)
	deepEqual(t, "order after SortAs", ecs.OrderOf[soV](w)[:190], ecs.OrderOf[soOth](w))
}

// TestSortTrackingMoves: after a sort, every entity keeps its insertion
// and modification state, and nothing is marked modified.
func TestSortTrackingMoves(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 20 {
		id, err := ecs.AddEntity1(w, soT{i})
		must(t, err)
		ids = append(ids, id)
	}
	must(t, w.Run(func(vm ecs.ViewMut[soT]) { vm.ClearAllInserted() }))
	// Half are inserted again (after the clear), a few modified.
	for _, id := range ids[:10] {
		_, err := ecs.DeleteComponent[soT](w, id)
		must(t, err)
		must(t, ecs.AddComponent1(w, id, soT{int(id.Index())}))
	}
	must(t, w.Run(func(vm ecs.ViewMut[soT]) {
		vm.MustGet(ids[3]).V += 0
		vm.MustGet(ids[15]).V += 0
	}))
	state := func() (ins, mod []ecs.EntityID) {
		must(t, w.Run(func(v ecs.View[soT]) {
			i, err := v.Inserted()
			must(t, err)
			for id := range i.WithID() {
				ins = append(ins, id)
			}
			m, err := v.Modified()
			must(t, err)
			for id := range m.WithID() {
				mod = append(mod, id)
			}
		}))
		return sorted(ins), sorted(mod)
	}
	ins, mod := state()
	equal(t, "inserted before", len(ins), 10)
	deepEqual(t, "modified before", mod, sorted([]ecs.EntityID{ids[3], ids[15]}))
	must(t, w.Run(func(vm ecs.ViewMut[soT]) error {
		return vm.SortFunc(func(a, b *soT) int { return cmp.Compare(b.V, a.V) })
	}))
	ins2, mod2 := state()
	deepEqual(t, "inserted after", ins2, ins)
	deepEqual(t, "modified after", mod2, mod)
}

// TestSortGroup: sorting a member sorts the group: the packed range in
// every member in the same order, then the member's other components.
func TestSortGroup(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddGroup2[soG1, soG2](w))
	var ids []ecs.EntityID
	for i := range 12 {
		id, err := ecs.AddEntity1(w, soG1{(i * 7) % 12})
		must(t, err)
		ids = append(ids, id)
		if i%3 != 0 {
			must(t, ecs.AddComponent1(w, id, soG2{i}))
		}
	}
	n, _, err := ecs.GroupLen[soG1](w)
	must(t, err)
	equal(t, "group", n, 8)
	must(t, w.Run(func(vm ecs.ViewMut[soG1]) error {
		return ecs.SortByKey(vm, func(c *soG1) int { return c.V })
	}))
	g1, g2 := ecs.OrderOf[soG1](w), ecs.OrderOf[soG2](w)
	deepEqual(t, "packed ranges", g1[:n], g2[:n])
	must(t, w.Run(func(v1 ecs.View[soG1]) {
		s := v1.Slice()
		isTrue(t, slices.IsSortedFunc(s[:n], func(a, b soG1) int { return a.V - b.V }), "packed range not sorted: %v", s[:n])
		isTrue(t, slices.IsSortedFunc(s[n:], func(a, b soG1) int { return a.V - b.V }), "rest not sorted: %v", s[n:])
		// A group join sees the new order.
		var joined []ecs.EntityID
		var v2 ecs.View[soG2]
		release, err := w.Borrow(&v2)
		must(t, err)
		defer release()
		for id := range ecs.Join2(v1, v2).WithID() {
			joined = append(joined, id)
		}
		deepEqual(t, "group join", joined, g1[:n])
	}))
	for i, id := range ids {
		c, err := ecs.Get[soG1](w, id)
		must(t, err)
		equal(t, "value", c.V, (i*7)%12)
	}
	must(t, ecs.CheckLayouts(w))
}

// TestSortRefusals: each refusal names what was wrong and changes
// nothing; a panic in the caller's function changes nothing and holds no
// borrow.
func TestSortRefusals(t *testing.T) {
	before := []int{3, 1, 2}
	w, ids := soWorld(t, before...)
	unchanged := func(what string) {
		t.Helper()
		deepEqual(t, what+": values", soValues(t, w), before)
		deepEqual(t, what+": ids", ecs.OrderOf[soV](w), ids)
	}
	must(t, w.Run(func(vm ecs.ViewMut[soV]) {
		errIs(t, vm.SortFunc(nil), ecs.ErrNilFunc)
		errHas(t, vm.SortFunc(nil), "ViewMut[ecs_test.soV].SortFunc", "cmp is nil")
		errIs(t, ecs.SortByKey[soV, int](vm, nil), ecs.ErrNilFunc)
		// A compare function that removes a component.
		err := vm.SortFunc(func(a, b *soV) int {
			vm.Remove(ids[0])
			return cmp.Compare(a.V, b.V)
		})
		errIs(t, err, ecs.ErrSortRefused)
		errHas(t, err, "added or removed ecs_test.soV components")
	}))
	// Put the removed component back, as it was.
	w, ids = soWorld(t, before...)
	must(t, w.Run(func(vm ecs.ViewMut[soV], ents ecs.EntitiesView) {
		err := ecs.SortByKey(vm, func(c *soV) int {
			if c.V == 1 {
				must(t, vm.AddComponent(ents, ids[1], soV{1})) // a replacement moves nothing
			}
			return c.V
		})
		must(t, err)
	}))
	deepEqual(t, "a key function replacing a component", soValues(t, w), []int{1, 2, 3})
	w, ids = soWorld(t, before...)
	for name, sort := range map[string]func(ecs.ViewMut[soV]) error{
		"SortFunc":  func(vm ecs.ViewMut[soV]) error { return vm.SortFunc(func(a, b *soV) int { panic("cmp") }) },
		"SortByKey": func(vm ecs.ViewMut[soV]) error { return ecs.SortByKey(vm, func(*soV) int { panic("key") }) },
	} {
		r := mustPanic(t, func() { _ = w.Run(func(vm ecs.ViewMut[soV]) error { return sort(vm) }) })
		isTrue(t, r != nil, "%s: no panic", name)
		unchanged(name + " panicking")
		nothingHeld(t, w)
	}
}

// TestSortGroupPinned: a system holding a View of another member of the
// group gets a *GroupError from the sort, which changes nothing.
func TestSortGroupPinned(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddGroup2[soG1, soG2](w))
	for i := range 5 {
		_, err := ecs.AddEntity2(w, soG1{-i}, soG2{i})
		must(t, err)
	}
	order := ecs.OrderOf[soG1](w)
	must(t, w.Run(func(vm ecs.ViewMut[soG1], v ecs.View[soG2]) {
		err := vm.SortFunc(func(a, b *soG1) int { return cmp.Compare(a.V, b.V) })
		ge := errAs[*ecs.GroupError](t, err)
		equal(t, "view", ge.View, "View[ecs_test.soG2]")
		errHas(t, err, "SortFunc", "sorting the ecs_test.soG1 storage moves the ecs_test.soG2 components")
		_, err = vm.Retain(func(ecs.EntityID, *soG1) bool { return false })
		errAs[*ecs.GroupError](t, err)
	}))
	deepEqual(t, "order", ecs.OrderOf[soG1](w), order)
	equal(t, "count", len(ecs.OrderOf[soG2](w)), 5)
}

// TestRetain: table tests: the components kept keep their order, the
// count is that of the deleted, the entities stay alive.
func TestRetain(t *testing.T) {
	for _, tc := range []struct {
		name string
		vals []int
		keep func(ecs.EntityID, *soV) bool
		want []int
	}{
		{"empty", nil, func(ecs.EntityID, *soV) bool { return false }, nil},
		{"all kept", []int{1, 2, 3}, func(ecs.EntityID, *soV) bool { return true }, []int{1, 2, 3}},
		{"none kept", []int{1, 2, 3}, func(ecs.EntityID, *soV) bool { return false }, nil},
		{"odd kept", []int{5, 2, 7, 4, 1}, func(_ ecs.EntityID, c *soV) bool { return c.V%2 == 1 }, []int{5, 7, 1}},
		{"first deleted", []int{0, 1, 2}, func(id ecs.EntityID, _ *soV) bool { return id.Index() != 0 }, []int{1, 2}},
		{"last deleted", []int{0, 1, 2}, func(id ecs.EntityID, _ *soV) bool { return id.Index() != 2 }, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, ids := soWorld(t, tc.vals...)
			var n int
			must(t, w.Run(func(vm ecs.ViewMut[soV]) (err error) {
				n, err = vm.Retain(tc.keep)
				return err
			}))
			equal(t, "deleted", n, len(tc.vals)-len(tc.want))
			got := soValues(t, w)
			deepEqual(t, "kept", got, tc.want)
			equal(t, "alive", w.EntityCount(), len(ids))
			must(t, ecs.CheckLayouts(w))
		})
	}
}

// TestRetainTracking: the deleted components are recorded as deletions
// with their values; the kept keep their timestamps.
func TestRetainTracking(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 10 {
		id, err := ecs.AddEntity1(w, soT{i})
		must(t, err)
		ids = append(ids, id)
	}
	must(t, w.Run(func(vm ecs.ViewMut[soT]) { vm.ClearAllInserted() }))
	must(t, w.Run(func(vm ecs.ViewMut[soT]) { vm.MustGet(ids[7]).V = 7 }))
	must(t, w.Run(func(vm ecs.ViewMut[soT]) error {
		_, err := vm.Retain(func(_ ecs.EntityID, c *soT) bool { return c.V%3 != 0 })
		return err
	}))
	must(t, w.Run(func(v ecs.View[soT]) {
		del, err := v.Deleted()
		must(t, err)
		got := map[ecs.EntityID]int{}
		for id, c := range del {
			got[id] = c.V
		}
		deepEqual(t, "deleted", got, map[ecs.EntityID]int{ids[0]: 0, ids[3]: 3, ids[6]: 6, ids[9]: 9})
		m, err := v.Modified()
		must(t, err)
		var mod []ecs.EntityID
		for id := range m.WithID() {
			mod = append(mod, id)
		}
		deepEqual(t, "modified", mod, []ecs.EntityID{ids[7]})
		equal(t, "inserted", must1(t, v.Inserted).Count(), 0)
	}))
}

func must1[R any](t *testing.T, f func() (R, error)) R {
	t.Helper()
	r, err := f()
	must(t, err)
	return r
}

// TestRetainRefusals: nil keep, keep changing the storage, and a panic in
// keep delete nothing; the panic holds no borrow.
func TestRetainRefusals(t *testing.T) {
	before := []int{1, 2, 3}
	w, ids := soWorld(t, before...)
	must(t, w.Run(func(vm ecs.ViewMut[soV]) {
		_, err := vm.Retain(nil)
		errIs(t, err, ecs.ErrNilFunc)
		errHas(t, err, "ViewMut[ecs_test.soV].Retain", "keep is nil")
		n, err := vm.Retain(func(id ecs.EntityID, _ *soV) bool { vm.Delete(ids[2]); return false })
		errIs(t, err, ecs.ErrSortRefused)
		equal(t, "deleted", n, 0)
	}))
	deepEqual(t, "after a keep that deleted one", soValues(t, w), []int{1, 2})
	w, _ = soWorld(t, before...)
	mustPanic(t, func() {
		_ = w.Run(func(vm ecs.ViewMut[soV]) error {
			_, err := vm.Retain(func(_ ecs.EntityID, c *soV) bool {
				if c.V == 2 {
					panic("keep")
				}
				return false
			})
			return err
		})
	})
	deepEqual(t, "after a panic", soValues(t, w), before)
	nothingHeld(t, w)
}

// TestRetainGroup: Retain in a group member keeps the group packed.
func TestRetainGroup(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddGroup2[soG1, soG2](w))
	for i := range 10 {
		id, err := ecs.AddEntity1(w, soG1{i})
		must(t, err)
		if i%2 == 0 {
			must(t, ecs.AddComponent1(w, id, soG2{i}))
		}
	}
	var n int
	must(t, w.Run(func(vm ecs.ViewMut[soG1]) (err error) {
		n, err = vm.Retain(func(_ ecs.EntityID, c *soG1) bool { return c.V%4 != 0 })
		return err
	}))
	equal(t, "deleted", n, 3)
	g, _, err := ecs.GroupLen[soG1](w)
	must(t, err)
	equal(t, "group", g, 2)
	deepEqual(t, "packed", ecs.OrderOf[soG1](w)[:g], ecs.OrderOf[soG2](w)[:g])
	must(t, ecs.CheckLayouts(w))
}

// TestDrain: Drain returns every component with its entity in storage
// order, empties the storage (which takes components again), records
// removals, and DrainInto appends.
func TestDrain(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 5 {
		id, err := ecs.AddEntity1(w, soT{i * 10})
		must(t, err)
		ids = append(ids, id)
	}
	must(t, w.Run(func(vm ecs.ViewMut[soT]) error {
		return vm.SortFunc(func(a, b *soT) int { return cmp.Compare(b.V, a.V) })
	}))
	order := ecs.OrderOf[soT](w)
	must(t, w.Run(func(vm ecs.ViewMut[soT], ents ecs.EntitiesView) {
		gotIDs, gotVals := vm.Drain()
		deepEqual(t, "ids", gotIDs, order)
		deepEqual(t, "values", gotVals, []soT{{40}, {30}, {20}, {10}, {0}})
		equal(t, "left", vm.Len(), 0)
		a, b := vm.Drain()
		isTrue(t, a == nil && b == nil, "draining an empty storage returned %v %v", a, b)
		must(t, vm.AddComponent(ents, ids[2], soT{7}))
		x, y := vm.DrainInto([]ecs.EntityID{ids[0]}, []soT{{1}})
		deepEqual(t, "appended", x, []ecs.EntityID{ids[0], ids[2]})
		deepEqual(t, "appended values", y, []soT{{1}, {7}})
	}))
	equal(t, "alive", w.EntityCount(), 5)
	must(t, w.Run(func(v ecs.View[soT]) {
		rem, err := v.Removed()
		must(t, err)
		var got []ecs.EntityID
		for id := range rem {
			got = append(got, id)
		}
		deepEqual(t, "removed", sorted(got), sorted(append(slices.Clone(ids), ids[2])))
		del, err := v.Deleted()
		must(t, err)
		for id := range del {
			t.Errorf("%v recorded as deleted", id)
		}
	}))
	must(t, ecs.CheckLayouts(w))
}

// TestDrainGroup: draining a member empties the group; the other member
// keeps its components, and the group fills again.
func TestDrainGroup(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddGroup2[soG1, soG2](w))
	var ids []ecs.EntityID
	for i := range 4 {
		id, err := ecs.AddEntity2(w, soG1{i}, soG2{i})
		must(t, err)
		ids = append(ids, id)
	}
	must(t, w.Run(func(vm ecs.ViewMut[soG1]) {
		got, _ := vm.Drain()
		equal(t, "drained", len(got), 4)
	}))
	g, _, err := ecs.GroupLen[soG1](w)
	must(t, err)
	equal(t, "group after", g, 0)
	equal(t, "other member", len(ecs.OrderOf[soG2](w)), 4)
	must(t, ecs.AddComponent1(w, ids[3], soG1{3}))
	g, _, err = ecs.GroupLen[soG1](w)
	must(t, err)
	equal(t, "group refilled", g, 1)
	must(t, ecs.CheckLayouts(w))
}
