package ecs_test

// Edge cases and bad input, mostly as tables: id reuse, stale and
// never-issued ids in every operation that takes an id, tags, a million
// ids, sparse ids, borrow conflicts, bad systems, the Must form, and views
// used after release.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/slipway-ecs/slipway/ecs"
)

// knownBug skips a test that shows a bug reported to the owner of the code
// it tests, unless SLIPWAY_RUN_BUGS=1 (to check a fix: the test must then
// pass, after which the call should go).
func knownBug(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("SLIPWAY_RUN_BUGS") != "1" {
		t.Skip("bug: " + what)
	}
}

type edgeTag struct{}
type edgeOther struct{}

// snapshot describes everything observable in w for the types the edge
// tests use: live entities and every component, sorted.
func snapshot(t *testing.T, w *ecs.World) string {
	t.Helper()
	var ents ecs.EntitiesView
	var p ecs.View[Pos]
	var v ecs.View[Vel]
	var g ecs.View[edgeTag]
	var n ecs.View[int]
	release, err := w.Borrow(&ents, &p, &v, &g, &n)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	defer release()
	var b strings.Builder
	fmt.Fprintf(&b, "live %v\n", slices.Collect(ents.All()))
	list := func(name string, ids []ecs.EntityID, val func(int) string) {
		rows := make([]string, len(ids))
		for i, id := range ids {
			rows[i] = fmt.Sprintf("%v=%s", id, val(i))
		}
		slices.Sort(rows)
		fmt.Fprintf(&b, "%s %v\n", name, rows)
	}
	list("Pos", p.IDs(), func(i int) string { return fmt.Sprint(p.Slice()[i]) })
	list("Vel", v.IDs(), func(i int) string { return fmt.Sprint(v.Slice()[i]) })
	list("tag", g.IDs(), func(int) string { return "{}" })
	list("int", n.IDs(), func(i int) string { return fmt.Sprint(n.Slice()[i]) })
	return b.String()
}

// TestEdgeIDReuse: a deleted entity's index is reused with the generation
// bumped; the old id never resolves to the new entity.
func TestEdgeIDReuse(t *testing.T) {
	cases := []struct {
		name   string
		cycles int
	}{{"once", 1}, {"twice", 2}, {"a hundred times", 100}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			keep, err := ecs.AddEntity1(w, Pos{-1, -1})
			must(t, err)
			id, err := ecs.AddEntity1(w, Pos{0, 0})
			must(t, err)
			olds := []ecs.EntityID{id}
			for k := 1; k <= c.cycles; k++ {
				must(t, w.DeleteEntity(id))
				next, err := ecs.AddEntity1(w, Pos{float32(k), 0})
				must(t, err)
				equal(t, "index reused", next.Index(), id.Index())
				equal(t, "generation bumped", next.Generation(), id.Generation()+1)
				isTrue(t, next != id, "same id after reuse")
				id = next
				olds = append(olds, id)
			}
			equal(t, "generation after all cycles", id.Generation(), uint32(c.cycles))
			equal(t, "EntityCount", w.EntityCount(), 2)
			for _, old := range olds[:len(olds)-1] {
				isTrue(t, !w.IsAlive(old), "stale %v alive", old)
				_, err := ecs.Get[Pos](w, old)
				errIs(t, err, ecs.ErrDeadEntity)
			}
			p, err := ecs.Get[Pos](w, id)
			must(t, err)
			equal(t, "current entity's Pos", p, Pos{float32(c.cycles), 0})
			p, err = ecs.Get[Pos](w, keep)
			must(t, err)
			equal(t, "untouched entity", p, Pos{-1, -1})
		})
	}
}

// badIDs builds a world and the ids that name no live entity in it:
// stale ids (their slot reused by a newer entity, or free), a
// never-issued index, a future generation of a live slot, and NullID.
func badIDs(t *testing.T) (*ecs.World, map[string]ecs.EntityID, ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	a, err := ecs.AddEntity2(w, Pos{1, 1}, Vel{1, 1})
	must(t, err)
	live, err := ecs.AddEntity3(w, Pos{2, 2}, Vel{2, 2}, edgeTag{})
	must(t, err)
	c, err := ecs.AddEntity2(w, Pos{3, 3}, 3)
	must(t, err)
	must(t, w.DeleteEntity(a))
	reuser, err := ecs.AddEntity4(w, Pos{4, 4}, Vel{4, 4}, edgeTag{}, 4)
	must(t, err)
	if reuser.Index() != a.Index() {
		t.Fatalf("setup: %v did not reuse the slot of %v", reuser, a)
	}
	must(t, w.DeleteEntity(c))
	return w, map[string]ecs.EntityID{
		"stale, slot reused":    a,
		"stale, slot free":      c,
		"never issued":          ecs.EntityID(1000), // index 1000, generation 0
		"future generation":     ecs.EntityID(uint64(live.Generation()+3)<<32 | uint64(live.Index())),
		"NullID":                ecs.NullID,
		"index past every page": ecs.EntityID(uint64(1) << 31),
	}, live
}

// An idOp is one operation that takes an id. It returns the error it got
// (nil when the operation reports absence with false, which it checks) and
// whether it reported absence.
type idOp struct {
	name string
	// errs: the operation returns an error for a dead id; otherwise it
	// reports absence (false, nil pointer).
	errs bool
	run  func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool)
}

