package ecs_test

// The "Tracking" chapter (Going Further): insertion, modification,
// deletion and removal, declared per component type; seen by a system
// since its previous run inside a workload, and since the last clear
// outside; the clear functions; timestamps and the …OlderThan clears.
// One subtest per snippet of the chapter, in its order.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// bookLife is the guide's Life, declared the Go way:
//
//	impl Component for Life {
//	    type Tracking = track::Modification;
//	}
type bookLife struct{ HP float32 }

func (bookLife) Tracking() ecs.Tracking { return ecs.TrackModification }

// bookIsDead is the guide's IsDead tag.
type bookIsDead struct{}

// bookTracked tracks everything: the guide's `track::All`.
type bookTracked struct{ V int }

func (bookTracked) Tracking() ecs.Tracking { return ecs.TrackAll }

// bookCheckDeath is the guide's run:
//
//	fn run(life: View<Life>, mut is_dead: ViewMut<IsDead>) {
//	    for (entity, life) in life.modified().iter().with_id() {
//	        if life.0 <= 0.0 {
//	            is_dead.add_component_unchecked(entity, IsDead);
//	        }
//	    }
//	}
//
// Where Rust's modified() cannot fail (the type system knows Life tracks
// modification), Go's returns an error for a type that does not.
func bookCheckDeath(life ecs.View[bookLife], isDead ecs.ViewMut[bookIsDead]) error {
	mod, err := life.Modified()
	if err != nil {
		return err
	}
	for entity, l := range mod.WithID() {
		if l.HP <= 0 {
			if err := isDead.AddComponentUnchecked(entity, bookIsDead{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// bookDamage takes hp from each entity in hits, through a ViewMut: handing
// a component out for writing marks it modified.
func bookDamage(hits map[ecs.EntityID]float32) func(ecs.ViewMut[bookLife]) {
	return func(vm ecs.ViewMut[bookLife]) {
		for id, hp := range hits {
			if l, ok := vm.Get(id); ok {
				l.HP -= hp
			}
		}
	}
}

func TestBookTracking(t *testing.T) {
	// "deletion will store the component in the tracking info whereas
	// removal gives it back immediately":
	//
	//	fn delete(&mut self, entity: EntityId) -> bool {}
	//	fn remove(&mut self, entity: EntityId) -> Option<T> {}
	t.Run("delete stores, remove gives back", func(t *testing.T) {
		w := ecs.NewWorld()
		a, err := ecs.AddEntity1(w, bookTracked{1})
		must(t, err)
		b, err := ecs.AddEntity1(w, bookTracked{2})
		must(t, err)
		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) {
			isTrue(t, vm.Delete(a), "delete returned false")
			v, ok := vm.Remove(b)
			isTrue(t, ok, "remove returned nothing")
			equal(t, "removed value", v, bookTracked{2})
		}))
		sameSeq(t, "deleted: the component is kept", deletedOf[bookTracked](t, w), []del[bookTracked]{{a, bookTracked{1}}})
		sameSeq(t, "removed: the entity only", removedOf[bookTracked](t, w), []ecs.EntityID{b})
	})

	// "Components can be deleted or removed but whole entities can only be
	// deleted."
	t.Run("deleting an entity deletes its components", func(t *testing.T) {
		w := ecs.NewWorld()
		id, err := ecs.AddEntity2(w, bookTracked{7}, bookLife{3})
		must(t, err)
		must(t, w.DeleteEntity(id))
		sameSeq(t, "deleted", deletedOf[bookTracked](t, w), []del[bookTracked]{{id, bookTracked{7}}})
		sameSeq(t, "removed", removedOf[bookTracked](t, w), nil)
	})

	// Declaration: "Tracking is set with the Component trait. You can set it
	// to any single operation or use All to track everything."
	t.Run("declaration with a Tracking method", func(t *testing.T) {
		w := ecs.NewWorld()
		equal(t, "Life tracks", ecs.TrackingOf[bookLife](w), ecs.TrackModification)
		equal(t, "All tracks", ecs.TrackingOf[bookTracked](w), ecs.TrackAll)
		equal(t, "IsDead tracks", ecs.TrackingOf[bookIsDead](w), ecs.Tracking(0))
		// Life tracks modification only: asking for insertions is an error
		// naming the type and what it lacks, not an empty answer.
		must(t, w.Run(func(life ecs.View[bookLife]) {
			_, err := life.Modified()
			must(t, err)
			_, err = life.Inserted()
			errIs(t, err, ecs.ErrNotTracked)
			te := errAs[*ecs.TrackingError](t, err)
			equal(t, "missing", te.Missing, ecs.TrackInsertion)
			errHas(t, err, "ecs_test.bookLife", "insertion")
		}))
	})

	// The Go addition: types you do not own cannot have a method, so the
	// world tracks them on request.
	t.Run("declaration with TrackComponent", func(t *testing.T) {
		w := ecs.NewWorld()
		must(t, ecs.TrackComponent[Pos](w, ecs.TrackModification|ecs.TrackDeletion))
		equal(t, "Pos tracks", ecs.TrackingOf[Pos](w), ecs.TrackModification|ecs.TrackDeletion)
		id, err := ecs.AddEntity1(w, Pos{1, 2})
		must(t, err)
		must(t, w.Run(func(vm ecs.ViewMut[Pos]) { vm.MustGet(id).X = 10 }))
		sameSet(t, "modified Pos", modifiedIDs[Pos](t, w), []ecs.EntityID{id})
		must(t, w.DeleteEntity(id))
		sameSeq(t, "deleted Pos", deletedOf[Pos](t, w), []del[Pos]{{id, Pos{10, 2}}})
		// It adds to what a Tracking method declares.
		must(t, ecs.TrackComponent[bookLife](w, ecs.TrackInsertion))
		equal(t, "Life tracks", ecs.TrackingOf[bookLife](w), ecs.TrackInsertion|ecs.TrackModification)
	})

	// Inserted or Modified: the guide's run, in a workload with a system
	// that damages some entities. Only the modified ones are checked, so
	// an entity that was created dead is not flagged; and each frame only
	// what changed since check_death's previous run.
	t.Run("life.modified().iter().with_id()", func(t *testing.T) {
		w := ecs.NewWorld()
		ids, err := ecs.BulkAddEntity1(w, []bookLife{{10}, {5}, {0}, {3}})
		must(t, err)
		hits := map[ecs.EntityID]float32{}
		must(t, w.AddWorkload("main_loop", bookDamage(hits), bookCheckDeath))
		dead := func() []ecs.EntityID {
			var v ecs.View[bookIsDead]
			release, err := w.Borrow(&v)
			must(t, err)
			defer release()
			return sorted(v.IDs())
		}

		must(t, w.RunWorkload("main_loop")) // nothing damaged yet
		sameSet(t, "dead after frame 1", dead(), nil)

		hits[ids[0]], hits[ids[1]] = 4, 5 // 10 -> 6, 5 -> 0
		must(t, w.RunWorkload("main_loop"))
		sameSet(t, "dead after frame 2", dead(), ids[1:2])

		// ids[1] is not hit again: not modified since check_death's
		// previous run, so not looked at, though still at 0 HP. Flagging
		// happens once.
		clear(hits)
		hits[ids[0]], hits[ids[3]] = 6, 1 // 6 -> 0, 3 -> 2
		must(t, w.RunWorkload("main_loop"))
		sameSet(t, "dead after frame 3", dead(), []ecs.EntityID{ids[0], ids[1]})
		// ids[2] was created with 0 HP and never modified: never flagged.
	})

	// "*_mut versions also exist": through a ViewMut, what the filtered
	// iteration hands out is marked modified again.
	t.Run("inserted, modified, inserted_or_modified and the mut versions", func(t *testing.T) {
		w := ecs.NewWorld()
		old, err := ecs.AddEntity1(w, bookTracked{1})
		must(t, err)
		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) { vm.ClearAllInserted() }))
		changed, err := ecs.AddEntity1(w, bookTracked{2})
		must(t, err)
		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) { vm.MustGet(old).V = 10 }))
		must(t, w.Run(func(v ecs.View[bookTracked]) {
			ins, err := v.Inserted()
			sameSet(t, "inserted", changedIDs(t, ins, err), []ecs.EntityID{changed})
			mod, err := v.Modified()
			sameSet(t, "modified", changedIDs(t, mod, err), []ecs.EntityID{old})
			both, err := v.InsertedOrModified()
			sameSet(t, "inserted_or_modified", changedIDs(t, both, err), []ecs.EntityID{old, changed})
		}))
		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) error {
			ins, err := vm.Inserted() // inserted_mut
			if err != nil {
				return err
			}
			for c := range ins.All() {
				c.V = 20
			}
			return nil
		}))
		got, err := ecs.Get[bookTracked](w, changed)
		must(t, err)
		equal(t, "written through inserted_mut", got, bookTracked{20})
		sameSet(t, "modified after inserted_mut", modifiedIDs[bookTracked](t, w), []ecs.EntityID{old, changed})
	})

	// Usage: "When inside a workload you will get all tracking information
	// since the last time this system ran. Outside workloads you'll get
	// information since the last call to clear_*."
	t.Run("since the last run, or since the last clear", func(t *testing.T) {
		w := ecs.NewWorld()
		var inWorkload []int
		must(t, w.AddWorkload("count", func(v ecs.View[bookTracked]) error {
			ins, err := v.Inserted()
			inWorkload = append(inWorkload, ins.Count())
			return err
		}))
		outside := func() int {
			var n int
			must(t, w.Run(func(v ecs.View[bookTracked]) error {
				ins, err := v.Inserted()
				n = ins.Count()
				return err
			}))
			return n
		}
		for i := range 3 {
			_, err := ecs.AddEntity1(w, bookTracked{i})
			must(t, err)
			must(t, w.RunWorkload("count"))
			equal(t, "outside, not cleared", outside(), i+1)
		}
		sameSeq(t, "in the workload, one per run", inWorkload, []int{1, 1, 1})
		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) { vm.ClearAllInserted() }))
		equal(t, "outside, after clear_all_inserted", outside(), 0)
		must(t, w.RunWorkload("count"))
		equal(t, "in the workload, nothing new", inWorkload[3], 0)
	})

	// Removed or Deleted: "Removed and deleted cannot be used with iter but
	// can be accessed with removed, deleted or removed_or_deleted methods
	// on views."
	t.Run("removed, deleted, removed_or_deleted", func(t *testing.T) {
		w := ecs.NewWorld()
		ids, err := ecs.BulkAddEntity1(w, []bookTracked{{0}, {1}, {2}, {3}})
		must(t, err)
		_, err = ecs.DeleteComponent[bookTracked](w, ids[0])
		must(t, err)
		_, _, err = ecs.Remove[bookTracked](w, ids[1])
		must(t, err)
		must(t, w.DeleteEntity(ids[2]))
		must(t, w.Run(func(v ecs.View[bookTracked]) error {
			removed, err := v.Removed()
			if err != nil {
				return err
			}
			sameSeq(t, "removed", collectSeq(removed), ids[1:2])
			deleted, err := v.Deleted()
			if err != nil {
				return err
			}
			var dels []del[bookTracked]
			for id, c := range deleted {
				dels = append(dels, del[bookTracked]{id, c})
			}
			sameSeq(t, "deleted", dels, []del[bookTracked]{{ids[0], bookTracked{0}}, {ids[2], bookTracked{2}}})
			both, err := v.RemovedOrDeleted()
			if err != nil {
				return err
			}
			sameSeq(t, "removed_or_deleted", collectSeq(both), []ecs.EntityID{ids[1], ids[0], ids[2]})
			return nil
		}))
		// Life tracks modification only: no deletion log to ask for.
		must(t, w.Run(func(life ecs.View[bookLife]) {
			_, err := life.Deleted()
			errIs(t, err, ecs.ErrNotTracked)
		}))
	})

	// Reset: "Inside workloads tracking information doesn't need to be
	// reset." Outside, each clear_all_* resets its own kind.
	t.Run("the clear_all functions", func(t *testing.T) {
		cases := []struct {
			name                   string
			clear                  func(ecs.ViewMut[bookTracked])
			ins, mod, del, removed bool // what is left
		}{
			{"clear_all_inserted", ecs.ViewMut[bookTracked].ClearAllInserted, false, true, true, true},
			{"clear_all_modified", ecs.ViewMut[bookTracked].ClearAllModified, true, false, true, true},
			{"clear_all_inserted_and_modified", ecs.ViewMut[bookTracked].ClearAllInsertedAndModified, false, false, true, true},
			{"clear_all_removed", ecs.ViewMut[bookTracked].ClearAllRemoved, true, true, true, false},
			{"clear_all_deleted", ecs.ViewMut[bookTracked].ClearAllDeleted, true, true, false, true},
			{"clear_all_removed_and_deleted", ecs.ViewMut[bookTracked].ClearAllRemovedAndDeleted, true, true, false, false},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				w := ecs.NewWorld()
				ids, err := ecs.BulkAddEntity1(w, []bookTracked{{0}, {1}, {2}, {3}})
				must(t, err)
				must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) { vm.MustGet(ids[0]).V = 10 }))
				_, _, err = ecs.Remove[bookTracked](w, ids[1])
				must(t, err)
				must(t, w.DeleteEntity(ids[2]))
				// ids[0] modified, ids[3] inserted (ids[0] too), ids[1]
				// removed, ids[2] deleted. A workload system sees them all
				// on its first run, and then needs no reset.
				var seen [][]ecs.EntityID
				must(t, w.AddWorkload("look", func(v ecs.View[bookTracked]) error {
					r, err := v.RemovedOrDeleted()
					seen = append(seen, collectSeq(r))
					return err
				}))
				must(t, w.RunWorkload("look"))
				must(t, w.Run(c.clear))
				want := func(keep bool, ids ...ecs.EntityID) []ecs.EntityID {
					if keep {
						return ids
					}
					return nil
				}
				sameSet(t, "inserted", insertedIDs[bookTracked](t, w), want(c.ins, ids[0], ids[3]))
				sameSet(t, "modified", modifiedIDs[bookTracked](t, w), want(c.mod, ids[0]))
				var wantDel []del[bookTracked]
				if c.del {
					wantDel = []del[bookTracked]{{ids[2], bookTracked{2}}}
				}
				sameSeq(t, "deleted", deletedOf[bookTracked](t, w), wantDel)
				sameSeq(t, "removed", removedOf[bookTracked](t, w), want(c.removed, ids[1]))
				must(t, w.RunWorkload("look"))
				sameSeq(t, "the workload system's first run", seen[0], []ecs.EntityID{ids[1], ids[2]})
				sameSeq(t, "its second run: nothing new, no reset needed", seen[1], nil)
			})
		}
	})

	// "You can also reset removed and deleted information older than some
	// timestamp. Use World::get_tracking_timestamp or
	// AllStorages::get_tracking_timestamp to get a timestamp."
	t.Run("timestamps and clear_all_*_older_than_timestamp", func(t *testing.T) {
		w := ecs.NewWorld()
		ids, err := ecs.BulkAddEntity1(w, []bookTracked{{0}, {1}, {2}, {3}})
		must(t, err)
		must(t, w.DeleteEntity(ids[0]))
		_, _, err = ecs.Remove[bookTracked](w, ids[1])
		must(t, err)
		ts := w.TrackingTimestamp()
		var fromAll uint64
		must(t, w.Run(func(all ecs.AllStoragesViewMut) error {
			fromAll = all.TrackingTimestamp()
			return all.DeleteEntity(ids[2])
		}))
		isTrue(t, newerThan(fromAll, ts), "AllStorages timestamp %d not after World's %d", fromAll, ts)
		_, _, err = ecs.Remove[bookTracked](w, ids[3])
		must(t, err)

		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) { vm.ClearAllDeletedOlderThan(ts) }))
		sameSeq(t, "deleted after clear_all_deleted_older_than_timestamp", deletedOf[bookTracked](t, w),
			[]del[bookTracked]{{ids[2], bookTracked{2}}})
		sameSeq(t, "removed untouched", removedOf[bookTracked](t, w), []ecs.EntityID{ids[1], ids[3]})

		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) { vm.ClearAllRemovedOlderThan(ts) }))
		sameSeq(t, "removed after clear_all_removed_older_than_timestamp", removedOf[bookTracked](t, w), ids[3:4])

		// The system holding the AllStoragesViewMut deleted after it read
		// fromAll: clearing up to fromAll keeps that deletion, and drops
		// the removal made before; clearing up to a timestamp read after
		// the deletion drops it.
		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) { vm.ClearAllRemovedAndDeletedOlderThan(fromAll) }))
		sameSeq(t, "deleted after clear_all_removed_and_deleted_older_than_timestamp", deletedOf[bookTracked](t, w),
			[]del[bookTracked]{{ids[2], bookTracked{2}}})
		sameSeq(t, "removed after clear_all_removed_and_deleted_older_than_timestamp", removedOf[bookTracked](t, w), ids[3:4])
		later := w.TrackingTimestamp()
		must(t, w.Run(func(vm ecs.ViewMut[bookTracked]) { vm.ClearAllRemovedAndDeletedOlderThan(later) }))
		sameSeq(t, "deleted after clearing up to a later timestamp", deletedOf[bookTracked](t, w), nil)
		sameSeq(t, "removed after clearing up to a later timestamp", removedOf[bookTracked](t, w), nil)
	})
}

