package ecs_test

// Ids that no longer, or never, name an entity of the world they are given
// to: the components EntitiesViewMut.DeleteUnchecked leaves behind, which
// the world purges at its next exclusive borrow of all storages, and ids
// issued by another world.

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type (
	stPos  struct{ X int }
	stVel  struct{ X int }
	stName struct{ S string } // holds a pointer: purged slots are cleared
	stLife struct{ HP int }   // tracks everything: the per-element paths
	stGA   struct{ V int }    // stGA and stGB form a packed group
	stGB   struct{ V int }
)

func (stLife) Tracking() ecs.Tracking { return ecs.TrackAll }

// stCounts is what a world's stale-id test storages hold: how many
// components of each type, and the ids of those that no live entity owns.
type stCounts struct {
	Pos, Vel, Name, Life, GA, GB int
	Dead                         []ecs.EntityID
}

// stLook counts the components of every test type of w, by iterating each
// storage in a system, and lists those yielded under an id that is not
// alive.
func stLook(t *testing.T, w *ecs.World) stCounts {
	t.Helper()
	var c stCounts
	must(t, w.Run(func(e ecs.EntitiesView, p ecs.View[stPos], v ecs.View[stVel], n ecs.View[stName], l ecs.View[stLife], a ecs.View[stGA], b ecs.View[stGB]) {
		c.Pos, c.Vel, c.Name, c.Life, c.GA, c.GB = p.Len(), v.Len(), n.Len(), l.Len(), a.Len(), b.Len()
		see := func(id ecs.EntityID) {
			if !e.IsAlive(id) && !slices.Contains(c.Dead, id) {
				c.Dead = append(c.Dead, id)
			}
		}
		for id := range p.WithID() {
			see(id)
		}
		for id := range v.WithID() {
			see(id)
		}
		for id := range n.WithID() {
			see(id)
		}
		for id := range l.WithID() {
			see(id)
		}
		for id := range ecs.Join2(a, b).WithID() {
			see(id)
		}
		for id := range a.WithID() {
			see(id)
		}
		for id := range b.WithID() {
			see(id)
		}
	}))
	slices.Sort(c.Dead)
	return c
}

// stDeleted returns the ids the deletion log of stLife holds, with their
// HP, in log order.
func stDeleted(t *testing.T, w *ecs.World) []string {
	t.Helper()
	var got []string
	must(t, w.Run(func(l ecs.View[stLife]) {
		del, err := l.Deleted()
		must(t, err)
		for id, c := range del {
			got = append(got, fmt.Sprintf("%v=%d", id, c.HP))
		}
	}))
	return got
}

// TestDeleteUncheckedThenReuse is the case: an entity killed with
// DeleteUnchecked alone, then a new entity in its index. The old
// components must not stay in their storages under the dead id.
func TestDeleteUncheckedThenReuse(t *testing.T) {
	w := ecs.NewWorld()
	old, err := ecs.AddEntity2(w, stPos{1}, stVel{2})
	must(t, err)
	keep, err := ecs.AddEntity1(w, stPos{3})
	must(t, err)
	must(t, w.Run(func(ents ecs.EntitiesViewMut) { isTrue(t, ents.DeleteUnchecked(old), "not alive") }))
	id, err := w.AddEntity()
	must(t, err)
	equal(t, "reused index", id.Index(), old.Index())
	got := stLook(t, w)
	deepEqual(t, "after reuse", got, stCounts{Pos: 1})
	p, err := ecs.Get[stPos](w, keep)
	must(t, err)
	equal(t, "the other entity's Pos", p, stPos{3})
	// Nothing of old comes back through the new id either.
	_, err = ecs.Get[stPos](w, id)
	errIs(t, err, ecs.ErrMissingComponent)
}