func idOps() []idOp {
	sys := func(t *testing.T, w *ecs.World, fn any) {
		t.Helper()
		must(t, w.Run(fn))
	}
	return []idOp{
		{"World.DeleteEntity", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) { return w.DeleteEntity(id), false }},
		{"World.Strip", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) { return w.Strip(id), false }},
		{"DeleteEntity", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) { return ecs.DeleteEntity(w, id), false }},
		{"Strip", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) { return ecs.Strip(w, id), false }},
		{"AddComponent1", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			return ecs.AddComponent1(w, id, Pos{9, 9}), false
		}},
		{"AddComponent2", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			return ecs.AddComponent2(w, id, Pos{9, 9}, Vel{9, 9}), false
		}},
		{"AddComponent3", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			return ecs.AddComponent3(w, id, Pos{9, 9}, Vel{9, 9}, edgeTag{}), false
		}},
		{"AddComponent4", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			return ecs.AddComponent4(w, id, Pos{9, 9}, Vel{9, 9}, edgeTag{}, 9), false
		}},
		{"AddComponent5", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			return ecs.AddComponent5(w, id, Pos{9, 9}, Vel{9, 9}, edgeTag{}, 9, c1{}), false
		}},
		{"AddComponent6", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			return ecs.AddComponent6(w, id, Pos{9, 9}, Vel{9, 9}, edgeTag{}, 9, c1{}, c2{}), false
		}},
		{"AddComponent7", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			return ecs.AddComponent7(w, id, Pos{9, 9}, Vel{9, 9}, edgeTag{}, 9, c1{}, c2{}, c3{}), false
		}},
		{"AddComponent8", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			return ecs.AddComponent8(w, id, Pos{9, 9}, Vel{9, 9}, edgeTag{}, 9, c1{}, c2{}, c3{}, c4{}), false
		}},
		{"Remove", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			v, ok, err := ecs.Remove[Pos](w, id)
			isTrue(t, !ok && v == Pos{}, "Remove reported %v, %v", v, ok)
			return err, false
		}},
		{"DeleteComponent", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			ok, err := ecs.DeleteComponent[Pos](w, id)
			isTrue(t, !ok, "DeleteComponent reported a component")
			return err, false
		}},
		{"Get", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			_, err := ecs.Get[Pos](w, id)
			return err, false
		}},
		{"Get2", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			_, _, err := ecs.Get2[Pos, Vel](w, id)
			return err, false
		}},
		{"Get3", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			_, _, _, err := ecs.Get3[Pos, Vel, edgeTag](w, id)
			return err, false
		}},
		{"Get4", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			_, _, _, _, err := ecs.Get4[Pos, Vel, edgeTag, int](w, id)
			return err, false
		}},
		{"Get8", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			_, _, _, _, _, _, _, _, err := ecs.Get8[Pos, Vel, edgeTag, int, c1, c2, c3, c4](w, id)
			return err, false
		}},
		{"Contains", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) {
			has, err := ecs.Contains[Pos](w, id)
			return err, !has
		}},
		{"World.IsAlive", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (error, bool) { return nil, !w.IsAlive(id) }},
		{"View.Contains", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.View[Pos]) { absent = !v.Contains(id) })
			return
		}},
		{"View.Get", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.View[Pos]) { p, ok := v.Get(id); absent = !ok && p == nil })
			return
		}},
		{"ViewMut.Contains", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.ViewMut[Vel]) { absent = !v.Contains(id) })
			return
		}},
		{"ViewMut.Get", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.ViewMut[Pos]) { p, ok := v.Get(id); absent = !ok && p == nil })
			return
		}},
		{"ViewMut.Remove", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.ViewMut[Pos]) { p, ok := v.Remove(id); absent = !ok && p == Pos{} })
			return
		}},
		{"ViewMut.Delete", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.ViewMut[edgeTag]) { absent = !v.Delete(id) })
			return
		}},
		{"ViewMut.AddComponent", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(e ecs.EntitiesView, v ecs.ViewMut[Pos]) { err = v.AddComponent(e, id, Pos{9, 9}) })
			return
		}},
		{"ViewMut.AddComponent, checked by an EntitiesViewMut", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(e ecs.EntitiesViewMut, v ecs.ViewMut[Pos]) { err = v.AddComponent(e, id, Pos{9, 9}) })
			return
		}},
		{"ViewMut.AddComponent, checked by the World", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.ViewMut[Pos]) { err = v.AddComponent(w, id, Pos{9, 9}) })
			return
		}},
		{"EntitiesView.IsAlive", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(e ecs.EntitiesView) { absent = !e.IsAlive(id) })
			return
		}},
		{"EntitiesViewMut.IsAlive", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(e ecs.EntitiesViewMut) { absent = !e.IsAlive(id) })
			return
		}},
		{"EntitiesViewMut.DeleteUnchecked", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(e ecs.EntitiesViewMut) { absent = !e.DeleteUnchecked(id) })
			return
		}},
		{"AllStoragesViewMut.IsAlive", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(a ecs.AllStoragesViewMut) { absent = !a.IsAlive(id) })
			return
		}},
		{"AllStoragesViewMut.DeleteEntity", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(a ecs.AllStoragesViewMut) { err = a.DeleteEntity(id) })
			return
		}},
		{"AllStoragesViewMut.Strip", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(a ecs.AllStoragesViewMut) { err = a.Strip(id) })
			return
		}},
		{"AddComponent1 through AllStoragesViewMut", true, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(a ecs.AllStoragesViewMut) { err = ecs.AddComponent1(a, id, Vel{9, 9}) })
			return
		}},
		{"Join1.Get", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.View[Pos]) { p, ok := ecs.Join1(v).Get(id); absent = !ok && p == nil })
			return
		}},
		{"Join2.Get", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.View[Pos], u ecs.ViewMut[Vel]) { _, _, ok := ecs.Join2(v, u).Get(id); absent = !ok })
			return
		}},
		{"Join3.Get", false, func(t *testing.T, w *ecs.World, id ecs.EntityID) (err error, absent bool) {
			sys(t, w, func(v ecs.View[Pos], u ecs.View[Vel], g ecs.View[edgeTag]) {
				_, _, _, ok := ecs.Join3(v, u, g).Get(id)
				absent = !ok
			})
			return
		}},
	}
}

// TestEdgeBadIDs runs every operation that takes an id with every kind of
// id that names no live entity: each returns an *EntityError for that id
// (wrapping ErrDeadEntity) or reports absence, and changes nothing.
func TestEdgeBadIDs(t *testing.T) {
	for _, op := range idOps() {
		_, ids, _ := badIDs(t)
		for kind := range ids {
			t.Run(op.name+"/"+kind, func(t *testing.T) {
				w, ids, live := badIDs(t)
				id := ids[kind]
				before := snapshot(t, w)
				err, absent := op.run(t, w, id)
				if op.errs {
					errIs(t, err, ecs.ErrDeadEntity)
					if ee := errAs[*ecs.EntityError](t, err); ee.ID != id {
						t.Errorf("EntityError.ID = %v, want %v", ee.ID, id)
					}
					hasAll(t, err.Error(), "not alive")
				} else {
					must(t, err)
					isTrue(t, absent, "%s(%v) did not report absence", op.name, id)
				}
				equal(t, "world after the operation", snapshot(t, w), before)
				isTrue(t, w.IsAlive(live), "the live entity died")
			})
		}
	}
}

// TestEdgeMustGetBadIDs: the index form on an id without the component
// panics, naming the type and the id, and changes nothing.
func TestEdgeMustGetBadIDs(t *testing.T) {
	w, ids, _ := badIDs(t)
	bare, err := w.AddEntity()
	must(t, err)
	ids["live, without the component"] = bare
	before := snapshot(t, w)
	for kind, id := range ids {
		must(t, w.Run(func(v ecs.View[Vel], vm ecs.ViewMut[Pos], g ecs.View[edgeTag]) {
			if kind == "live, without the component" {
				panicsWith(t, func() { vm.MustGet(id) }, "ecs_test.Pos", id.String(), "Get")
				return
			}
			panicsWith(t, func() { v.MustGet(id) }, "ecs_test.Vel", id.String())
			panicsWith(t, func() { vm.MustGet(id) }, "ecs_test.Pos", id.String())
			panicsWith(t, func() { g.MustGet(id) }, "ecs_test.edgeTag", id.String())
		}))
	}
	equal(t, "world after the panics", snapshot(t, w), before)
}