// collectSeq collects a sequence.
func collectSeq[E any](s func(func(E) bool)) []E {
	var out []E
	for e := range s {
		out = append(out, e)
	}
	return out
}

// clrAll tracks everything; clrIM tracks insertion and modification only;
// clrNone tracks nothing. The world-level clears act on each as far as it
// tracks the kind.
type clrAll struct{ V int }
type clrIM struct{ V int }
type clrNone struct{ V int }

func (clrAll) Tracking() ecs.Tracking { return ecs.TrackAll }
func (clrIM) Tracking() ecs.Tracking  { return ecs.TrackInsertion | ecs.TrackModification }

// clrCounts is what the views of a world report outside workloads.
type clrCounts struct {
	InsAll, ModAll, DelAll, RemAll, InsIM, ModIM int
}

// clrWorld makes a world with changes of every kind recorded: three
// entities with clrAll and clrIM (inserted), the first two modified, the
// second's clrAll deleted and the third's removed; deleteTS is a
// timestamp between the deletion and the removal. Entities with clrNone
// are there so that an untracked storage is among those cleared.
func clrWorld(t *testing.T) (w *ecs.World, deleteTS uint64) {
	t.Helper()
	w = ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 3 {
		id, err := ecs.AddEntity3(w, clrAll{i}, clrIM{i}, clrNone{i})
		must(t, err)
		ids = append(ids, id)
	}
	must(t, w.Run(func(a ecs.ViewMut[clrAll], b ecs.ViewMut[clrIM]) {
		for _, id := range ids[:2] {
			pa, _ := a.Get(id)
			pa.V += 10
			pb, _ := b.Get(id)
			pb.V += 10
		}
		a.Delete(ids[1])
	}))
	deleteTS = w.TrackingTimestamp()
	must(t, w.Run(func(a ecs.ViewMut[clrAll]) { a.Remove(ids[2]) }))
	return w, deleteTS
}