// stWorld builds the world of the purge tests: entity old with a
// component of every test type (in identity prefixes, except the tracked
// and grouped types), and keep with Pos and Name.
func stWorld(t *testing.T) (w *ecs.World, old, keep ecs.EntityID) {
	t.Helper()
	w = ecs.NewWorld()
	must(t, ecs.AddGroup2[stGA, stGB](w))
	old, err := ecs.AddEntity6(w, stPos{1}, stVel{1}, stName{"old"}, stLife{7}, stGA{1}, stGB{1})
	must(t, err)
	keep, err = ecs.AddEntity2(w, stPos{2}, stName{"keep"})
	must(t, err)
	must(t, w.Run(func(l ecs.ViewMut[stLife]) { l.ClearAllRemovedAndDeleted() }))
	return w, old, keep
}

// TestDeleteUncheckedPurgePoints: the components an entity killed with
// DeleteUnchecked left behind stay, and iterations see them under the
// dead id, until the world next borrows all storages exclusively: then
// they are deleted from every storage, logged as deleted where the type
// tracks deletion, whatever the call then does.
func TestDeleteUncheckedPurgePoints(t *testing.T) {
	after := stCounts{Pos: 1, Name: 1}
	cases := []struct {
		name string
		call func(t *testing.T, w *ecs.World, old, keep ecs.EntityID)
		want stCounts // what the storages hold after call
	}{
		{"World.AddEntity", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			_, err := w.AddEntity()
			must(t, err)
		}, after},
		{"AddEntity1", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			_, err := ecs.AddEntity1(w, stVel{5})
			must(t, err)
		}, stCounts{Pos: 1, Name: 1, Vel: 1}},
		{"AddComponent1", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			must(t, ecs.AddComponent1(w, keep, stVel{5}))
		}, stCounts{Pos: 1, Name: 1, Vel: 1}},
		{"World.DeleteEntity", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			must(t, w.DeleteEntity(keep))
		}, stCounts{}},
		{"World.DeleteEntity refused (dead id)", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			errIs(t, w.DeleteEntity(old), ecs.ErrDeadEntity)
		}, after},
		{"DeleteAny", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			n, err := ecs.DeleteAny[stVel](w)
			must(t, err)
			equal(t, "DeleteAny count", n, 0)
		}, after},
		{"Each1 does not hand out the dead id", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			var seen []ecs.EntityID
			must(t, ecs.Each1(w, func(id ecs.EntityID, _ *stPos) { seen = append(seen, id) }))
			deepEqual(t, "Each1", seen, []ecs.EntityID{keep})
		}, after},
		{"World.MemoryUsage", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			_, err := w.MemoryUsage()
			must(t, err)
		}, after},
		{"World.ShrinkToFit", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			must(t, w.ShrinkToFit())
		}, after},
		{"a system with an AllStoragesViewMut", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			must(t, w.Run(func(ecs.AllStoragesViewMut) {}))
		}, after},
		{"Each1 through AllStoragesViewMut", func(t *testing.T, w *ecs.World, old, keep ecs.EntityID) {
			must(t, w.Run(func(all ecs.AllStoragesViewMut) {
				var seen []ecs.EntityID
				must(t, ecs.Each1(all, func(id ecs.EntityID, _ *stPos) { seen = append(seen, id) }))
				deepEqual(t, "Each1", seen, []ecs.EntityID{keep})
			}))
		}, after},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, old, keep := stWorld(t)
			must(t, w.Run(func(ents ecs.EntitiesViewMut) { ents.DeleteUnchecked(old) }))
			// Until the purge, iterations yield the leftovers under the
			// dead id; calls given the dead id refuse it.
			deepEqual(t, "before the purge", stLook(t, w), stCounts{Pos: 2, Vel: 1, Name: 2, Life: 1, GA: 1, GB: 1, Dead: []ecs.EntityID{old}})
			_, err := ecs.Get[stPos](w, old)
			errIs(t, err, ecs.ErrDeadEntity)
			deepEqual(t, "deletion log before the purge", stDeleted(t, w), []string(nil))

			c.call(t, w, old, keep)
			deepEqual(t, "after "+c.name, stLook(t, w), c.want)
			deepEqual(t, "deletion log", stDeleted(t, w), []string{fmt.Sprintf("%v=7", old)})
			must(t, ecs.CheckLayouts(w))
		})
	}
}