// TestEdgeNullID: NullID is documented as an id no entity ever has.
func TestEdgeNullID(t *testing.T) {
	isTrue(t, ecs.NullID.IsNull(), "NullID.IsNull")
	isTrue(t, !ecs.EntityID(0).IsNull(), "EntityID(0).IsNull")
	equal(t, "NullID.String", ecs.NullID.String(), "EntityID(null)")
	w := ecs.NewWorld()
	ids, err := ecs.BulkAddEntity1(w, make([]Pos, 5000))
	must(t, err)
	isTrue(t, !slices.Contains(ids, ecs.NullID), "NullID issued")
	isTrue(t, !w.IsAlive(ecs.NullID), "NullID alive")
}

// TestEdgeUncheckedAddRefusesOlderID: AddComponentUnchecked refuses an id
// older than the entity that owns its slot in the storage, and changes
// nothing.
func TestEdgeUncheckedAddRefusesOlderID(t *testing.T) {
	w, ids, _ := badIDs(t)
	stale := ids["stale, slot reused"]
	before := snapshot(t, w)
	must(t, w.Run(func(v ecs.ViewMut[Pos]) {
		err := v.AddComponentUnchecked(stale, Pos{9, 9})
		errIs(t, err, ecs.ErrDeadEntity)
		equal(t, "EntityError.ID", errAs[*ecs.EntityError](t, err).ID, stale)
	}))
	equal(t, "world after the refused add", snapshot(t, w), before)
}

// TestEdgeUncheckedAddNullID: NullID is the "no entity" marker that
// components referring to other entities hold, so it is the id most likely
// to reach AddComponentUnchecked by mistake. It must be refused like an
// old id, not stored, and not cost memory in proportion to its index.
func TestEdgeUncheckedAddNullID(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.AddEntity1(w, Pos{1, 1})
	must(t, err)
	before := snapshot(t, w)
	grown := heapGrowth(func() {
		must(t, w.Run(func(v ecs.ViewMut[Pos]) {
			err := v.AddComponentUnchecked(ecs.NullID, Pos{9, 9})
			errIs(t, err, ecs.ErrDeadEntity)
		}))
	})
	equal(t, "world after adding to NullID", snapshot(t, w), before)
	isTrue(t, grown < 1<<20, "adding a component to NullID grew the heap by %d bytes", grown)
}

// heapGrowth returns how much the live heap grew while fn ran.
func heapGrowth(fn func()) int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	before := m.HeapAlloc
	fn()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc) - int64(before)
}

// TestEdgeTags: empty structs are components like any other: stored,
// joined, removed, deleted, counted; distinct tag types are distinct
// storages.
func TestEdgeTags(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, w *ecs.World, tagged, plain []ecs.EntityID)
	}{
		{"Contains and Len", func(t *testing.T, w *ecs.World, tagged, plain []ecs.EntityID) {
			must(t, w.Run(func(g ecs.View[edgeTag], o ecs.View[edgeOther]) {
				equal(t, "Len", g.Len(), len(tagged))
				equal(t, "other tag's Len", o.Len(), 0)
				for _, id := range tagged {
					isTrue(t, g.Contains(id), "%v lost its tag", id)
					p, ok := g.Get(id)
					isTrue(t, ok && p != nil, "Get of a tag: %v, %v", p, ok)
				}
				for _, id := range plain {
					isTrue(t, !g.Contains(id), "%v has a tag", id)
				}
			}))
		}},
		{"join and Not", func(t *testing.T, w *ecs.World, tagged, plain []ecs.EntityID) {
			must(t, w.Run(func(p ecs.View[Pos], g ecs.View[edgeTag]) {
				var in, out []ecs.EntityID
				for id := range ecs.Join2(p, g).WithID() {
					in = append(in, id)
				}
				for id := range ecs.Join1(p).Not(g).WithID() {
					out = append(out, id)
				}
				sameSet(t, "with tag", in, tagged)
				sameSet(t, "without tag", out, plain)
			}))
		}},
		{"remove and delete", func(t *testing.T, w *ecs.World, tagged, plain []ecs.EntityID) {
			v, ok, err := ecs.Remove[edgeTag](w, tagged[0])
			must(t, err)
			isTrue(t, ok && v == edgeTag{}, "Remove of a tag: %v, %v", v, ok)
			ok, err = ecs.DeleteComponent[edgeTag](w, tagged[1])
			must(t, err)
			isTrue(t, ok, "DeleteComponent of a tag")
			ok, err = ecs.DeleteComponent[edgeTag](w, plain[0])
			must(t, err)
			isTrue(t, !ok, "DeleteComponent of an absent tag")
			has, err := ecs.Contains[edgeTag](w, tagged[0])
			must(t, err)
			isTrue(t, !has, "tag still there after Remove")
		}},
		{"DeleteAny", func(t *testing.T, w *ecs.World, tagged, plain []ecs.EntityID) {
			n, err := ecs.DeleteAny[edgeTag](w)
			must(t, err)
			equal(t, "deleted", n, len(tagged))
			for _, id := range tagged {
				isTrue(t, !w.IsAlive(id), "%v alive after DeleteAny", id)
			}
			for _, id := range plain {
				isTrue(t, w.IsAlive(id), "%v deleted by DeleteAny", id)
			}
			n, err = ecs.DeleteAny[edgeTag](w)
			must(t, err)
			equal(t, "deleted by a second DeleteAny", n, 0)
		}},
		{"bare struct{} type", func(t *testing.T, w *ecs.World, tagged, plain []ecs.EntityID) {
			must(t, ecs.AddComponent1(w, plain[0], struct{}{}))
			has, err := ecs.Contains[struct{}](w, plain[0])
			must(t, err)
			isTrue(t, has, "struct{} component missing")
			has, err = ecs.Contains[edgeTag](w, plain[0])
			must(t, err)
			isTrue(t, !has, "struct{} and edgeTag share a storage")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			var tagged, plain []ecs.EntityID
			for i := range 20 {
				if i%3 == 0 {
					id, err := ecs.AddEntity2(w, Pos{float32(i), 0}, edgeTag{})
					must(t, err)
					tagged = append(tagged, id)
				} else {
					id, err := ecs.AddEntity1(w, Pos{float32(i), 0})
					must(t, err)
					plain = append(plain, id)
				}
			}
			c.run(t, w, tagged, plain)
		})
	}
}