func clrCount(t *testing.T, w *ecs.World) (c clrCounts) {
	t.Helper()
	must(t, w.Run(func(a ecs.View[clrAll], b ecs.View[clrIM]) error {
		for _, x := range []struct {
			n   *int
			get func() (ecs.Changed[clrAll], error)
		}{{&c.InsAll, a.Inserted}, {&c.ModAll, a.Modified}} {
			ch, err := x.get()
			if err != nil {
				return err
			}
			*x.n = ch.Count()
		}
		ins, err := b.Inserted()
		if err != nil {
			return err
		}
		mod, err := b.Modified()
		if err != nil {
			return err
		}
		c.InsIM, c.ModIM = ins.Count(), mod.Count()
		del, err := a.Deleted()
		if err != nil {
			return err
		}
		for range del {
			c.DelAll++
		}
		rem, err := a.Removed()
		if err != nil {
			return err
		}
		for range rem {
			c.RemAll++
		}
		return nil
	}))
	return c
}

// TestBookTrackingClearAllWorld: each World-level clear clears its kinds in
// every storage that tracks them, and nothing else; the AllStoragesViewMut
// form of each does the same from a system.
func TestBookTrackingClearAllWorld(t *testing.T) {
	before := clrCounts{InsAll: 1, ModAll: 1, DelAll: 1, RemAll: 1, InsIM: 3, ModIM: 2}
	cases := []struct {
		name  string
		world func(w *ecs.World, ts uint64) error
		all   func(a ecs.AllStoragesViewMut, ts uint64)
		want  clrCounts
	}{
		{"ClearAllInserted", func(w *ecs.World, _ uint64) error { return w.ClearAllInserted() },
			func(a ecs.AllStoragesViewMut, _ uint64) { a.ClearAllInserted() },
			clrCounts{0, 1, 1, 1, 0, 2}},
		{"ClearAllModified", func(w *ecs.World, _ uint64) error { return w.ClearAllModified() },
			func(a ecs.AllStoragesViewMut, _ uint64) { a.ClearAllModified() },
			clrCounts{1, 0, 1, 1, 3, 0}},
		{"ClearAllInsertedAndModified", func(w *ecs.World, _ uint64) error { return w.ClearAllInsertedAndModified() },
			func(a ecs.AllStoragesViewMut, _ uint64) { a.ClearAllInsertedAndModified() },
			clrCounts{0, 0, 1, 1, 0, 0}},
		{"ClearAllDeleted", func(w *ecs.World, _ uint64) error { return w.ClearAllDeleted() },
			func(a ecs.AllStoragesViewMut, _ uint64) { a.ClearAllDeleted() },
			clrCounts{1, 1, 0, 1, 3, 2}},
		{"ClearAllRemoved", func(w *ecs.World, _ uint64) error { return w.ClearAllRemoved() },
			func(a ecs.AllStoragesViewMut, _ uint64) { a.ClearAllRemoved() },
			clrCounts{1, 1, 1, 0, 3, 2}},
		{"ClearAllRemovedAndDeleted", func(w *ecs.World, _ uint64) error { return w.ClearAllRemovedAndDeleted() },
			func(a ecs.AllStoragesViewMut, _ uint64) { a.ClearAllRemovedAndDeleted() },
			clrCounts{1, 1, 0, 0, 3, 2}},
		{"ClearAllDeletedOlderThan", func(w *ecs.World, ts uint64) error { return w.ClearAllDeletedOlderThan(ts) },
			func(a ecs.AllStoragesViewMut, ts uint64) { a.ClearAllDeletedOlderThan(ts) },
			clrCounts{1, 1, 0, 1, 3, 2}},
		{"ClearAllRemovedOlderThan/before the removal", func(w *ecs.World, ts uint64) error { return w.ClearAllRemovedOlderThan(ts) },
			func(a ecs.AllStoragesViewMut, ts uint64) { a.ClearAllRemovedOlderThan(ts) },
			before},
		{"ClearAllRemovedOlderThan/now", func(w *ecs.World, _ uint64) error { return w.ClearAllRemovedOlderThan(w.TrackingTimestamp()) },
			func(a ecs.AllStoragesViewMut, _ uint64) { a.ClearAllRemovedOlderThan(a.TrackingTimestamp()) },
			clrCounts{1, 1, 1, 0, 3, 2}},
		{"ClearAllRemovedAndDeletedOlderThan", func(w *ecs.World, ts uint64) error { return w.ClearAllRemovedAndDeletedOlderThan(ts) },
			func(a ecs.AllStoragesViewMut, ts uint64) { a.ClearAllRemovedAndDeletedOlderThan(ts) },
			clrCounts{1, 1, 0, 1, 3, 2}},
	}
	for _, c := range cases {
		t.Run(c.name+"/World", func(t *testing.T) {
			w, ts := clrWorld(t)
			equal(t, "before", clrCount(t, w), before)
			must(t, c.world(w, ts))
			equal(t, "after", clrCount(t, w), c.want)
		})
		t.Run(c.name+"/AllStoragesViewMut", func(t *testing.T) {
			w, ts := clrWorld(t)
			must(t, w.Run(func(a ecs.AllStoragesViewMut) { c.all(a, ts) }))
			equal(t, "after", clrCount(t, w), c.want)
		})
	}
}