// TestDeleteUncheckedPurgeCases: the purge in the cases where the
// leftovers and the index's later entities mix. Each case works in a
// system holding EntitiesViewMut and ViewMuts (no purge can happen
// there), then makes one World-level call, after which no storage holds
// a component of a dead entity and the live entities keep theirs.
func TestDeleteUncheckedPurgeCases(t *testing.T) {
	type sys = func(ents ecs.EntitiesViewMut, p ecs.ViewMut[stPos], v ecs.ViewMut[stVel], l ecs.ViewMut[stLife]) []ecs.EntityID
	cases := []struct {
		name string
		n    int // entities to start with, each with Pos, Vel and Life
		run  sys // returns the ids it expects alive with their components at the end
		want stCounts
		log  int // how many deletions of stLife the log holds at the end
	}{
		{"components deleted first: nothing left to purge", 2, func(ents ecs.EntitiesViewMut, p ecs.ViewMut[stPos], v ecs.ViewMut[stVel], l ecs.ViewMut[stLife]) []ecs.EntityID {
			id := ecs.EntityID(0)
			p.Delete(id)
			v.Delete(id)
			l.Delete(id)
			ents.DeleteUnchecked(id)
			return nil
		}, stCounts{Pos: 1, Vel: 1, Life: 1}, 1},
		{"index reused before the purge, one type taken over", 2, func(ents ecs.EntitiesViewMut, p ecs.ViewMut[stPos], v ecs.ViewMut[stVel], l ecs.ViewMut[stLife]) []ecs.EntityID {
			ents.DeleteUnchecked(ecs.EntityID(1))
			id := ents.AddEntity() // index 1, generation 1
			v.AddComponentUnchecked(id, stVel{9})
			return []ecs.EntityID{id}
		}, stCounts{Pos: 1, Vel: 2, Life: 1}, 1},
		{"index killed twice before the purge", 2, func(ents ecs.EntitiesViewMut, p ecs.ViewMut[stPos], v ecs.ViewMut[stVel], l ecs.ViewMut[stLife]) []ecs.EntityID {
			ents.DeleteUnchecked(ecs.EntityID(0))
			id := ents.AddEntity() // index 0, generation 1
			p.AddComponentUnchecked(id, stPos{9})
			l.AddComponentUnchecked(id, stLife{9})
			ents.DeleteUnchecked(id)
			return nil
		}, stCounts{Pos: 1, Vel: 1, Life: 1}, 2},
		{"every entity", 300, func(ents ecs.EntitiesViewMut, p ecs.ViewMut[stPos], v ecs.ViewMut[stVel], l ecs.ViewMut[stLife]) []ecs.EntityID {
			ids := slices.Collect(ents.All())
			for _, id := range ids {
				ents.DeleteUnchecked(id)
			}
			return nil
		}, stCounts{}, 300},
		{"every other entity", 300, func(ents ecs.EntitiesViewMut, p ecs.ViewMut[stPos], v ecs.ViewMut[stVel], l ecs.ViewMut[stLife]) []ecs.EntityID {
			ids := slices.Collect(ents.All())
			for i, id := range ids {
				if i%2 == 0 {
					ents.DeleteUnchecked(id)
				}
			}
			return nil
		}, stCounts{Pos: 150, Vel: 150, Life: 150}, 150},
	}
	for _, par := range []bool{false, true} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/parallel=%v", c.name, par), func(t *testing.T) {
				if par { // the purge's passes over the storages on the worker pool
					defer ecs.SetBulkParallelMin(2)()
				}
				w := ecs.NewWorld()
				ps, vs, ls := make([]stPos, c.n), make([]stVel, c.n), make([]stLife, c.n)
				for i := range c.n {
					ps[i], vs[i], ls[i] = stPos{i}, stVel{i}, stLife{i}
				}
				_, err := ecs.BulkAddEntity3(w, ps, vs, ls)
				must(t, err)
				var kept []ecs.EntityID
				must(t, w.Run(func(ents ecs.EntitiesViewMut, p ecs.ViewMut[stPos], v ecs.ViewMut[stVel], l ecs.ViewMut[stLife]) {
					l.ClearAllRemovedAndDeleted()
					kept = c.run(ents, p, v, l)
				}))
				_, err = w.MemoryUsage() // a World-level call: the purge
				must(t, err)
				deepEqual(t, "storages", stLook(t, w), c.want)
				equal(t, "deletions logged", len(stDeleted(t, w)), c.log)
				for _, id := range kept {
					isTrue(t, w.IsAlive(id), "%v is not alive", id)
					v, err := ecs.Get[stVel](w, id)
					must(t, err)
					equal(t, "kept Vel", v, stVel{9})
				}
				must(t, ecs.CheckLayouts(w))
			})
		}
	}
}