// TestEdgeMillionIDs: a million entities created in bulk get a million
// distinct ids; deleting half and creating half a million more reuses
// exactly the freed slots, with a new generation; gets and joins stay
// right throughout.
func TestEdgeMillionIDs(t *testing.T) {
	const n = 1_000_000
	w := ecs.NewWorld()
	pos := make([]Pos, n)
	vel := make([]Vel, n)
	for i := range pos {
		pos[i] = Pos{float32(i), 0}
		vel[i] = Vel{0, float32(i)}
	}
	ids, err := ecs.BulkAddEntity2(w, pos, vel)
	must(t, err)
	equal(t, "ids", len(ids), n)
	seen := make([]bool, n)
	for _, id := range ids {
		if int(id.Index()) >= n || seen[id.Index()] || id.Generation() != 0 {
			t.Fatalf("unexpected id %v in a fresh world", id)
		}
		seen[id.Index()] = true
	}
	equal(t, "EntityCount", w.EntityCount(), n)

	// Shuffled reads through a view.
	rng := rand.New(rand.NewPCG(1, 2))
	order := rng.Perm(n)
	must(t, w.Run(func(vp ecs.View[Pos], vv ecs.View[Vel]) {
		equal(t, "Pos Len", vp.Len(), n)
		bad := 0
		for _, i := range order[:100_000] {
			p, v, ok := ecs.Join2(vp, vv).Get(ids[i])
			if !ok || p.X != float32(i) || v.Y != float32(i) {
				bad++
			}
		}
		equal(t, "wrong components among 100000 shuffled gets", bad, 0)
	}))

	// Delete every other entity, the fast way.
	must(t, w.Run(func(e ecs.EntitiesViewMut, vp ecs.ViewMut[Pos], vv ecs.ViewMut[Vel]) {
		for i := 0; i < n; i += 2 {
			if !vp.Delete(ids[i]) || !vv.Delete(ids[i]) || !e.DeleteUnchecked(ids[i]) {
				t.Fatalf("delete of %v failed", ids[i])
			}
		}
	}))
	equal(t, "EntityCount after deleting half", w.EntityCount(), n/2)

	more, err := ecs.BulkAddEntity1(w, make([]Vel, n/2))
	must(t, err)
	reused := make([]bool, n)
	for _, id := range more {
		i := int(id.Index())
		if i >= n || i%2 != 0 || reused[i] || id.Generation() != 1 {
			t.Fatalf("new id %v does not reuse a freed slot once with generation 1", id)
		}
		reused[i] = true
	}
	equal(t, "EntityCount after refilling", w.EntityCount(), n)
	must(t, w.Run(func(vp ecs.View[Pos], vv ecs.View[Vel]) {
		equal(t, "Pos Len", vp.Len(), n/2)
		equal(t, "Vel Len", vv.Len(), n)
		equal(t, "join count", ecs.Join2(vp, vv).Count(), n/2)
		equal(t, "Not count", ecs.Join1(vv).Not(vp).Count(), n/2)
		for _, i := range order[:1000] {
			_, ok := vp.Get(ids[i])
			equal(t, fmt.Sprintf("old id %d resolves", i), ok, i%2 == 1)
		}
	}))
}

// TestEdgeSparseIDsFarApart: components on a few entities whose indices
// are far apart cost a few pages, not an array as long as the largest
// index; iteration sees exactly them.
func TestEdgeSparseIDsFarApart(t *testing.T) {
	const n = 2_000_000
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	must(t, w.Run(func(e ecs.EntitiesViewMut) { ids = e.BulkAddEntity(nil, n) }))
	chosen := []ecs.EntityID{ids[n-1], ids[0], ids[n/2], ids[1234567]}
	grown := heapGrowth(func() {
		for i, id := range chosen {
			must(t, ecs.AddComponent1(w, id, Pos{float32(i), 0}))
		}
	})
	// A dense sparse array would take n*8 bytes = 16 MB. Pages of 1024
	// entries: 4 pages of 8 KiB and a page table of n/1024 pointers.
	isTrue(t, grown < 256<<10, "4 components on far-apart entities grew the heap by %d bytes", grown)
	must(t, w.Run(func(v ecs.View[Pos]) {
		equal(t, "Len", v.Len(), len(chosen))
		var got []ecs.EntityID
		for id, p := range v.WithID() {
			got = append(got, id)
			equal(t, "value", chosen[int(p.X)], id)
		}
		sameSet(t, "iterated", got, chosen)
		for _, id := range chosen {
			isTrue(t, v.Contains(id), "%v lost its Pos", id)
			for _, d := range []int{-1, 1} {
				nb := int(id.Index()) + d
				if nb >= 0 && nb < n {
					isTrue(t, !v.Contains(ids[nb]), "neighbour %v has a Pos", ids[nb])
				}
			}
		}
	}))
	// Removing them leaves an empty, working storage.
	for _, id := range chosen {
		_, ok, err := ecs.Remove[Pos](w, id)
		must(t, err)
		isTrue(t, ok, "Remove %v", id)
	}
	must(t, w.Run(func(v ecs.View[Pos]) { equal(t, "Len after removing", v.Len(), 0) }))
}