// TestBookTrackingClearAllBorrowed: a World-level clear while any view is
// held fails with a BorrowError naming the call and clears nothing, in
// any storage; released, it clears. A nil world is an error.
func TestBookTrackingClearAllBorrowed(t *testing.T) {
	before := clrCounts{InsAll: 1, ModAll: 1, DelAll: 1, RemAll: 1, InsIM: 3, ModIM: 2}
	holders := map[string]func(w *ecs.World) (func(), error){
		"View of a tracked storage": func(w *ecs.World) (func(), error) {
			var v ecs.View[clrIM]
			return w.Borrow(&v)
		},
		"ViewMut of an untracked storage": func(w *ecs.World) (func(), error) {
			var v ecs.ViewMut[clrNone]
			return w.Borrow(&v)
		},
		"AllStoragesViewMut": func(w *ecs.World) (func(), error) {
			var v ecs.AllStoragesViewMut
			return w.Borrow(&v)
		},
	}
	for name, hold := range holders {
		t.Run(name, func(t *testing.T) {
			w, _ := clrWorld(t)
			release, err := hold(w)
			must(t, err)
			for _, clear := range []func() error{w.ClearAllInserted, w.ClearAllInsertedAndModified, w.ClearAllRemovedAndDeleted} {
				err = clear()
				be := errAs[*ecs.BorrowError](t, err)
				hasAll(t, be.By, "World.ClearAll")
				equal(t, "resource", be.Resource, "all storages")
			}
			release()
			equal(t, "nothing cleared", clrCount(t, w), before)
			must(t, w.ClearAllInsertedAndModified())
			must(t, w.ClearAllRemovedAndDeleted())
			equal(t, "cleared", clrCount(t, w), clrCounts{})
		})
	}
	var nilWorld *ecs.World
	errIs(t, nilWorld.ClearAllDeleted(), ecs.ErrNilWorld)
}