// TestIDsFromAnotherWorld documents the limit stated on EntityID: an id
// is only meaningful in the world that issued it. Given to another world,
// it is taken as that world's id with the same index and generation: it
// acts on that world's entity when one is alive with both, and is
// refused like any dead id when the generation differs.
func TestIDsFromAnotherWorld(t *testing.T) {
	// worlds returns w1, with entities 0.0 and 1.0, and w2, with entities
	// 0.0 and 1.1 (its first entity of index 1 was deleted), and w2's ids.
	worlds := func(t *testing.T) (w1, w2 *ecs.World, ids2 []ecs.EntityID) {
		w1, w2 = ecs.NewWorld(), ecs.NewWorld()
		_, err := ecs.BulkAddEntity1(w1, []stPos{{10}, {11}})
		must(t, err)
		ids2, err = ecs.BulkAddEntity1(w2, []stPos{{20}, {21}})
		must(t, err)
		must(t, w2.DeleteEntity(ids2[1]))
		id, err := ecs.AddEntity1(w2, stPos{22})
		must(t, err)
		ids2[1] = id
		equal(t, "w2's ids", fmt.Sprint(ids2), "[EntityID(0.0) EntityID(1.1)]")
		return w1, w2, ids2
	}
	cases := []struct {
		name  string
		k     int  // which of w2's ids is given to w1
		taken bool // whether w1 takes it for its own entity of that index
	}{
		{"same index and generation: taken as w1's entity", 0, true},
		{"same index, other generation: refused as dead", 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w1, w2, ids2 := worlds(t)
			id := ids2[c.k]
			equal(t, "w1.IsAlive", w1.IsAlive(id), c.taken)
			p, err := ecs.Get[stPos](w1, id)
			delErr := w1.DeleteEntity(id)
			if c.taken {
				must(t, err)
				equal(t, "w1's component, not w2's", p, stPos{10 + c.k})
				must(t, delErr)
				equal(t, "w1's entity deleted", w1.EntityCount(), 1)
			} else {
				errIs(t, err, ecs.ErrDeadEntity)
				errIs(t, delErr, ecs.ErrDeadEntity)
				equal(t, "w1 unchanged", w1.EntityCount(), 2)
			}
			equal(t, "w2 untouched", w2.IsAlive(id), true)
			equal(t, "w2's entity count", w2.EntityCount(), 2)
		})
	}
}