// TestEdgeBorrowConflicts: conflicting borrows give a *BorrowError that
// names the type and both accesses (and who holds them); a system whose
// own views conflict is refused before borrowing, with a *SystemError
// that names both parameters and the fix. The refused system does not
// run and nothing stays borrowed.
func TestEdgeBorrowConflicts(t *testing.T) {
	cases := []struct {
		name string
		// hold borrows something for the duration of the case (or nothing).
		hold func(w *ecs.World) (func(), error)
		sys  any
		want []string // what the message must name
	}{
		{"two ViewMut[Pos] in one system", nil,
			func(a, b ecs.ViewMut[Pos]) { edgeRan++ },
			[]string{"parameter 1 (ViewMut[ecs_test.Pos]) conflicts with parameter 2 (ViewMut[ecs_test.Pos]) on ecs_test.Pos", "TestEdgeBorrowConflicts", "take one view of it"}},
		{"View and ViewMut of Pos in one system", nil,
			func(a ecs.View[Pos], b ecs.ViewMut[Pos]) { edgeRan++ },
			[]string{"parameter 1 (View[ecs_test.Pos]) conflicts with parameter 2 (ViewMut[ecs_test.Pos])", "take one view of it"}},
		{"ViewMut while World.Borrow holds a View", func(w *ecs.World) (func(), error) {
			var v ecs.View[Pos]
			return w.Borrow(&v)
		}, func(b ecs.ViewMut[Pos]) { edgeRan++ },
			[]string{"ecs_test.Pos", "ViewMut[ecs_test.Pos]", "View[ecs_test.Pos] by World.Borrow"}},
		{"View while World.Borrow holds a ViewMut", func(w *ecs.World) (func(), error) {
			var v ecs.ViewMut[Pos]
			return w.Borrow(&v)
		}, func(b ecs.View[Pos]) { edgeRan++ },
			[]string{"ecs_test.Pos", "as View[ecs_test.Pos]", "ViewMut[ecs_test.Pos] by World.Borrow"}},
		{"AllStoragesViewMut then View", nil,
			func(a ecs.AllStoragesViewMut, b ecs.View[Vel]) { edgeRan++ },
			[]string{"all storages", "View[ecs_test.Vel]", "AllStoragesViewMut", "take no other view beside it"}},
		{"View then AllStoragesViewMut", nil,
			func(b ecs.View[Vel], a ecs.AllStoragesViewMut) { edgeRan++ },
			[]string{"all storages", "View[ecs_test.Vel]", "AllStoragesViewMut", "take no other view beside it"}},
		{"AllStoragesViewMut and EntitiesView", nil,
			func(a ecs.AllStoragesViewMut, b ecs.EntitiesView) { edgeRan++ },
			[]string{"all storages", "EntitiesView", "AllStoragesViewMut"}},
		{"AllStoragesViewMut and UniqueView", nil,
			func(a ecs.AllStoragesViewMut, b ecs.UniqueView[Camera]) { edgeRan++ },
			[]string{"all storages", "UniqueView[ecs_test.Camera]", "AllStoragesViewMut"}},
		{"two AllStoragesViewMut", nil,
			func(a, b ecs.AllStoragesViewMut) { edgeRan++ },
			[]string{"parameter 1 (AllStoragesViewMut) conflicts with parameter 2 (AllStoragesViewMut) on all storages"}},
		{"AllStoragesViewMut while World.Borrow holds a View", func(w *ecs.World) (func(), error) {
			var v ecs.View[Vel]
			return w.Borrow(&v)
		}, func(a ecs.AllStoragesViewMut) { edgeRan++ },
			[]string{"all storages", "AllStoragesViewMut", "View[ecs_test.Vel] by World.Borrow"}},
		{"two EntitiesViewMut", nil,
			func(a, b ecs.EntitiesViewMut) { edgeRan++ },
			[]string{"parameter 1 (EntitiesViewMut) conflicts with parameter 2 (EntitiesViewMut) on entities"}},
		{"two UniqueViewMut", nil,
			func(a, b ecs.UniqueViewMut[Camera]) { edgeRan++ },
			[]string{"parameter 1 (UniqueViewMut[ecs_test.Camera]) conflicts with parameter 2 (UniqueViewMut[ecs_test.Camera]) on unique ecs_test.Camera"}},
		{"UniqueView while World.Borrow holds a UniqueViewMut", func(w *ecs.World) (func(), error) {
			var v ecs.UniqueViewMut[Camera]
			return w.Borrow(&v)
		}, func(a ecs.UniqueView[Camera]) { edgeRan++ },
			[]string{"unique ecs_test.Camera", "UniqueView[ecs_test.Camera]", "UniqueViewMut[ecs_test.Camera] by World.Borrow"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			must(t, ecs.AddUnique(w, Camera{}))
			if c.hold != nil {
				release, err := c.hold(w)
				must(t, err)
				defer func() {
					release()
					assertNothingBorrowed(t, w)
				}()
			}
			edgeRan = 0
			err := w.Run(c.sys)
			errIs(t, err, ecs.ErrBorrowConflict)
			errHas(t, err, c.want...)
			if c.hold == nil { // the system's own views conflict
				errIs(t, err, ecs.ErrInvalidSystem)
				errAs[*ecs.SystemError](t, err)
			} else {
				be := errAs[*ecs.BorrowError](t, err)
				isTrue(t, be.Access != "" && be.HeldAccess != "" && be.By != "" && be.HeldBy != "", "BorrowError has empty fields: %+v", *be)
				errAs[*ecs.SystemFailure](t, err)
			}
			equal(t, "runs of the refused system", edgeRan, 0)
			if c.hold == nil {
				assertNothingBorrowed(t, w)
			}
		})
	}
}

// edgeRan counts runs of the systems of TestEdgeBorrowConflicts.
var edgeRan int

// TestEdgeWorldCallsDuringBorrow: World-level calls check borrows too: a
// change is refused while any view is held, a read while its storage is
// held exclusively; nothing changes.
func TestEdgeWorldCallsDuringBorrow(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 1}, Vel{1, 1})
	must(t, err)
	var vm ecs.ViewMut[Pos]
	release, err := w.Borrow(&vm)
	must(t, err)
	calls := map[string]func() error{
		"World.AddEntity": func() error { _, err := w.AddEntity(); return err },
		"AddEntity1":      func() error { _, err := ecs.AddEntity1(w, Vel{}); return err },
		"AddComponent1":   func() error { return ecs.AddComponent1(w, id, Vel{2, 2}) },
		"BulkAddEntity1":  func() error { _, err := ecs.BulkAddEntity1(w, []Vel{{}}); return err },
		"DeleteEntity":    func() error { return w.DeleteEntity(id) },
		"Strip":           func() error { return w.Strip(id) },
		"Remove":          func() error { _, _, err := ecs.Remove[Vel](w, id); return err },
		"DeleteComponent": func() error { _, err := ecs.DeleteComponent[Vel](w, id); return err },
		"DeleteAny":       func() error { _, err := ecs.DeleteAny[Vel](w); return err },
		"Each1":           func() error { return ecs.Each1(w, func(ecs.EntityID, *Vel) {}) },
		"Get[Pos]":        func() error { _, err := ecs.Get[Pos](w, id); return err },
		"Get2[Vel, Pos]":  func() error { _, _, err := ecs.Get2[Vel, Pos](w, id); return err },
		"Contains[Pos]":   func() error { _, err := ecs.Contains[Pos](w, id); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, ecs.ErrBorrowConflict) {
			t.Errorf("%s while a ViewMut[Pos] is held: got %v, want a borrow conflict", name, err)
		}
	}
	// Reads of other storages are fine.
	v, err := ecs.Get[Vel](w, id)
	must(t, err)
	equal(t, "Vel", v, Vel{1, 1})
	release()
	equal(t, "EntityCount", w.EntityCount(), 1)
	p, v, err := ecs.Get2[Pos, Vel](w, id)
	must(t, err)
	equal(t, "nothing changed", [2]any{p, v}, [2]any{Pos{1, 1}, Vel{1, 1}})
}

// TestEdgeConflictNamesCurrentHolder: the error names the borrow actually
// held, not an earlier one that has been released since.
func TestEdgeConflictNamesCurrentHolder(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 1}, Vel{1, 1})
	must(t, err)
	var v ecs.View[Pos]
	release, err := w.Borrow(&v)
	must(t, err)
	defer release()
	_, err = ecs.Get[Vel](w, id) // a read that starts and ends while v is held
	must(t, err)
	_, err = ecs.AddEntity1(w, Vel{})
	be := errAs[*ecs.BorrowError](t, err)
	equal(t, "held by", be.HeldBy, "World.Borrow")
	equal(t, "held access", be.HeldAccess, "View[ecs_test.Pos]")
}

