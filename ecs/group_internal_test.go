package ecs

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"
)

type gA struct{ V int }
type gB struct{ V int }
type gC struct{ V int }

// gT tracks everything, to check that group swaps move timestamps along.
type gT struct{ V int }

func (gT) Tracking() Tracking { return TrackAll }

// checkGroup verifies a group's invariants: the first n positions of every
// member hold the same entities in the same order, each of them has every
// member component, and no entity past n has them all.
func checkGroup(t testing.TB, g *pack) {
	t.Helper()
	first := g.members[0].ids()
	for _, m := range g.members {
		ids := m.ids()
		if len(ids) < g.n {
			t.Fatalf("%s: %s has %d components, fewer than the group's %d", g.name, m.typeName(), len(ids), g.n)
		}
		for i := range g.n {
			if ids[i] != first[i] {
				t.Fatalf("%s: position %d is %v in %s but %v in %s", g.name, i, ids[i], m.typeName(), first[i], g.members[0].typeName())
			}
		}
	}
	for _, m := range g.members {
		for _, id := range m.ids()[g.n:] {
			all := true
			for _, o := range g.members {
				all = all && o.pos(id) >= 0
			}
			if all {
				t.Fatalf("%s: %v has every member type but is outside the packed range (n=%d)", g.name, id, g.n)
			}
		}
	}
}

func TestGroupErrors(t *testing.T) {
	w := NewWorld()
	if err := AddGroup2[gA, gB](w); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		add  func() error
		want string
	}{
		{"owned twice", func() error { return AddGroup2[gB, gC](w) }, "ecs.gB is already owned by Group[ecs.gA, ecs.gB]"},
		{"same type twice", func() error { return AddGroup2[gC, gC](w) }, "ecs.gC appears twice"},
		{"same type in a larger group", func() error { return AddGroup3[gC, gT, gC](w) }, "ecs.gC appears twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.add()
			if !errors.Is(err, ErrGroup) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrGroup containing %q", err, tc.want)
			}
			if g := storageFor[gC](w).pack; g != nil {
				t.Fatalf("gC was given group %s by a failed declaration", g.name)
			}
		})
	}
	var a ViewMut[gA]
	release, err := w.Borrow(&a)
	if err != nil {
		t.Fatal(err)
	}
	var be *BorrowError
	if err := AddGroup2[gC, gT](w); !errors.As(err, &be) {
		t.Fatalf("AddGroup2 while a view is borrowed: err = %v, want a *BorrowError", err)
	}
	release()
	if storageFor[gC](w).pack != nil || storageFor[gT](w).pack != nil {
		t.Fatal("a refused declaration changed the storages")
	}
	if n, ok, err := GroupLen[gC](w); err != nil || ok || n != 0 {
		t.Fatalf("GroupLen of an ungrouped type = %d, %v", n, ok)
	}
}