// TestForgedGenerations: ids whose generation is one the world never
// issues (the top bit set, which the entities storage keeps for itself)
// name no entity, whether their slot holds a live entity or a dead one,
// and every call given one refuses it and changes nothing.
func TestForgedGenerations(t *testing.T) {
	w := ecs.NewWorld()
	live, err := ecs.AddEntity1(w, stPos{1})
	must(t, err)
	gone, err := ecs.AddEntity1(w, stPos{2})
	must(t, err)
	must(t, w.DeleteEntity(gone))
	forge := func(id ecs.EntityID, gen uint32) ecs.EntityID {
		return ecs.EntityID(uint64(gen)<<32 | uint64(id.Index()))
	}
	cases := []struct {
		name string
		id   ecs.EntityID
	}{
		{"live slot, top bit over its generation", forge(live, 1<<31)},
		{"live slot, all bits", forge(live, 1<<32-1)},
		{"dead slot, top bit over its next generation", forge(gone, 1<<31|1)},
		{"dead slot, top bit over its old generation", forge(gone, 1<<31)},
		{"slot never used", forge(ecs.EntityID(7), 1<<31)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			isTrue(t, !w.IsAlive(c.id), "%v is alive", c.id)
			_, err := ecs.Get[stPos](w, c.id)
			errIs(t, err, ecs.ErrDeadEntity)
			errIs(t, ecs.AddComponent1(w, c.id, stVel{1}), ecs.ErrDeadEntity)
			errIs(t, w.DeleteEntity(c.id), ecs.ErrDeadEntity)
			errIs(t, w.DeleteEntities(live, c.id), ecs.ErrDeadEntity)
			must(t, w.Run(func(ents ecs.EntitiesViewMut) {
				isTrue(t, !ents.DeleteUnchecked(c.id), "DeleteUnchecked(%v) killed something", c.id)
			}))
			// Nothing changed: the live entity keeps its component, the
			// dead slot comes back with its next generation.
			equal(t, "entities", w.EntityCount(), 1)
			isTrue(t, w.IsAlive(live), "the live entity died")
			p, err := ecs.Get[stPos](w, live)
			must(t, err)
			equal(t, "its component", p, stPos{1})
			equal(t, "stLook", fmt.Sprint(stLook(t, w)), fmt.Sprint(stCounts{Pos: 1}))
		})
	}
	next, err := w.AddEntity()
	must(t, err)
	equal(t, "recycled slot", next, forge(gone, 1))
}