// A function type used by the bad-system table.
type edgeNotAView struct{ N int }

// TestEdgeBadSystems: what cannot be a system is refused with a
// *SystemError (ErrInvalidSystem) that says why, naming the parameter by
// position and type when one is at fault. Nothing runs, nothing is
// borrowed.
func TestEdgeBadSystems(t *testing.T) {
	var nilFunc func(ecs.View[Pos])
	cases := []struct {
		name  string
		sys   any
		param int
		typ   string
		want  []string
	}{
		{"nil", nil, 0, "", []string{"nil"}},
		{"an int", 42, 0, "", []string{"function", "int"}},
		{"a string", "grow", 0, "", []string{"function", "string"}},
		{"a view value", ecs.View[Pos]{}, 0, "", []string{"function", "View"}},
		{"a nil func", nilFunc, 0, "", []string{"nil"}},
		{"int parameter", func(ecs.View[Pos], int) {}, 2, "int", []string{"parameter 2 (int)", "not a view"}},
		{"struct parameter without views", func(edgeNotAView) {}, 1, "ecs_test.edgeNotAView", []string{"parameter 1 (ecs_test.edgeNotAView)", "not a view"}},
		// reflect spells type arguments with their full package path.
		{"pointer to a view", func(ecs.View[Vel], *ecs.View[Pos]) {}, 2, "*ecs.View[github.com/slipway-ecs/slipway/ecs_test.Pos]", []string{"parameter 2 (*ecs.View[", "ecs_test.Pos])", "pointer", "by value"}},
		{"pointer to a World", func(*ecs.World) {}, 1, "*ecs.World", []string{"parameter 1 (*ecs.World)"}},
		{"returns int", func(ecs.View[Pos]) int { return 0 }, 0, "", []string{"returns (int)", "nothing or an error"}},
		{"returns two errors", func(ecs.View[Pos]) (error, error) { return nil, nil }, 0, "", []string{"returns (error, error)"}},
		{"returns bool", func(ecs.View[Pos]) bool { return true }, 0, "", []string{"bool", "RunIf"}},
		{"variadic", func(...ecs.View[Pos]) {}, 0, "", []string{"variadic"}},
		{"a bundle with a bad field", func(struct {
			P ecs.View[Pos]
			Q struct{ R *ecs.View[Vel] }
		}) {
		}, 1, "", []string{"parameter 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			err := w.Run(c.sys)
			errIs(t, err, ecs.ErrInvalidSystem)
			se := errAs[*ecs.SystemError](t, err)
			equal(t, "SystemError.Param", se.Param, c.param)
			if c.typ != "" {
				equal(t, "SystemError.Type", se.Type, c.typ)
			}
			errHas(t, err, c.want...)
			if c.param > 0 {
				hasAll(t, se.System, "TestEdgeBadSystems")
			}
			assertNothingBorrowed(t, w)
		})
	}
}

// TestEdgeBorrowAllOrNothing: World.Borrow borrows every view or none: when
// one fails, those borrowed before it are released.
func TestEdgeBorrowAllOrNothing(t *testing.T) {
	cases := []struct {
		name  string
		views func() []any
		kind  error
	}{
		{"conflict inside the call", func() []any {
			var a ecs.View[Pos]
			var b ecs.ViewMut[Vel]
			var c ecs.EntitiesView
			var d ecs.ViewMut[Pos]
			return []any{&a, &b, &c, &d}
		}, ecs.ErrBorrowConflict},
		{"missing unique at the end", func() []any {
			var a ecs.ViewMut[Pos]
			var b ecs.EntitiesViewMut
			var c ecs.UniqueView[edgeNotAView]
			return []any{&a, &b, &c}
		}, ecs.ErrMissingUnique},
		{"AllStoragesViewMut after views", func() []any {
			var a ecs.ViewMut[Pos]
			var b ecs.AllStoragesViewMut
			return []any{&a, &b}
		}, ecs.ErrBorrowConflict},
		{"not a pointer", func() []any {
			var a ecs.ViewMut[Pos]
			return []any{&a, ecs.View[Vel]{}}
		}, ecs.ErrInvalidView},
		{"nil", func() []any {
			var a ecs.ViewMut[Pos]
			return []any{&a, nil}
		}, ecs.ErrInvalidView},
		{"pointer to a non-view", func() []any {
			var a ecs.ViewMut[Pos]
			n := 0
			return []any{&a, &n}
		}, ecs.ErrInvalidView},
		{"pointer to a pointer to a view", func() []any {
			var a ecs.ViewMut[Pos]
			b := &ecs.View[Vel]{}
			return []any{&a, &b}
		}, ecs.ErrInvalidView},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			must(t, ecs.AddUnique(w, Camera{}))
			views := c.views()
			release, err := w.Borrow(views...)
			errIs(t, err, c.kind)
			isTrue(t, release == nil, "a failed Borrow returned a release function")
			if c.kind == ecs.ErrInvalidView {
				se := errAs[*ecs.SystemError](t, err)
				equal(t, "position of the bad argument", se.Param, 2)
				hasAll(t, err.Error(), "World.Borrow", "parameter 2")
			}
			assertNothingBorrowed(t, w)
		})
	}
}

// edgeBundle is a custom view for the aliasing cases of World.Borrow.
type edgeBundle struct {
	V ecs.View[Vel] // at offset 0: &b and &b.V are the same address
	P ecs.View[Pos]
}

// TestEdgeBorrowSameVariableTwice: passing one view variable twice to
// World.Borrow, or a custom view and one of its own fields, must either be
// refused or be released completely: it must never leave a borrow behind.
func TestEdgeBorrowSameVariableTwice(t *testing.T) {
	cases := []struct {
		name  string
		views func() []any
		bug   string
	}{
		{"a View twice", func() []any { var v ecs.View[Pos]; return []any{&v, &v} }, ""},
		{"a ViewMut twice", func() []any { var v ecs.ViewMut[Pos]; return []any{&v, &v} }, ""},
		{"a bundle twice", func() []any { var b edgeBundle; return []any{&b, &b} }, ""},
		{"a bundle and its second field", func() []any { var b edgeBundle; return []any{&b, &b.P} }, ""},
		{"a bundle and its first field", func() []any { var b edgeBundle; return []any{&b.V, &b} }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.bug != "" {
				knownBug(t, c.bug)
			}
			w := ecs.NewWorld()
			release, err := w.Borrow(c.views()...)
			if err == nil {
				release()
			} else {
				errIs(t, err, ecs.ErrInvalidView)
			}
			assertNothingBorrowed(t, w)
		})
	}
}