// TestGroupPacksAndJoins declares a group over a world that already has
// entities, and checks that joins over exactly the group's types use the
// packed range (in any order of the views) while others do not.
func TestGroupPacksAndJoins(t *testing.T) {
	w := NewWorld()
	want := map[EntityID]int{}
	for i := range 50 {
		switch i % 3 {
		case 0:
			id, _ := AddEntity2(w, gA{i}, gB{-i})
			want[id] = i
		case 1:
			_, _ = AddEntity1(w, gA{i})
		case 2:
			_, _ = AddEntity2(w, gB{i}, gC{i})
		}
	}
	if err := AddGroup2[gA, gB](w); err != nil {
		t.Fatal(err)
	}
	g := storageFor[gA](w).pack
	checkGroup(t, g)
	if n, ok, err := GroupLen[gB](w); err != nil || !ok || n != len(want) {
		t.Fatalf("GroupLen = %d, %v; want %d", n, ok, len(want))
	}
	err := w.Run(func(a View[gA], b View[gB], c View[gC]) {
		got := map[EntityID]int{}
		it := Join2(b, a)
		if it.jc.driver >= 0 {
			t.Errorf("Join2(b, a) over the group: driver = %d, want -1 (packed)", it.jc.driver)
		}
		for id, r := range it.WithID() {
			if r.A.V != -r.B.V {
				t.Errorf("%v: components of different entities: %v %v", id, r.A, r.B)
			}
			got[id] = r.B.V
		}
		if !maps.Equal(got, want) {
			t.Errorf("join over the group = %v, want %v", got, want)
		}
		if d := Join3(a, b, c).jc.driver; d < 0 {
			t.Error("Join3 with a type outside the group took the packed path")
		}
		if d := Join2(a, c).jc.driver; d < 0 {
			t.Error("Join2 of one member and another type took the packed path")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGroupKeepsTimestampsWithEntities checks that the swaps a group makes
// move tracking timestamps along with their components.
func TestGroupKeepsTimestampsWithEntities(t *testing.T) {
	w := NewWorld()
	if err := AddGroup2[gT, gA](w); err != nil {
		t.Fatal(err)
	}
	var ids []EntityID
	for i := range 10 {
		id, _ := AddEntity1(w, gT{i})
		ids = append(ids, id)
	}
	mark := func(id EntityID) {
		if err := w.Run(func(v ViewMut[gT]) { v.MustGet(id).V += 100 }); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Run(func(v ViewMut[gT]) { v.ClearAllInsertedAndModified() }); err != nil {
		t.Fatal(err)
	}
	mark(ids[7])
	mark(ids[3])
	// Giving gA to entities swaps them to the front of gT's storage.
	for _, i := range []int{9, 7, 0, 5} {
		if err := AddComponent1(w, ids[i], gA{i}); err != nil {
			t.Fatal(err)
		}
	}
	_, _, _ = Remove[gA](w, ids[9]) // swaps back out
	checkGroup(t, storageFor[gT](w).pack)
	if got := modifiedKeys(t, w, func(c *gT) int { return c.V }); !slices.Equal(got, []int{103, 107}) {
		t.Errorf("modified after group swaps = %v, want [103 107]", got)
	}
}

// modifiedKeys returns key of every component of T that w reports
// modified, sorted.
func modifiedKeys[T any, K cmp.Ordered](t *testing.T, w *World, key func(*T) K) []K {
	t.Helper()
	var got []K
	err := w.Run(func(v View[T]) {
		mod, err := v.Modified()
		if err != nil {
			t.Fatal(err)
		}
		for c := range mod.All() {
			got = append(got, key(c))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got
}

// TestGroupModel applies a fixed pseudo-random sequence of every storage
// change to a world with a group over gA, gB and a third type and to a map
// model, and checks after each step the group's invariants and that joins
// return what the model says. The third type is gC, untracked like the
// others, or gT, which tracks everything: then deleting from the untracked
// members (in one step, deletePacked) swaps the tracked member's
// timestamps, and removing from the tracked one takes the general path
// (leave, then a swap-remove). See FuzzGroups for the fuzzed version.
func TestGroupModel(t *testing.T) {
	for seed := range 20 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			ops := make([]byte, 400)
			x := uint32(seed*7919 + 1)
			for i := range ops {
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				ops[i] = byte(x)
			}
			t.Run("untracked", func(t *testing.T) { runGroupModel[gC](t, ops) })
			t.Run("tracked", func(t *testing.T) { runGroupModel[gT](t, ops) })
		})
	}
}

func FuzzGroups(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte("group me: add, remove, delete, strip, bulk, clear; again and again"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		runGroupModel[gC](t, ops)
		runGroupModel[gT](t, ops)
	})
}

// groupAdd gives the live entity id the component c through AddComponent1
// (path 0), ViewMut.AddComponent (1) or ViewMut.AddComponentUnchecked (2):
// each spells out the insertion's common case, and must leave the group to
// insert's general path.
func groupAdd[T any](t *testing.T, w *World, id EntityID, c T, path byte) {
	t.Helper()
	if path == 0 {
		if err := AddComponent1(w, id, c); err != nil {
			t.Fatalf("AddComponent1(%v): %v", id, err)
		}
		return
	}
	var ents EntitiesView
	var vm ViewMut[T]
	release, err := w.Borrow(&ents, &vm)
	if err != nil {
		t.Fatalf("Borrow: %v", err)
	}
	defer release()
	if path == 1 {
		err = vm.AddComponent(ents, id, c)
	} else {
		err = vm.AddComponentUnchecked(id, c)
	}
	if err != nil {
		t.Fatalf("path %d, adding to %v: %v", path, id, err)
	}
}

// gMaxIDs bounds the live entities of one input of runGroupModel (enough
// to pass the first sparse page, of 1,024 indices), and gMaxSteps its
// steps. Each step checks every entity, so an input's time grows with its
// steps times its entities: without the bounds, a 6.7 KB input of bulk
// additions took 4.6 s, and under the fuzzer's instrumentation it passed
// the 10 s after which Go's fuzzer stops an input as hung.
const (
	gMaxIDs   = 1200
	gMaxSteps = 400
)

// runGroupModel interprets ops two bytes at a time: an operation and an
// argument, up to gMaxSteps steps. C is the group's third type, gC or gT.
func runGroupModel[C ~struct{ V int }](t *testing.T, ops []byte) {
	w := NewWorld()
	type row struct {
		a, b, c *int
		cIns    int // *c when c was inserted (replacing keeps it)
	}
	model := map[EntityID]*row{}
	var live []EntityID
	grouped := false
	val := 0
	next := func() *int { val++; v := val; return &v }
	pick := func(arg byte) (EntityID, bool) {
		if len(live) == 0 {
			return NullID, false
		}
		return live[int(arg)%len(live)], true
	}
	for k := 0; k+1 < len(ops) && k/2 < gMaxSteps; k += 2 {
		op, arg := ops[k]%12, ops[k+1]
		switch op {
		case 0: // add an entity with a subset of the types
			if len(model) >= gMaxIDs {
				break
			}
			id, _ := w.AddEntity()
			r := &row{}
			if arg&1 != 0 {
				r.a = next()
				_ = AddComponent1(w, id, gA{*r.a})
			}
			if arg&2 != 0 {
				r.b = next()
				_ = AddComponent1(w, id, gB{*r.b})
			}
			if arg&4 != 0 {
				r.c = next()
				r.cIns = *r.c
				_ = AddComponent1(w, id, C{*r.c})
			}
			model[id] = r
			live = append(live, id)
		case 1, 2, 3: // add or replace one component, by one of three paths
			if id, ok := pick(arg); ok {
				v := next()
				path := ops[k] / 12 % 3
				switch op {
				case 1:
					model[id].a = v
					groupAdd(t, w, id, gA{*v}, path)
				case 2:
					model[id].b = v
					groupAdd(t, w, id, gB{*v}, path)
				case 3:
					if model[id].c == nil {
						model[id].cIns = *v
					}
					model[id].c = v
					groupAdd(t, w, id, C{*v}, path)
				}
			}
		case 4: // remove gA
			if id, ok := pick(arg); ok {
				got, had, _ := Remove[gA](w, id)
				if had != (model[id].a != nil) || had && got.V != *model[id].a {
					t.Fatalf("Remove[gA](%v) = %v, %v; model %v", id, got, had, model[id].a)
				}
				model[id].a = nil
			}
		case 5: // delete gB
			if id, ok := pick(arg); ok {
				_, _ = DeleteComponent[gB](w, id)
				model[id].b = nil
			}
		case 6: // delete C through a view
			if id, ok := pick(arg); ok {
				_ = w.Run(func(c ViewMut[C]) { c.Delete(id) })
				model[id].c = nil
			}
		case 7: // delete an entity
			if id, ok := pick(arg); ok {
				_ = w.DeleteEntity(id)
				delete(model, id)
				live = slices.DeleteFunc(live, func(x EntityID) bool { return x == id })
			}
		case 8: // strip
			if id, ok := pick(arg); ok {
				_ = w.Strip(id)
				model[id] = &row{}
			}
		case 9: // bulk add entities with all three
			n := min(int(arg%5)+1, gMaxIDs-len(model))
			if n <= 0 {
				break
			}
			as, bs, cs := make([]gA, n), make([]gB, n), make([]C, n)
			rows := make([]*row, n)
			for i := range n {
				rows[i] = &row{a: next(), b: next(), c: next()}
				rows[i].cIns = *rows[i].c
				as[i], bs[i], cs[i] = gA{*rows[i].a}, gB{*rows[i].b}, C{*rows[i].c}
			}
			ids, err := BulkAddEntity3(w, as, bs, cs)
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range ids {
				model[id] = rows[i]
				live = append(live, id)
			}
		case 10: // clear one storage
			if arg%8 == 0 {
				_ = w.Run(func(b ViewMut[gB]) { b.Clear() })
				for _, r := range model {
					r.b = nil
				}
			}
		case 11: // declare the group (once)
			if !grouped {
				if err := AddGroup3[gA, gB, C](w); err != nil {
					t.Fatal(err)
				}
				grouped = true
			}
		}
		if grouped {
			checkGroup(t, storageFor[gA](w).pack)
		}
		checkLayouts(t, w)
		want := map[EntityID][3]int{}
		for id, r := range model {
			if r.a != nil && r.b != nil && r.c != nil {
				want[id] = [3]int{*r.a, *r.b, *r.c}
			}
		}
		got := map[EntityID][3]int{}
		Each3(w, func(id EntityID, a *gA, b *gB, c *C) { got[id] = [3]int{a.V, b.V, struct{ V int }(*c).V} })
		if !maps.Equal(got, want) {
			t.Fatalf("step %d (op %d): Each3 = %v, want %v", k/2, op, got, want)
		}
		if grouped {
			if n, _, err := GroupLen[C](w); err != nil || n != len(want) {
				t.Fatalf("step %d: GroupLen = %d, want %d", k/2, n, len(want))
			}
		}
		wantAB := 0
		for _, r := range model {
			if r.a != nil && r.b != nil {
				wantAB++
			}
		}
		if err := w.Run(func(a View[gA], b View[gB]) {
			if n := Join2(a, b).Count(); n != wantAB {
				t.Fatalf("step %d: Join2(gA, gB).Count() = %d, want %d", k/2, n, wantAB)
			}
		}); err != nil {
			t.Fatal(err)
		}
		// ViewMut.Lookup over the live entities while, in the same
		// system, each one's gB is deleted and given back: the entity
		// leaves the group and joins it again, moving gA's components
		// under the loop. Every id must still give its own gA; the model
		// is left as it was. (With a View[gA] there, the deletion panics:
		// TestGroupMovesUnderAViewPanic.)
		if err := w.Run(func(ents EntitiesView, a ViewMut[gA], b ViewMut[gB]) {
			var seen []EntityID
			for id, c := range a.Lookup(live) {
				if r := model[id]; r.a == nil || c.V != *r.a {
					t.Fatalf("step %d: ViewMut[gA].Lookup gave %v for %v; model %v", k/2, c.V, id, r.a)
				}
				seen = append(seen, id)
				if r := model[id]; r.b != nil {
					b.Delete(id)
					if err := b.AddComponent(ents, id, gB{*r.b}); err != nil {
						t.Fatal(err)
					}
				}
			}
			want := slices.DeleteFunc(slices.Clone(live), func(id EntityID) bool { return model[id].a == nil })
			if !slices.Equal(seen, want) {
				t.Fatalf("step %d: ViewMut[gA].Lookup visited %v, want %v", k/2, seen, want)
			}
		}); err != nil {
			t.Fatal(err)
		}
		if grouped {
			checkGroup(t, storageFor[gA](w).pack)
		}
		// A tracked C's insertion timestamps stay with their entities
		// through the group's swaps: ordered by when the model inserted
		// them, they never decrease (outside systems every insertion
		// takes a new tick; a bulk insertion shares one).
		if tr := storageFor[C](w).track; tr != nil {
			s := storageFor[C](w)
			if len(tr.insertedAt) != len(s.dense) || len(tr.modifiedAt) != len(s.dense) {
				t.Fatalf("step %d: %d components but %d insertion and %d modification timestamps", k/2, len(s.dense), len(tr.insertedAt), len(tr.modifiedAt))
			}
			pos := make([]int, len(s.dense))
			for i := range pos {
				pos[i] = i
			}
			slices.SortFunc(pos, func(i, j int) int { return model[s.dense[i]].cIns - model[s.dense[j]].cIns })
			for k2 := 1; k2 < len(pos); k2++ {
				if prev, cur := tr.insertedAt[pos[k2-1]], tr.insertedAt[pos[k2]]; cur < prev {
					t.Fatalf("step %d: %v was inserted after %v but has the older timestamp (%d < %d)", k/2, s.dense[pos[k2]], s.dense[pos[k2-1]], cur, prev)
				}
			}
		}
	}
}

func TestGroupPacked(t *testing.T) {
	w := NewWorld()
	if err := AddGroup2[gT, gA](w); err != nil {
		t.Fatal(err)
	}
	both := map[EntityID]int{}
	for i := range 20 {
		id, _ := AddEntity1(w, gT{i})
		if i%4 != 0 {
			_ = AddComponent1(w, id, gA{i})
			both[id] = i
		}
	}
	err := w.Run(func(tv ViewMut[gT], a View[gA], b View[gB]) {
		tv.ClearAllModified()
		ids, ts, as, ok := Join2(a, tv).Packed()
		if !ok {
			t.Fatal("Join2 over the group's types: Packed not ok")
		}
		if len(ids) != len(both) || len(ts) != len(ids) || len(as) != len(ids) {
			t.Fatalf("Packed lengths %d %d %d, want %d", len(ids), len(ts), len(as), len(both))
		}
		for i, id := range ids {
			if as[i].V != both[id] || ts[i].V != both[id] {
				t.Errorf("Packed[%d] = %v %v %v, want %d", i, id, as[i], ts[i], both[id])
			}
		}
		mod, _ := tv.Modified()
		if got := mod.Count(); got != len(both) {
			t.Errorf("Packed through a ViewMut marked %d components, want %d", got, len(both))
		}
		cases := map[string]bool{}
		_, _, _, cases["Not filter"] = Join2(a, tv).Not(b).Packed()
		m, _ := tv.Modified()
		_, _, _, cases["Changed view"] = Join2(a, m).Packed()
		_, _, _, cases["not a group"] = Join2(a, b).Packed()
		for name, ok := range cases {
			if ok {
				t.Errorf("%s: Packed ok, want false", name)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGroupParEach runs a join over a group in parallel (small grain, so
// that it splits even on this small world) and checks that every member
// is visited once.
func TestGroupParEach(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	w := NewWorld()
	if err := AddGroup2[gA, gB](w); err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range 1000 {
		id, _ := AddEntity1(w, gA{i})
		if i%3 != 0 {
			_ = AddComponent1(w, id, gB{1})
			want += i
		}
	}
	err := w.Run(func(a ViewMut[gA], b View[gB]) {
		it := Join2(a, b)
		if it.jc.driver >= 0 {
			t.Fatalf("driver = %d, want the packed group", it.jc.driver)
		}
		it.ParEachMin(16, func(a *gA, b *gB) { a.V += b.V * 1_000_000 })
	})
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	_ = Each2(w, func(_ EntityID, a *gA, _ *gB) { got += a.V - 1_000_000 })
	if got != want {
		t.Fatalf("after ParEach: sum = %d, want %d (each member once)", got, want)
	}
}

// groupAddedMidBorrow returns a world with one entity having gA and gB,
// in which the first frame to borrow declares Group[gA, gB] between
// reading the group generation and borrowing (through borrowHook, reset
// when the test ends), and the count of the frames' borrow attempts.
func groupAddedMidBorrow(t *testing.T) (*World, *int) {
	w := NewWorld()
	_, err := BulkAddEntity2(w, []gA{{1}}, []gB{{2}})
	check(t, err)
	attempts := new(int)
	borrowHook = func() {
		if *attempts == 0 {
			check(t, AddGroup2[gA, gB](w))
		}
		*attempts++
	}
	t.Cleanup(func() { borrowHook = nil })
	return w, attempts
}

// A group declared after a frame read the group generation, but before
// it borrowed, is seen: the frame starts over, and its ViewMut of a
// member borrows the other member, so a View of it elsewhere is refused.
func TestFrameSeesAGroupAddedWhileItBorrows(t *testing.T) {
	w, attempts := groupAddedMidBorrow(t)
	var b ViewMut[gB]
	release, err := w.Borrow(&b)
	check(t, err)
	defer release()
	if *attempts != 2 {
		t.Fatalf("the frame borrowed %d times, want 2 (once more after the group was added)", *attempts)
	}
	var a View[gA]
	if _, err := w.Borrow(&a); !errors.Is(err, ErrBorrowConflict) {
		t.Fatalf("View[gA] beside ViewMut[gB] after the group was added: got %v, want a borrow conflict", err)
	}
}

// hookedMut is a custom view writing gA, counting its hooks.
type hookedMut struct {
	A                 ViewMut[gA]
	borrows, releases *int
}

func (h *hookedMut) OnBorrow() error { *h.borrows++; return nil }
func (h *hookedMut) OnRelease()      { *h.releases++ }

// A frame that starts over because a group was declared while it
// borrowed runs its custom views' OnBorrow once, after it is borrowed
// for good: the hook never sees a ViewMut without its partner borrows.
func TestFrameRunsHooksOnceBorrowed(t *testing.T) {
	w, attempts := groupAddedMidBorrow(t)
	var borrows, releases int
	h := hookedMut{borrows: &borrows, releases: &releases}
	release, err := w.Borrow(&h)
	check(t, err)
	if *attempts != 2 || borrows != 1 || releases != 0 {
		t.Fatalf("attempts %d, OnBorrow %d, OnRelease %d; want 2, 1, 0", *attempts, borrows, releases)
	}
	release()
	if releases != 1 {
		t.Fatalf("OnRelease ran %d times, want 1", releases)
	}
}