// TestBookTrackingClearAllLent: the AllStoragesViewMut forms panic, as its
// other methods do, while it lends views, and clear nothing.
func TestBookTrackingClearAllLent(t *testing.T) {
	w, _ := clrWorld(t)
	before := clrCount(t, w)
	must(t, w.Run(func(a ecs.AllStoragesViewMut) {
		var v ecs.View[clrAll]
		release, err := a.Borrow(&v)
		must(t, err)
		mustPanic(t, func() { a.ClearAllInserted() })
		release()
	}))
	equal(t, "nothing cleared", clrCount(t, w), before)
}

// wlHealth tracks nothing: a system asking for its modifications fails.
type wlHealth struct{ HP int }

// wlHealed asks for the modified wlHealth, as the "Tracking in workloads"
// snippet's system does.
func wlHealed(health ecs.View[wlHealth]) error {
	_, err := health.Modified()
	return err
}

// TestBookTrackingInWorkloads: a workload does not turn tracking on for a
// system that asks for changes its type does not track, and AddWorkload
// cannot see the question: the system's first run fails with a
// TrackingError naming the system, the type and the missing kinds; the
// systems after it do not run; the storage still tracks nothing.
// Declaring the tracking (TrackComponent) makes the same workload run.
func TestBookTrackingInWorkloads(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.AddEntity1(w, wlHealth{10})
	must(t, err)
	after := 0
	// A ViewMut, so that it runs after wlHealed, which reads the same
	// storage: two readers could run side by side, and the second would
	// not be "after" the failure.
	must(t, w.AddWorkload("frame", wlHealed, func(ecs.ViewMut[wlHealth]) { after++ }))

	err = w.RunWorkload("frame")
	errIs(t, err, ecs.ErrNotTracked)
	we := errAs[*ecs.WorkloadError](t, err)
	equal(t, "Workload", we.Workload, "frame")
	equal(t, "System", we.System, "ecs_test.wlHealed")
	te := errAs[*ecs.TrackingError](t, err)
	equal(t, "Type", te.Type, "ecs_test.wlHealth")
	equal(t, "Missing", te.Missing, ecs.TrackModification)
	equal(t, "Has", te.Has, ecs.Tracking(0))
	hasAll(t, err.Error(), "wlHealed", "ecs_test.wlHealth", "modification", "TrackComponent")
	equal(t, "systems after it", after, 0)
	equal(t, "tracking turned on", ecs.TrackingOf[wlHealth](w), ecs.Tracking(0))
	nothingHeld(t, w)

	must(t, ecs.TrackComponent[wlHealth](w, ecs.TrackModification))
	must(t, w.RunWorkload("frame"))
	equal(t, "systems after it", after, 1)
}