// TestEdgeViewsAfterRelease: a view used after its borrow ended panics with
// a message that says so, for every kind of view, whether it was borrowed
// with World.Borrow or escaped from a system.
func TestEdgeViewsAfterRelease(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, Pos{1, 1})
	must(t, err)
	must(t, ecs.AddUnique(w, Camera{}))

	var v ecs.View[Pos]
	var vm ecs.ViewMut[Vel]
	var u ecs.UniqueView[Camera]
	var um ecs.UniqueViewMut[bookPlayer]
	var e ecs.EntitiesView
	var em ecs.EntitiesViewMut
	must(t, ecs.AddUnique(w, bookPlayer{}))
	release, err := w.Borrow(&v, &vm, &u, &um, &e)
	must(t, err)
	entitiesSeq := e.All()
	release()
	release, err = w.Borrow(&em)
	must(t, err)
	release()
	var all ecs.AllStoragesViewMut
	releaseAll, err := w.Borrow(&all)
	must(t, err)
	releaseAll()

	var escaped ecs.View[Pos]
	must(t, w.Run(func(p ecs.View[Pos]) { escaped = p }))
	var never ecs.View[Pos]

	// Every view panics with an error wrapping ErrReleased that names
	// the view and its type, once.
	uses := []struct {
		name string
		fn   func()
		want string // what the message names besides the advice
	}{
		{"View.Len", func() { v.Len() }, "View[ecs_test.Pos]"},
		{"View.Get", func() { v.Get(id) }, "View[ecs_test.Pos]"},
		{"View.MustGet", func() { v.MustGet(id) }, "View[ecs_test.Pos]"},
		{"ViewMut.MustGet", func() { vm.MustGet(id) }, "ViewMut[ecs_test.Vel]"},
		{"View.All", func() {
			for range v.All() {
			}
		}, "View[ecs_test.Pos]"},
		{"Join1 of a released View", func() { ecs.Join1(v) }, "View[ecs_test.Pos]"},
		{"ViewMut.AddComponentUnchecked", func() { _ = vm.AddComponentUnchecked(id, Vel{}) }, "ViewMut[ecs_test.Vel]"},
		{"ViewMut.Remove", func() { vm.Remove(id) }, "ViewMut[ecs_test.Vel]"},
		{"ViewMut.Delete", func() { vm.Delete(id) }, "ViewMut[ecs_test.Vel]"},
		{"a ViewMut never borrowed, Delete", func() { var z ecs.ViewMut[Pos]; z.Delete(id) }, "ViewMut[ecs_test.Pos]"},
		{"UniqueView.Get", func() { u.Get() }, "UniqueView[ecs_test.Camera]"},
		{"UniqueViewMut.Get", func() { um.Get() }, "UniqueViewMut[ecs_test.bookPlayer]"},
		{"EntitiesView.IsAlive", func() { e.IsAlive(id) }, "EntitiesView used"},
		{"EntitiesView.All", func() {
			for range e.All() {
			}
		}, "EntitiesView used"},
		{"EntitiesView.All made before release", func() {
			for range entitiesSeq {
			}
		}, "EntitiesView used"},
		{"EntitiesViewMut.AddEntity", func() { em.AddEntity() }, "EntitiesViewMut used"},
		{"AllStoragesViewMut.AddEntity", func() { all.AddEntity() }, "AllStoragesViewMut"},
		{"AllStoragesViewMut through AddEntity1", func() { _, _ = ecs.AddEntity1(all, Pos{}) }, "AllStoragesViewMut"},
		{"AllStoragesViewMut.DeleteEntity", func() { _ = all.DeleteEntity(id) }, "AllStoragesViewMut"},
		{"AllStoragesViewMut.Strip", func() { _ = all.Strip(id) }, "AllStoragesViewMut"},
		{"a View escaped from a system", func() { escaped.Len() }, "View[ecs_test.Pos]"},
		// Get, MustGet and Lookup read the view's copies of the storage's
		// layout, which the release zeroes: an escaped view's look-ups,
		// of an id in the storage's identity prefix too, panic.
		{"a View escaped from a system, Get", func() { escaped.Get(id) }, "View[ecs_test.Pos]"},
		{"a View escaped from a system, MustGet", func() { escaped.MustGet(id) }, "View[ecs_test.Pos]"},
		{"a View escaped from a system, Lookup", func() {
			for range escaped.Lookup([]ecs.EntityID{id}) {
			}
		}, "View[ecs_test.Pos]"},
		{"a View never borrowed", func() { never.Len() }, "View[ecs_test.Pos]"},
		{"a View never borrowed, Lookup", func() {
			for range never.Lookup(nil) {
			}
		}, "View[ecs_test.Pos]"},
	}
	for _, use := range uses {
		t.Run(use.name, func(t *testing.T) {
			msg := panicsWith(t, use.fn, "ecs: "+use.want)
			hasAll(t, msg, "used after its system returned or its Borrow was released (or never borrowed)", "release function of World.Borrow")
			if n := strings.Count(msg, "release"); n != 2 {
				t.Errorf("%q speaks of a release %d times, want 2", msg, n)
			}
			r := recovered(use.fn)
			err, _ := r.(error)
			isTrue(t, errors.Is(err, ecs.ErrReleased), "panic value %v (%T) does not wrap ErrReleased", r, r)
		})
	}
	// None of this changed the world.
	equal(t, "EntityCount", w.EntityCount(), 1)
	assertNothingBorrowed(t, w)
}

// recovered runs fn and returns what it panicked with (nil if it did not).
func recovered(fn func()) (r any) {
	defer func() { r = recover() }()
	fn()
	return nil
}

// TestEdgeNeverBorrowedViewGet: View.Get stays small enough to inline by
// checking only for a released view; on a zero View, never borrowed, it
// still panics rather than answering (a nil dereference, as documented).
func TestEdgeNeverBorrowedViewGet(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, Pos{1, 1})
	must(t, err)
	var never ecs.View[Pos]
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		never.Get(id)
		return false
	}()
	if !panicked {
		t.Fatal("Get on a zero View did not panic")
	}
}