// TestDeleteUncheckedPurgeTiming: the leftovers of DeleteUnchecked stay
// through World.Run, World.RunWorkload, a Borrow's release and the
// World-level reads, also when the sync point at their end re-aligns
// storages for a join, and go at the next World-level change or
// AllStoragesViewMut borrow, logged as deleted then.
func TestDeleteUncheckedPurgeTiming(t *testing.T) {
	realigned := func(t *testing.T, w *ecs.World) {
		t.Helper()
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "the sync point did not re-align Pos to Vel")
	}
	cases := []struct {
		name string
		call func(t *testing.T, w *ecs.World, victim ecs.EntityID)
		left bool // the leftovers are still there after call
	}{
		{"World.Run with no re-alignment", func(t *testing.T, w *ecs.World, _ ecs.EntityID) {
			must(t, w.Run(func(p ecs.View[Pos]) { _ = p.Len() }))
		}, true},
		{"World.Run of a join asking for re-alignment", func(t *testing.T, w *ecs.World, _ ecs.EntityID) {
			must(t, w.Run(moveAll))
			realigned(t, w)
		}, true},
		{"World.RunWorkload of a join asking for re-alignment", func(t *testing.T, w *ecs.World, _ ecs.EntityID) {
			must(t, w.AddWorkload("move", moveAll))
			must(t, w.RunWorkload("move"))
			realigned(t, w)
		}, true},
		{"World.Borrow released after a join asking for re-alignment", func(t *testing.T, w *ecs.World, _ ecs.EntityID) {
			var pos ecs.ViewMut[Pos]
			var vel ecs.View[Vel]
			release, err := w.Borrow(&pos, &vel)
			must(t, err)
			moveAll(pos, vel)
			release()
			realigned(t, w)
		}, true},
		{"World-level reads", func(t *testing.T, w *ecs.World, victim ecs.EntityID) {
			_, err := ecs.Get[stName](w, victim)
			errIs(t, err, ecs.ErrDeadEntity)
			_, _, err = ecs.Get2[stName, stLife](w, victim)
			errIs(t, err, ecs.ErrDeadEntity)
			ok, err := ecs.Contains[stName](w, victim)
			must(t, err)
			isTrue(t, !ok, "Contains of the dead victim")
			_, _, err = ecs.GroupLen[stName](w)
			must(t, err)
			_ = ecs.TrackingOf[stLife](w)
			isTrue(t, !w.IsAlive(victim), "victim alive")
			_ = w.EntityCount()
		}, true},
		{"a World-level change", func(t *testing.T, w *ecs.World, _ ecs.EntityID) {
			_, err := w.AddEntity()
			must(t, err)
		}, false},
		{"SortAs", func(t *testing.T, w *ecs.World, _ ecs.EntityID) {
			_, err := ecs.SortAs[Pos, Vel](w)
			must(t, err)
		}, false},
		{"a system with an AllStoragesViewMut", func(t *testing.T, w *ecs.World, _ ecs.EntityID) {
			must(t, w.Run(func(ecs.AllStoragesViewMut) {}))
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, _ := churned(t, 1000)
			// The victim's Pos and Vel stay too: sorts at sync points move them.
			victim, err := ecs.AddEntity4(w, stName{"victim"}, stLife{7}, Pos{}, Vel{})
			must(t, err)
			must(t, w.Run(func(l ecs.ViewMut[stLife]) { l.ClearAllRemovedAndDeleted() }))
			must(t, w.Run(func(ents ecs.EntitiesViewMut) { ents.DeleteUnchecked(victim) }))

			c.call(t, w, victim)
			var names, lives int
			must(t, w.Run(func(n ecs.View[stName], l ecs.View[stLife]) { names, lives = n.Len(), l.Len() }))
			if c.left {
				equal(t, "leftovers after "+c.name, [2]int{names, lives}, [2]int{1, 1})
				deepEqual(t, "deletion log", stDeleted(t, w), []string(nil))
			} else {
				equal(t, "leftovers after "+c.name, [2]int{names, lives}, [2]int{0, 0})
				deepEqual(t, "deletion log", stDeleted(t, w), []string{fmt.Sprintf("%v=7", victim)})
			}
			must(t, ecs.CheckLayouts(w))
		})
	}
}

// TestEntityIDParts: an id's index and generation, how it prints, and
// NullID, which no entity ever has.
func TestEntityIDParts(t *testing.T) {
	w := ecs.NewWorld()
	first, err := w.AddEntity()
	must(t, err)
	second, err := w.AddEntity()
	must(t, err)
	must(t, w.DeleteEntity(first))
	reused, err := w.AddEntity()
	must(t, err)
	for _, c := range []struct {
		name       string
		id         ecs.EntityID
		index, gen uint32
		null       bool
		str        string
	}{
		{"the first entity", first, 0, 0, false, "EntityID(0.0)"},
		{"the second entity", second, 1, 0, false, "EntityID(1.0)"},
		{"the first index reused", reused, 0, 1, false, "EntityID(0.1)"},
		{"the zero id", ecs.EntityID(0), 0, 0, false, "EntityID(0.0)"},
		{"NullID", ecs.NullID, math.MaxUint32, math.MaxUint32, true, "EntityID(null)"},
	} {
		if c.id.Index() != c.index || c.id.Generation() != c.gen || c.id.IsNull() != c.null || c.id.String() != c.str {
			t.Errorf("%s: Index %d, Generation %d, IsNull %v, String %q; want %d, %d, %v, %q",
				c.name, c.id.Index(), c.id.Generation(), c.id.IsNull(), c.id.String(), c.index, c.gen, c.null, c.str)
		}
	}
	if w.IsAlive(first) || !w.IsAlive(reused) || w.IsAlive(ecs.NullID) {
		t.Errorf("IsAlive: deleted %v, reused %v, NullID %v; want false, true, false",
			w.IsAlive(first), w.IsAlive(reused), w.IsAlive(ecs.NullID))
	}
}