// TestEdgeJoinAlignment: joins look for an entity at the driver's position
// in the other storages before following their sparse pages. Whether the
// storages line up entirely, in part or not at all, every form of the join
// visits exactly the entities that have all the components.
func TestEdgeJoinAlignment(t *testing.T) {
	layouts := []struct {
		name  string
		build func(w *ecs.World) []ecs.EntityID
	}{
		{"created together", func(w *ecs.World) []ecs.EntityID {
			var ids []ecs.EntityID
			for i := range 40 {
				id, _ := ecs.AddEntity3(w, Pos{float32(i), 0}, Vel{0, float32(i)}, edgeTag{})
				ids = append(ids, id)
			}
			return ids
		}},
		{"aligned, then broken by removals", func(w *ecs.World) []ecs.EntityID {
			ids, _ := ecs.BulkAddEntity3(w, make([]Pos, 40), make([]Vel, 40), make([]edgeTag, 40))
			for i, id := range ids {
				if i%3 == 0 {
					_, _ = ecs.DeleteComponent[Vel](w, id)
				}
				if i%7 == 0 {
					_, _ = ecs.DeleteComponent[Pos](w, id)
				}
			}
			return ids
		}},
		{"interleaved with entities that have one", func(w *ecs.World) []ecs.EntityID {
			var ids []ecs.EntityID
			for i := range 40 {
				id, _ := ecs.AddEntity3(w, Pos{float32(i), 0}, Vel{}, edgeTag{})
				other, _ := ecs.AddEntity1(w, Pos{})
				ids = append(ids, id, other)
			}
			return ids
		}},
		{"given in reverse order, with reused ids", func(w *ecs.World) []ecs.EntityID {
			old, _ := ecs.BulkAddEntity1(w, make([]Pos, 40))
			_ = w.DeleteEntities(old...)
			ids, _ := ecs.BulkAddEntity1(w, make([]Vel, 40))
			for i := len(ids) - 1; i >= 0; i-- {
				if i%4 != 1 {
					_ = ecs.AddComponent2(w, ids[i], Pos{float32(i), 1}, edgeTag{})
				}
			}
			return ids
		}},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			w := ecs.NewWorld()
			all := l.build(w)
			must(t, w.Run(func(p ecs.ViewMut[Pos], v ecs.View[Vel], g ecs.View[edgeTag]) {
				// want: the entities with Pos and Vel, by looking each up.
				var want2, want3 []ecs.EntityID
				for _, id := range all {
					_, okP := p.Get(id)
					_, okV := v.Get(id)
					_, okG := g.Get(id)
					if okP && okV {
						want2 = append(want2, id)
						if okG {
							want3 = append(want3, id)
						}
					}
				}
				slices.Sort(want2)
				slices.Sort(want3)
				check := func(form string, got, want []ecs.EntityID) {
					t.Helper()
					slices.Sort(got)
					equal(t, form, fmt.Sprint(got), fmt.Sprint(want))
				}
				var got []ecs.EntityID
				for id, row := range ecs.Join2(p, v).WithID() {
					isTrue(t, row.A == p.MustGet(id) && row.B == v.MustGet(id), "WithID hands out another entity's components for %v", id)
					got = append(got, id)
				}
				check("Join2 WithID", got, want2)
				got = got[:0]
				ecs.Join2(v, p).EachWithID(func(id ecs.EntityID, _ *Vel, q *Pos) {
					isTrue(t, q == p.MustGet(id), "EachWithID hands out another entity's Pos for %v", id)
					got = append(got, id)
				})
				check("Join2 EachWithID, Vel first", got, want2)
				got = got[:0]
				for it := ecs.Join2(p, v); it.Next(); {
					q, _ := it.Values()
					isTrue(t, q == p.MustGet(it.ID()), "the cursor hands out another entity's Pos for %v", it.ID())
					got = append(got, it.ID())
				}
				check("Join2 cursor", got, want2)
				equal(t, "Join2 Count", ecs.Join2(p, v).Count(), len(want2))
				got = got[:0]
				for id, row := range ecs.Join3(g, v, p).WithID() {
					isTrue(t, row.C == p.MustGet(id), "Join3 hands out another entity's Pos for %v", id)
					got = append(got, id)
				}
				check("Join3 WithID", got, want3)
			}))
		})
	}
}

// edgeRef is a component holding a pointer: storages must not keep what
// it references alive once it is removed.
type edgeRef struct{ p *[1 << 10]byte }

// TestEdgeRemovedComponentsReleased: every way of taking a component out
// of a storage lets the garbage collector have what it referenced. The
// component removed is the last one stored, so no other component moves
// over its slot: only the storage clearing it frees it. Storages of
// pointer-free types skip that write (it would only cost memory traffic).
func TestEdgeRemovedComponentsReleased(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(w *ecs.World) error // before the entities are made
		remove func(w *ecs.World, id ecs.EntityID) error
	}{
		{"ViewMut.Delete", nil, func(w *ecs.World, id ecs.EntityID) error {
			return w.Run(func(v ecs.ViewMut[edgeRef]) { v.Delete(id) })
		}},
		{"ViewMut.Remove", nil, func(w *ecs.World, id ecs.EntityID) error {
			return w.Run(func(v ecs.ViewMut[edgeRef]) { v.Remove(id) })
		}},
		{"ViewMut.Clear", nil, func(w *ecs.World, id ecs.EntityID) error {
			return w.Run(func(v ecs.ViewMut[edgeRef]) { v.Clear() })
		}},
		{"DeleteComponent", nil, func(w *ecs.World, id ecs.EntityID) error {
			_, err := ecs.DeleteComponent[edgeRef](w, id)
			return err
		}},
		{"World.DeleteEntity", nil, func(w *ecs.World, id ecs.EntityID) error { return w.DeleteEntity(id) }},
		{"AllStoragesViewMut.DeleteEntity", nil, func(w *ecs.World, id ecs.EntityID) error {
			return w.Run(func(all ecs.AllStoragesViewMut) error { return all.DeleteEntity(id) })
		}},
		{"World.Strip", nil, func(w *ecs.World, id ecs.EntityID) error { return w.Strip(id) }},
		{"BulkDeleteComponent", nil, func(w *ecs.World, id ecs.EntityID) error {
			_, err := ecs.BulkDeleteComponent[edgeRef](w, id)
			return err
		}},
		{"DeleteEntities", nil, func(w *ecs.World, id ecs.EntityID) error { return ecs.DeleteEntities(w, id) }},
		{"DeleteEntity in a group", func(w *ecs.World) error { return ecs.AddGroup2[edgeRef, Pos](w) },
			func(w *ecs.World, id ecs.EntityID) error { return w.DeleteEntity(id) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			if c.setup != nil {
				must(t, c.setup(w))
			}
			_, err := ecs.AddEntity2(w, edgeRef{new([1 << 10]byte)}, Pos{})
			must(t, err)
			id, ref := addWithWeakRef(t, w)
			must(t, c.remove(w, id))
			runtime.GC()
			isTrue(t, ref.Value() == nil, "the removed component's referent is still reachable")
			runtime.KeepAlive(w) // the storages, not the world, must let go
		})
	}
}

// addWithWeakRef adds an entity whose edgeRef points to a new array and
// returns the entity and a weak pointer to the array: the caller holds no
// strong one.
//
//go:noinline
func addWithWeakRef(t *testing.T, w *ecs.World) (ecs.EntityID, weak.Pointer[[1 << 10]byte]) {
	p := new([1 << 10]byte)
	id, err := ecs.AddEntity2(w, edgeRef{p}, Pos{})
	must(t, err)
	return id, weak.Make(p)
}
