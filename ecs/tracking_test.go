package ecs_test

// Change tracking, edge cases, mostly as tables: replacement is a
// modification; what marks a component modified and what does not; Changed
// views in joins; every way to delete, and removal; errors for what a type
// does not track; TrackComponent; windows of systems in workloads running
// at different rates; the deletion log bounded by clears; the race
// detector on tracked storages in parallel workloads.

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// trLife tracks everything.
type trLife struct{ HP int }

func (trLife) Tracking() ecs.Tracking { return ecs.TrackAll }

// trMana tracks modification only.
type trMana struct{ MP int }

func (trMana) Tracking() ecs.Tracking { return ecs.TrackModification }

// trPlain declares nothing: the tests give it tracking with TrackComponent.
type trPlain struct{ V int }

// trTag is never tracked.
type trTag struct{}

// withView borrows a View[T] of w outside workloads and calls fn with it.
func withView[T any](t testing.TB, w *ecs.World, fn func(ecs.View[T])) {
	t.Helper()
	var v ecs.View[T]
	release, err := w.Borrow(&v)
	must(t, err)
	defer release()
	fn(v)
}

// withViewMut borrows a ViewMut[T] of w outside workloads and calls fn.
func withViewMut[T any](t testing.TB, w *ecs.World, fn func(ecs.ViewMut[T])) {
	t.Helper()
	var v ecs.ViewMut[T]
	release, err := w.Borrow(&v)
	must(t, err)
	defer release()
	fn(v)
}

// changedIDs returns the entities c visits, sorted.
func changedIDs[T any](t testing.TB, c ecs.Changed[T], err error) []ecs.EntityID {
	t.Helper()
	must(t, err)
	var ids []ecs.EntityID
	for id := range c.WithID() {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// insertedIDs, modifiedIDs and insOrModIDs return what a View[T] reports,
// outside workloads (a View never marks: looking changes nothing).
func insertedIDs[T any](t testing.TB, w *ecs.World) []ecs.EntityID {
	t.Helper()
	return queryIDs(t, w, ecs.View[T].Inserted)
}

func modifiedIDs[T any](t testing.TB, w *ecs.World) []ecs.EntityID {
	t.Helper()
	return queryIDs(t, w, ecs.View[T].Modified)
}

func insOrModIDs[T any](t testing.TB, w *ecs.World) []ecs.EntityID {
	t.Helper()
	return queryIDs(t, w, ecs.View[T].InsertedOrModified)
}

// queryIDs borrows a View[T] and returns the ids of the Changed view query
// makes of it.
func queryIDs[T any](t testing.TB, w *ecs.World, query func(ecs.View[T]) (ecs.Changed[T], error)) (ids []ecs.EntityID) {
	t.Helper()
	withView(t, w, func(v ecs.View[T]) {
		c, err := query(v)
		ids = changedIDs(t, c, err)
	})
	return ids
}

// del is one entry of a deletion log.
type del[T any] struct {
	ID ecs.EntityID
	V  T
}

func deletedOf[T any](t testing.TB, w *ecs.World) (log []del[T]) {
	t.Helper()
	withView(t, w, func(v ecs.View[T]) {
		d, err := v.Deleted()
		must(t, err)
		for id, c := range d {
			log = append(log, del[T]{id, c})
		}
	})
	return log
}

func removedOf[T any](t testing.TB, w *ecs.World) (ids []ecs.EntityID) {
	t.Helper()
	withView(t, w, func(v ecs.View[T]) {
		r, err := v.Removed()
		must(t, err)
		for id := range r {
			ids = append(ids, id)
		}
	})
	return ids
}

func removedOrDeletedOf[T any](t testing.TB, w *ecs.World) (ids []ecs.EntityID) {
	t.Helper()
	withView(t, w, func(v ecs.View[T]) {
		r, err := v.RemovedOrDeleted()
		must(t, err)
		for id := range r {
			ids = append(ids, id)
		}
	})
	return ids
}

// sameSeq fails the test unless got and want hold the same elements in
// the same order (nil and empty are the same).
func sameSeq[E comparable](t testing.TB, what string, got, want []E) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %v\n want %v", what, got, want)
	}
}

// sortedDels sorts a deletion log by entity, for logs whose order within
// one operation is unspecified.
func sortedDels[T any](log []del[T]) []del[T] {
	c := slices.Clone(log)
	slices.SortFunc(c, func(a, b del[T]) int { return int(a.ID.Index()) - int(b.ID.Index()) })
	return c
}

// clearedWorld returns a world with n entities with trLife{i} (and every
// other one a trTag), the insertions already cleared: the tests below
// start from "nothing changed".
func clearedWorld(t testing.TB, n int) (*ecs.World, []ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range n {
		id, err := ecs.AddEntity1(w, trLife{i})
		must(t, err)
		if i%2 == 0 {
			must(t, ecs.AddComponent1(w, id, trTag{}))
		}
		ids = append(ids, id)
	}
	withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.ClearAllInsertedAndModified() })
	if got := insOrModIDs[trLife](t, w); len(got) != 0 {
		t.Fatalf("after clearing: %v still reported", got)
	}
	return w, ids
}

// TestTrackingReplaceIsModification: giving an entity a component of a type
// it already has overwrites it, and counts as a modification, not an
// insertion, by every path. Giving it back after a deletion is an
// insertion.
func TestTrackingReplaceIsModification(t *testing.T) {
	cases := []struct {
		name    string
		replace func(t *testing.T, w *ecs.World, id ecs.EntityID)
	}{
		{"AddComponent1", func(t *testing.T, w *ecs.World, id ecs.EntityID) {
			must(t, ecs.AddComponent1(w, id, trLife{100}))
		}},
		{"AddComponent2", func(t *testing.T, w *ecs.World, id ecs.EntityID) {
			must(t, ecs.AddComponent2(w, id, trTag{}, trLife{100}))
		}},
		{"ViewMut.AddComponent", func(t *testing.T, w *ecs.World, id ecs.EntityID) {
			must(t, w.Run(func(e ecs.EntitiesView, vm ecs.ViewMut[trLife]) error {
				return vm.AddComponent(e, id, trLife{100})
			}))
		}},
		{"ViewMut.AddComponentUnchecked", func(t *testing.T, w *ecs.World, id ecs.EntityID) {
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { must(t, vm.AddComponentUnchecked(id, trLife{100})) })
		}},
		{"AllStoragesViewMut", func(t *testing.T, w *ecs.World, id ecs.EntityID) {
			must(t, w.Run(func(all ecs.AllStoragesViewMut) error { return ecs.AddComponent1(all, id, trLife{100}) }))
		}},
		{"in a workload", func(t *testing.T, w *ecs.World, id ecs.EntityID) {
			must(t, w.AddWorkload("replace", func(vm ecs.ViewMut[trLife]) error {
				return vm.AddComponentUnchecked(id, trLife{100})
			}))
			must(t, w.RunWorkload("replace"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, ids := clearedWorld(t, 3)
			c.replace(t, w, ids[1])
			got, err := ecs.Get[trLife](w, ids[1])
			must(t, err)
			equal(t, "replaced value", got, trLife{100})
			sameSet(t, "Inserted", insertedIDs[trLife](t, w), nil)
			sameSet(t, "Modified", modifiedIDs[trLife](t, w), []ecs.EntityID{ids[1]})
			sameSet(t, "InsertedOrModified", insOrModIDs[trLife](t, w), []ecs.EntityID{ids[1]})
			// Not a deletion or removal of the old value either.
			sameSeq(t, "Deleted", deletedOf[trLife](t, w), nil)
			sameSeq(t, "Removed", removedOf[trLife](t, w), nil)
		})
	}
	t.Run("after a deletion it is an insertion", func(t *testing.T) {
		w, ids := clearedWorld(t, 3)
		withViewMut(t, w, func(vm ecs.ViewMut[trLife]) {
			vm.MustGet(ids[0]).HP = 50 // modified, then deleted: the modification goes with it
			isTrue(t, vm.Delete(ids[0]), "Delete found nothing")
		})
		must(t, ecs.AddComponent1(w, ids[0], trLife{7}))
		sameSet(t, "Inserted", insertedIDs[trLife](t, w), []ecs.EntityID{ids[0]})
		sameSet(t, "Modified", modifiedIDs[trLife](t, w), nil)
		sameSeq(t, "Deleted", deletedOf[trLife](t, w), []del[trLife]{{ids[0], trLife{50}}})
	})
	t.Run("a type tracking insertion only reports nothing", func(t *testing.T) {
		w := ecs.NewWorld()
		id, err := ecs.AddEntity1(w, trPlain{1})
		must(t, err)
		must(t, ecs.TrackComponent[trPlain](w, ecs.TrackInsertion))
		must(t, ecs.AddComponent1(w, id, trPlain{2}))
		sameSet(t, "Inserted", insertedIDs[trPlain](t, w), nil)
	})
}

// TestTrackingWorldEachMarks: Each1 … Each8 hand out pointers "which fn
// may change", like a ViewMut's iteration: writes through them should be
// recorded as modifications of a tracked type.
func TestTrackingWorldEachMarks(t *testing.T) {
	w, ids := clearedWorld(t, 3)
	must(t, ecs.Each1(w, func(_ ecs.EntityID, l *trLife) { l.HP += 10 }))
	sameSet(t, "Modified after Each1", modifiedIDs[trLife](t, w), ids)
}

// keys collects the first values of a sequence.
func keys[K, V any](seq func(func(K, V) bool)) []K {
	var out []K
	for k := range seq {
		out = append(out, k)
	}
	return out
}

// TestTrackingDeletionPaths: every way a component leaves as a deletion
// logs it with its last value; the log keeps it (through later changes,
// later deletions and further reads) until cleared. None of them is a
// removal.
func TestTrackingDeletionPaths(t *testing.T) {
	// Entities 0..3 have trLife{i}; 0 and 2 are tagged. want lists the
	// indices whose component must be logged as deleted, in order (nil
	// order: any order).
	cases := []struct {
		name    string
		del     func(t *testing.T, w *ecs.World, ids []ecs.EntityID)
		want    []int
		ordered bool
	}{
		{"DeleteEntity", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			must(t, w.DeleteEntity(ids[2]))
			must(t, w.DeleteEntity(ids[0]))
		}, []int{2, 0}, true},
		{"AllStoragesViewMut.DeleteEntity", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			must(t, w.Run(func(all ecs.AllStoragesViewMut) error { return all.DeleteEntity(ids[1]) }))
		}, []int{1}, true},
		{"Strip", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			must(t, w.Strip(ids[3]))
			must(t, ecs.Strip(w, ids[1]))
		}, []int{3, 1}, true},
		{"AllStoragesViewMut.Strip", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			must(t, w.Run(func(all ecs.AllStoragesViewMut) error { return all.Strip(ids[0]) }))
		}, []int{0}, true},
		{"DeleteAny", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			n, err := ecs.DeleteAny[trTag](w)
			must(t, err)
			equal(t, "DeleteAny", n, 2)
		}, []int{0, 2}, false},
		{"DeleteComponent", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			ok, err := ecs.DeleteComponent[trLife](w, ids[1])
			must(t, err)
			isTrue(t, ok, "DeleteComponent found nothing")
		}, []int{1}, true},
		{"ViewMut.Delete", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) {
				isTrue(t, vm.Delete(ids[3]), "Delete found nothing")
				isTrue(t, !vm.Delete(ids[3]), "Delete found it twice")
				isTrue(t, vm.Delete(ids[2]), "Delete found nothing")
			})
		}, []int{3, 2}, true},
		{"DeleteFrom", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			must(t, w.Run(func(vm ecs.ViewMut[trLife], tag ecs.ViewMut[trTag]) {
				equal(t, "DeleteFrom", ecs.DeleteFrom(ids[0], vm, tag), 2)
				equal(t, "DeleteFrom", ecs.DeleteFrom(ids[1], tag, vm), 1)
			}))
		}, []int{0, 1}, true},
		{"ViewMut.Clear", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.Clear() })
		}, []int{0, 1, 2, 3}, false},
		{"in a workload", func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			must(t, w.AddWorkload("del", func(vm ecs.ViewMut[trLife]) { vm.Delete(ids[1]) }, func(all ecs.AllStoragesViewMut) error {
				return all.DeleteEntity(ids[2])
			}))
			must(t, w.RunWorkload("del"))
		}, []int{1, 2}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			var ids []ecs.EntityID
			for i := range 4 {
				id, err := ecs.AddEntity1(w, trLife{i})
				must(t, err)
				if i%2 == 0 {
					must(t, ecs.AddComponent1(w, id, trTag{}))
				}
				ids = append(ids, id)
			}
			// The last values are what the log keeps: change them first.
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) {
				for l := range vm.All() {
					l.HP += 10
				}
			})
			c.del(t, w, ids)
			var want []del[trLife]
			for _, i := range c.want {
				want = append(want, del[trLife]{ids[i], trLife{i + 10}})
			}
			check := func(when string) {
				t.Helper()
				got := deletedOf[trLife](t, w)
				if c.ordered {
					sameSeq(t, when+": Deleted", got, want)
				} else {
					sameSeq(t, when+": Deleted", sortedDels(got), sortedDels(want))
				}
			}
			check("at once")
			sameSeq(t, "Removed", removedOf[trLife](t, w), nil)
			for _, i := range c.want {
				ok, err := ecs.Contains[trLife](w, ids[i])
				must(t, err)
				isTrue(t, !ok, "entity %d still has its component", i)
			}
			// Further changes and reads do not touch the log.
			_, err := ecs.AddEntity1(w, trLife{99})
			must(t, err)
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) {
				for range vm.All() {
				}
				vm.ClearAllInsertedAndModified()
				vm.ClearAllRemoved()
			})
			check("after other changes and clears")
			check("read again")
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.ClearAllDeleted() })
			sameSeq(t, "Deleted after ClearAllDeleted", deletedOf[trLife](t, w), nil)
		})
	}
}

// TestTrackingRemovedVsDeleted: Remove gives the component back and logs
// the entity as removed, never as deleted; Delete logs the component as
// deleted, never as removed. A type tracking one kind logs nothing for
// the other.
func TestTrackingRemovedVsDeleted(t *testing.T) {
	cases := []struct {
		name     string
		kinds    ecs.Tracking
		wantRem  bool // the removal is logged
		wantDel  bool // the deletion is logged
		canAskRm bool
		canAskDl bool
	}{
		{"both", ecs.TrackRemoval | ecs.TrackDeletion, true, true, true, true},
		{"removal only", ecs.TrackRemoval, true, false, true, false},
		{"deletion only", ecs.TrackDeletion, false, true, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			must(t, ecs.TrackComponent[trPlain](w, c.kinds))
			ids, err := ecs.BulkAddEntity1(w, []trPlain{{1}, {2}, {3}, {4}})
			must(t, err)
			v, ok, err := ecs.Remove[trPlain](w, ids[0])
			must(t, err)
			isTrue(t, ok, "Remove found nothing")
			equal(t, "Remove gives back", v, trPlain{1})
			withViewMut(t, w, func(vm ecs.ViewMut[trPlain]) {
				v, ok := vm.Remove(ids[1])
				isTrue(t, ok, "ViewMut.Remove found nothing")
				equal(t, "ViewMut.Remove gives back", v, trPlain{2})
				_, ok = vm.Remove(ids[1])
				isTrue(t, !ok, "removed twice")
				isTrue(t, vm.Delete(ids[2]), "Delete found nothing")
			})
			withView(t, w, func(view ecs.View[trPlain]) {
				rem, err := view.Removed()
				if !c.canAskRm {
					errIs(t, err, ecs.ErrNotTracked)
				} else {
					must(t, err)
					var got []ecs.EntityID
					for id := range rem {
						got = append(got, id)
					}
					var want []ecs.EntityID
					if c.wantRem {
						want = ids[:2]
					}
					sameSeq(t, "Removed", got, want)
				}
				dl, err := view.Deleted()
				if !c.canAskDl {
					errIs(t, err, ecs.ErrNotTracked)
				} else {
					must(t, err)
					var got []del[trPlain]
					for id, v := range dl {
						got = append(got, del[trPlain]{id, v})
					}
					var want []del[trPlain]
					if c.wantDel {
						want = []del[trPlain]{{ids[2], trPlain{3}}}
					}
					sameSeq(t, "Deleted", got, want)
				}
			})
			// The clears of one log leave the other.
			if c.canAskRm && c.canAskDl {
				withViewMut(t, w, func(vm ecs.ViewMut[trPlain]) { vm.ClearAllRemoved() })
				sameSeq(t, "Removed after ClearAllRemoved", removedOf[trPlain](t, w), nil)
				sameSeq(t, "Deleted after ClearAllRemoved", deletedOf[trPlain](t, w), []del[trPlain]{{ids[2], trPlain{3}}})
				_, _, err := ecs.Remove[trPlain](w, ids[3])
				must(t, err)
				withViewMut(t, w, func(vm ecs.ViewMut[trPlain]) { vm.ClearAllDeleted() })
				sameSeq(t, "Removed after ClearAllDeleted", removedOf[trPlain](t, w), ids[3:4])
				sameSeq(t, "Deleted after ClearAllDeleted", deletedOf[trPlain](t, w), nil)
			}
		})
	}
}

// TestTrackingRemovedOrDeletedOrder: RemovedOrDeleted lists the removals
// in order, then the deletions in order, whatever the interleaving; in a
// workload, only those of the system's window.
func TestTrackingRemovedOrDeletedOrder(t *testing.T) {
	w := ecs.NewWorld()
	ids, err := ecs.BulkAddEntity1(w, []trLife{{0}, {1}, {2}, {3}, {4}, {5}, {6}})
	must(t, err)
	var seen [][]ecs.EntityID
	must(t, w.AddWorkload("look", func(v ecs.View[trLife]) error {
		r, err := v.RemovedOrDeleted()
		if err != nil {
			return err
		}
		seen = append(seen, slices.Collect(r))
		return nil
	}))
	must(t, w.RunWorkload("look"))
	must(t, w.DeleteEntity(ids[0]))
	_, _, err = ecs.Remove[trLife](w, ids[1])
	must(t, err)
	must(t, w.Strip(ids[2]))
	_, _, err = ecs.Remove[trLife](w, ids[3])
	must(t, err)
	must(t, w.RunWorkload("look"))
	_, err = ecs.DeleteComponent[trLife](w, ids[4])
	must(t, err)
	_, _, err = ecs.Remove[trLife](w, ids[5])
	must(t, err)
	must(t, w.RunWorkload("look"))
	must(t, w.RunWorkload("look"))
	sameSeq(t, "outside: every entry", removedOrDeletedOf[trLife](t, w), []ecs.EntityID{ids[1], ids[3], ids[5], ids[0], ids[2], ids[4]})
	equal(t, "runs", len(seen), 4)
	sameSeq(t, "first run", seen[0], nil)
	sameSeq(t, "second run", seen[1], []ecs.EntityID{ids[1], ids[3], ids[0], ids[2]})
	sameSeq(t, "third run", seen[2], []ecs.EntityID{ids[5], ids[4]})
	sameSeq(t, "fourth run", seen[3], nil)
	// Stopping early works.
	withView(t, w, func(v ecs.View[trLife]) {
		r, err := v.RemovedOrDeleted()
		must(t, err)
		var first []ecs.EntityID
		for id := range r {
			if first = append(first, id); len(first) == 4 {
				break
			}
		}
		sameSeq(t, "first four", first, []ecs.EntityID{ids[1], ids[3], ids[5], ids[0]})
	})
}

// trackedState describes the trPlain storage of w and every tracking
// answer its tracking allows, to check that a failed question changed
// nothing.
func trackedState(t *testing.T, w *ecs.World) string {
	t.Helper()
	has := ecs.TrackingOf[trPlain](w)
	var s string
	withView(t, w, func(v ecs.View[trPlain]) { s = fmt.Sprint(has, v.IDs(), v.Slice()) })
	if has&ecs.TrackInsertion != 0 {
		s += fmt.Sprint(" ins", insertedIDs[trPlain](t, w))
	}
	if has&ecs.TrackModification != 0 {
		s += fmt.Sprint(" mod", modifiedIDs[trPlain](t, w))
	}
	if has&ecs.TrackDeletion != 0 {
		s += fmt.Sprint(" del", deletedOf[trPlain](t, w))
	}
	if has&ecs.TrackRemoval != 0 {
		s += fmt.Sprint(" rem", removedOf[trPlain](t, w))
	}
	return s
}

// TestTrackingErrors: asking a view for tracking information its type does
// not track returns a *TrackingError (wrapping ErrNotTracked) naming the
// view, the type, the missing kinds and what it tracks, and changes
// nothing; asking for what it tracks succeeds. Every method, View and
// ViewMut, for every combination of kinds.
func TestTrackingErrors(t *testing.T) {
	type query struct {
		name string
		need ecs.Tracking
		ask  func(v ecs.View[trPlain]) error
		mut  func(v ecs.ViewMut[trPlain]) error
	}
	use := func(c ecs.Changed[trPlain], err error) error {
		if err == nil {
			_ = c.Count()
		}
		return err
	}
	seq1 := func(s func(func(ecs.EntityID) bool), err error) error {
		if (s == nil) != (err != nil) {
			return fmt.Errorf("sequence %v with error %v", s != nil, err)
		}
		if s != nil {
			for range s {
			}
		}
		return err
	}
	seq2 := func(s func(func(ecs.EntityID, trPlain) bool), err error) error {
		if (s == nil) != (err != nil) {
			return fmt.Errorf("sequence %v with error %v", s != nil, err)
		}
		if s != nil {
			for range s {
			}
		}
		return err
	}
	queries := []query{
		{"Inserted", ecs.TrackInsertion,
			func(v ecs.View[trPlain]) error { return use(v.Inserted()) },
			func(v ecs.ViewMut[trPlain]) error { return use(v.Inserted()) }},
		{"Modified", ecs.TrackModification,
			func(v ecs.View[trPlain]) error { return use(v.Modified()) },
			func(v ecs.ViewMut[trPlain]) error { return use(v.Modified()) }},
		{"InsertedOrModified", ecs.TrackInsertion | ecs.TrackModification,
			func(v ecs.View[trPlain]) error { return use(v.InsertedOrModified()) },
			func(v ecs.ViewMut[trPlain]) error { return use(v.InsertedOrModified()) }},
		{"Deleted", ecs.TrackDeletion,
			func(v ecs.View[trPlain]) error { return seq2(v.Deleted()) },
			func(v ecs.ViewMut[trPlain]) error { return seq2(v.Deleted()) }},
		{"Removed", ecs.TrackRemoval,
			func(v ecs.View[trPlain]) error { return seq1(v.Removed()) },
			func(v ecs.ViewMut[trPlain]) error { return seq1(v.Removed()) }},
		{"RemovedOrDeleted", ecs.TrackRemoval | ecs.TrackDeletion,
			func(v ecs.View[trPlain]) error { return seq1(v.RemovedOrDeleted()) },
			func(v ecs.ViewMut[trPlain]) error { return seq1(v.RemovedOrDeleted()) }},
	}
	for has := ecs.Tracking(0); has <= ecs.TrackAll; has++ {
		t.Run(has.String(), func(t *testing.T) {
			w := ecs.NewWorld()
			if has != 0 {
				must(t, ecs.TrackComponent[trPlain](w, has))
			}
			ids, err := ecs.BulkAddEntity1(w, []trPlain{{1}, {2}, {3}, {4}})
			must(t, err)
			withViewMut(t, w, func(vm ecs.ViewMut[trPlain]) {
				vm.ClearAllInserted()
				vm.MustGet(ids[0]).V = 10
				vm.Remove(ids[1])
				vm.Delete(ids[2])
			})
			_, err = ecs.AddEntity1(w, trPlain{5})
			must(t, err)
			for _, q := range queries {
				for _, form := range []string{"View", "ViewMut"} {
					before := trackedState(t, w)
					var err error
					if form == "View" {
						withView(t, w, func(v ecs.View[trPlain]) { err = q.ask(v) })
					} else {
						withViewMut(t, w, func(v ecs.ViewMut[trPlain]) { err = q.mut(v) })
					}
					what := form + "." + q.name
					if has&q.need == q.need {
						if err != nil {
							t.Errorf("%s: %v", what, err)
						}
						continue
					}
					errIs(t, err, ecs.ErrNotTracked)
					te := errAs[*ecs.TrackingError](t, err)
					equal(t, what+": Op", te.Op, form+"[ecs_test.trPlain]."+q.name)
					equal(t, what+": Type", te.Type, "ecs_test.trPlain")
					equal(t, what+": Missing", te.Missing, q.need&^has)
					equal(t, what+": Has", te.Has, has)
					errHas(t, err, te.Op, "ecs_test.trPlain", "does not track "+(q.need&^has).String(), "it tracks "+has.String(), "TrackComponent[ecs_test.trPlain]")
					equal(t, what+": state after the error", trackedState(t, w), before)
				}
			}
			equal(t, "TrackingOf after all the questions", ecs.TrackingOf[trPlain](w), has)
		})
	}
	// A type that tracks nothing names "nothing" as what it tracks, and the
	// zero Tracking prints so.
	w := ecs.NewWorld()
	withView(t, w, func(v ecs.View[trTag]) {
		_, err := v.Modified()
		errHas(t, err, "ecs_test.trTag does not track modification (it tracks nothing)")
	})
}

func TestTrackingString(t *testing.T) {
	cases := []struct {
		k    ecs.Tracking
		want string
	}{
		{0, "nothing"},
		{ecs.TrackInsertion, "insertion"},
		{ecs.TrackModification, "modification"},
		{ecs.TrackDeletion, "deletion"},
		{ecs.TrackRemoval, "removal"},
		{ecs.TrackInsertion | ecs.TrackRemoval, "insertion|removal"},
		{ecs.TrackAll, "insertion|modification|deletion|removal"},
		{ecs.TrackDeletion | 1<<5, "deletion|Tracking(32)"},
	}
	for _, c := range cases {
		equal(t, fmt.Sprintf("Tracking(%d).String()", uint8(c.k)), c.k.String(), c.want)
	}
}

// TestTrackComponent: TrackComponent on a type that already has components
// does not report them as inserted (outside workloads, nor to a system's
// first run), but tracks everything that happens to them from then on. It
// adds to what the type declares, refuses bits that are no kind (changing
// nothing), and needs all storages.
func TestTrackComponent(t *testing.T) {
	t.Run("existing components", func(t *testing.T) {
		w := ecs.NewWorld()
		old, err := ecs.BulkAddEntity1(w, []trPlain{{1}, {2}, {3}})
		must(t, err)
		equal(t, "TrackingOf before", ecs.TrackingOf[trPlain](w), ecs.Tracking(0))
		must(t, ecs.TrackComponent[trPlain](w, ecs.TrackAll))
		equal(t, "TrackingOf after", ecs.TrackingOf[trPlain](w), ecs.TrackAll)
		sameSet(t, "Inserted", insertedIDs[trPlain](t, w), nil)
		sameSet(t, "Modified", modifiedIDs[trPlain](t, w), nil)
		var first []ecs.EntityID
		must(t, w.AddWorkload("first", func(v ecs.View[trPlain]) {
			c, err := v.InsertedOrModified()
			first = changedIDs(t, c, err)
		}))
		must(t, w.RunWorkload("first"))
		sameSet(t, "a system's first run", first, nil)

		newID, err := ecs.AddEntity1(w, trPlain{4})
		must(t, err)
		withViewMut(t, w, func(vm ecs.ViewMut[trPlain]) { vm.MustGet(old[0]).V = 10 })
		must(t, w.DeleteEntity(old[1]))
		_, _, err = ecs.Remove[trPlain](w, old[2])
		must(t, err)
		sameSet(t, "Inserted", insertedIDs[trPlain](t, w), []ecs.EntityID{newID})
		sameSet(t, "Modified", modifiedIDs[trPlain](t, w), old[:1])
		sameSeq(t, "Deleted", deletedOf[trPlain](t, w), []del[trPlain]{{old[1], trPlain{2}}})
		sameSeq(t, "Removed", removedOf[trPlain](t, w), old[2:3])
		must(t, w.RunWorkload("first"))
		sameSet(t, "a system's second run", first, []ecs.EntityID{old[0], newID})
	})
	t.Run("adds to what the type declares", func(t *testing.T) {
		w := ecs.NewWorld()
		equal(t, "declared", ecs.TrackingOf[trMana](w), ecs.TrackModification)
		id, err := ecs.AddEntity1(w, trMana{1})
		must(t, err)
		withViewMut(t, w, func(vm ecs.ViewMut[trMana]) { vm.MustGet(id).MP = 2 })
		must(t, ecs.TrackComponent[trMana](w, ecs.TrackInsertion|ecs.TrackModification))
		equal(t, "after", ecs.TrackingOf[trMana](w), ecs.TrackInsertion|ecs.TrackModification)
		// The modification made before keeps being reported; the existing
		// component is not an insertion.
		sameSet(t, "Modified", modifiedIDs[trMana](t, w), []ecs.EntityID{id})
		sameSet(t, "Inserted", insertedIDs[trMana](t, w), nil)
		must(t, ecs.TrackComponent[trMana](w, ecs.TrackDeletion))
		equal(t, "after a second call", ecs.TrackingOf[trMana](w), ecs.TrackInsertion|ecs.TrackModification|ecs.TrackDeletion)
		must(t, ecs.TrackComponent[trMana](w, 0))
		equal(t, "after TrackComponent(0)", ecs.TrackingOf[trMana](w), ecs.TrackInsertion|ecs.TrackModification|ecs.TrackDeletion)
		sameSet(t, "Modified", modifiedIDs[trMana](t, w), []ecs.EntityID{id})
	})
	t.Run("bits that are no kind", func(t *testing.T) {
		for _, bad := range []ecs.Tracking{1 << 4, ecs.TrackInsertion | 1<<7, ecs.TrackAll | 1<<5} {
			w := ecs.NewWorld()
			id, err := ecs.AddEntity1(w, trPlain{1})
			must(t, err)
			before := trackedState(t, w)
			err = ecs.TrackComponent[trPlain](w, bad)
			errHas(t, err, "TrackComponent[ecs_test.trPlain]", bad.String(), "not a combination")
			equal(t, "TrackingOf", ecs.TrackingOf[trPlain](w), ecs.Tracking(0))
			equal(t, "state", trackedState(t, w), before)
			// And it is still usable afterwards.
			must(t, ecs.TrackComponent[trPlain](w, ecs.TrackModification))
			withViewMut(t, w, func(vm ecs.ViewMut[trPlain]) { vm.MustGet(id).V = 2 })
			sameSet(t, "Modified", modifiedIDs[trPlain](t, w), []ecs.EntityID{id})
		}
	})
	t.Run("while borrowed", func(t *testing.T) {
		w := ecs.NewWorld()
		var v ecs.View[trPlain]
		release, err := w.Borrow(&v)
		must(t, err)
		err = ecs.TrackComponent[trPlain](w, ecs.TrackAll)
		release()
		errIs(t, err, ecs.ErrBorrowConflict)
		equal(t, "TrackingOf", ecs.TrackingOf[trPlain](w), ecs.Tracking(0))
		// Through an AllStoragesViewMut, inside a system.
		must(t, w.Run(func(all ecs.AllStoragesViewMut) error { return ecs.TrackComponent[trPlain](all, ecs.TrackRemoval) }))
		equal(t, "TrackingOf", ecs.TrackingOf[trPlain](w), ecs.TrackRemoval)
	})
	t.Run("per world", func(t *testing.T) {
		a, b := ecs.NewWorld(), ecs.NewWorld()
		must(t, ecs.TrackComponent[trPlain](a, ecs.TrackAll))
		equal(t, "the other world", ecs.TrackingOf[trPlain](b), ecs.Tracking(0))
	})
}

// trSeen is what a reader system saw in one run.
type trSeen struct {
	Ins, Mod, Rem []ecs.EntityID
	Del           []del[trLife]
}

// trReader returns a reader system appending what it sees to *out.
func trReader(out *[]trSeen) func(v ecs.View[trLife]) error {
	return func(v ecs.View[trLife]) error {
		var s trSeen
		ins, err := v.Inserted()
		if err != nil {
			return err
		}
		mod, err := v.Modified()
		if err != nil {
			return err
		}
		for id := range ins.WithID() {
			s.Ins = append(s.Ins, id)
		}
		for id := range mod.WithID() {
			s.Mod = append(s.Mod, id)
		}
		dl, err := v.Deleted()
		if err != nil {
			return err
		}
		for id, l := range dl {
			s.Del = append(s.Del, del[trLife]{id, l})
		}
		rm, err := v.Removed()
		if err != nil {
			return err
		}
		s.Rem = slices.Collect(rm)
		*out = append(*out, s)
		return nil
	}
}

func (s trSeen) sorted() trSeen {
	s.Ins, s.Mod = sorted(s.Ins), sorted(s.Mod)
	return s
}

// TestTrackingTwoRates: in one workload a writer changes a tracked storage
// every frame, one reader reads it every frame, another every third frame
// (RunIf), a third only at frames 5 and 11. Each reader sees exactly the
// changes since its own previous run (a first run sees everything), with
// any number of workers, and whether or not the clock wraps during the run.
func TestTrackingTwoRates(t *testing.T) {
	clocks := []struct {
		name  string
		start uint64
	}{
		// The writer's ViewMut takes one timestamp a frame: the clock
		// crosses the wrap (the sign bit) half way.
		{"clock from zero", 0},
		{"clock across the wrap", math.MaxUint64 - 8},
		{"clock across the sign bit", math.MaxInt64 - 8},
	}
	for _, clock := range clocks {
		for _, procs := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%s, GOMAXPROCS=%d", clock.name, procs), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				w := ecs.NewWorld()
				ecs.SetTrackingClock(w, clock.start)
				keep, err := ecs.AddEntity1(w, trLife{-1})
				must(t, err)
				// Frame f: the writer adds born[f], modifies born[f-1],
				// deletes (f even) or removes (f odd) born[f-2], and
				// replaces keep's component every fourth frame.
				type frameOps struct {
					ins, mod, rem ecs.EntityID
					del           del[trLife]
					replaced      bool
				}
				var (
					frame int
					born  []ecs.EntityID
					ops   []frameOps
				)
				writer := func(ents ecs.EntitiesViewMut, vm ecs.ViewMut[trLife]) error {
					var o frameOps
					o.ins = vm.AddEntity(ents, trLife{frame})
					born = append(born, o.ins)
					if frame >= 1 {
						o.mod = born[frame-1]
						vm.MustGet(o.mod).HP += 100
					}
					if frame >= 2 {
						id := born[frame-2]
						if frame%2 == 0 {
							o.del = del[trLife]{id, *vm.MustGet(id)}
							vm.Delete(id)
						} else {
							o.rem = id
							vm.Remove(id)
						}
					}
					if frame%4 == 0 {
						o.replaced = true
						if err := vm.AddComponentUnchecked(keep, trLife{-frame}); err != nil {
							return err
						}
					}
					ops = append(ops, o)
					return nil
				}
				var everyFrame, everyThird, twice []trSeen
				must(t, w.AddWorkload("frame",
					ecs.System(writer).Named("writer"),
					ecs.System(trReader(&everyFrame)).Named("every frame"),
					ecs.System(trReader(&everyThird)).Named("every third frame").RunIf(func() bool { return frame%3 == 0 }),
					ecs.System(trReader(&twice)).Named("at 5 and 11").RunIf(func() bool { return frame == 5 || frame == 11 }),
				))
				const frames = 15
				for ; frame < frames; frame++ {
					must(t, w.RunWorkload("frame"))
				}
				// expect is what a reader running at frame to, whose
				// previous run was at frame from (-1 for none), must see.
				expect := func(from, to int) trSeen {
					var s trSeen
					present := func(k int) bool { return k <= to && to < k+2 }
					keepMod := false
					if from < 0 {
						s.Ins = append(s.Ins, keep)
					}
					for f := from + 1; f <= to; f++ {
						o := ops[f]
						if present(f) {
							s.Ins = append(s.Ins, o.ins)
						}
						if f >= 1 && present(f-1) {
							s.Mod = append(s.Mod, o.mod)
						}
						if f >= 2 && f%2 == 0 {
							s.Del = append(s.Del, o.del)
						}
						if f >= 2 && f%2 == 1 {
							s.Rem = append(s.Rem, o.rem)
						}
						keepMod = keepMod || o.replaced
					}
					if keepMod {
						s.Mod = append(s.Mod, keep)
					}
					return s.sorted()
				}
				check := func(who string, runs []trSeen, at []int) {
					t.Helper()
					if len(runs) != len(at) {
						t.Fatalf("%s ran %d times, want %d", who, len(runs), len(at))
					}
					prev := -1
					for i, f := range at {
						deepEqual(t, fmt.Sprintf("%s at frame %d", who, f), runs[i].sorted(), expect(prev, f))
						prev = f
					}
				}
				check("every-frame reader", everyFrame, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14})
				check("every-third-frame reader", everyThird, []int{0, 3, 6, 9, 12})
				check("reader at 5 and 11", twice, []int{5, 11})
				if clock.start > math.MaxUint64/2+math.MaxUint64/4 {
					isTrue(t, w.TrackingTimestamp() < 1000, "the clock did not wrap: %d", w.TrackingTimestamp())
				}
			})
		}
	}
}

// TestTrackingOwnChanges: a system in a workload sees its own changes of
// the current run, not those of its previous run; a later system in the
// same run sees both the writer's changes of this run; outside workloads,
// the same system sees everything since the last clear instead.
func TestTrackingOwnChanges(t *testing.T) {
	w := ecs.NewWorld()
	base, err := ecs.BulkAddEntity1(w, []trLife{{0}, {1}, {2}, {3}, {4}, {5}})
	must(t, err)
	type obs struct {
		modNow, modPrev, insNow, insPrev, insBase bool
		mod, ins                                  []ecs.EntityID
	}
	var (
		run   int
		added []ecs.EntityID
		got   []obs
	)
	self := func(ents ecs.EntitiesViewMut, vm ecs.ViewMut[trLife]) error {
		vm.MustGet(base[run]).HP += 10
		added = append(added, vm.AddEntity(ents, trLife{100 + run}))
		mod, err := vm.Modified()
		if err != nil {
			return err
		}
		ins, err := vm.Inserted()
		if err != nil {
			return err
		}
		var o obs
		// Contains does not mark: it looks without changing the answer.
		o.modNow = mod.Contains(base[run])
		o.insNow = ins.Contains(added[run])
		o.insBase = ins.Contains(base[5])
		if run > 0 {
			o.modPrev = mod.Contains(base[run-1])
			o.insPrev = ins.Contains(added[run-1])
		}
		for _, id := range append(slices.Clone(base), added...) {
			if mod.Contains(id) {
				o.mod = append(o.mod, id)
			}
			if ins.Contains(id) {
				o.ins = append(o.ins, id)
			}
		}
		got = append(got, o)
		return nil
	}
	var after []trSeen
	must(t, w.AddWorkload("w", ecs.System(self).Named("self"), ecs.System(trReader(&after)).Named("after")))
	for run = 0; run < 3; run++ {
		must(t, w.RunWorkload("w"))
	}
	for r, o := range got {
		isTrue(t, o.modNow, "run %d: its own modification is not seen", r)
		isTrue(t, o.insNow, "run %d: its own insertion is not seen", r)
		isTrue(t, !o.modPrev, "run %d: the modification of its previous run is seen again", r)
		isTrue(t, !o.insPrev, "run %d: the insertion of its previous run is seen again", r)
		equal(t, fmt.Sprintf("run %d sees the first insertions", r), o.insBase, r == 0)
		sameSet(t, fmt.Sprintf("run %d: modified", r), o.mod, []ecs.EntityID{base[r]})
		want := []ecs.EntityID{added[r]}
		if r == 0 {
			want = append(want, base...)
		}
		sameSet(t, fmt.Sprintf("run %d: inserted", r), o.ins, want)
		// The reader after it in the same run sees the same changes (its
		// previous run came after the writer's previous run).
		if r > 0 {
			sameSet(t, fmt.Sprintf("run %d: reader's modified", r), after[r].Mod, []ecs.EntityID{base[r]})
			sameSet(t, fmt.Sprintf("run %d: reader's inserted", r), after[r].Ins, []ecs.EntityID{added[r]})
		}
	}
	// Outside workloads, nothing was cleared: the same system sees the
	// changes of every run so far, its own included.
	withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.ClearAllInsertedAndModified() })
	got = got[:0]
	for run = 3; run < 5; run++ {
		must(t, w.Run(self))
	}
	sameSet(t, "World.Run, first: modified", got[0].mod, base[3:4])
	sameSet(t, "World.Run, second: modified", got[1].mod, base[3:5])
	sameSet(t, "World.Run, second: inserted", got[1].ins, added[3:5])
}

// TestTrackingOutsideWindows: outside workloads, insertions and
// modifications are seen from the last clear, whoever looks and however
// often. Clearing inside a borrow drops what the borrow changed before the
// clear, not what it changes after.
func TestTrackingOutsideWindows(t *testing.T) {
	t.Run("looking changes nothing", func(t *testing.T) {
		w, ids := clearedWorld(t, 4)
		withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.MustGet(ids[0]).HP = 9 })
		for range 3 {
			sameSet(t, "Modified", modifiedIDs[trLife](t, w), ids[:1])
		}
		must(t, w.Run(func(v ecs.View[trLife]) {
			mod, err := v.Modified()
			sameSet(t, "Modified from World.Run", changedIDs(t, mod, err), ids[:1])
		}))
		// A workload system's window is its own: it does not move the
		// outside one.
		must(t, w.AddWorkload("w", func(v ecs.View[trLife]) {}))
		must(t, w.RunWorkload("w"))
		sameSet(t, "Modified after a workload", modifiedIDs[trLife](t, w), ids[:1])
	})
	// Each case starts with ids[0] modified and nothing inserted, and
	// returns what it inserted (or NullID); ins and mod say what must be
	// reported after it.
	type result struct{ ins, mod []ecs.EntityID }
	cases := []struct {
		name string
		fn   func(vm ecs.ViewMut[trLife], ents ecs.EntitiesViewMut, ids []ecs.EntityID) ecs.EntityID
		want func(ids []ecs.EntityID, n ecs.EntityID) result
	}{
		{"change, then ClearAllModified", func(vm ecs.ViewMut[trLife], _ ecs.EntitiesViewMut, ids []ecs.EntityID) ecs.EntityID {
			vm.MustGet(ids[1]).HP = 1
			vm.ClearAllModified()
			return ecs.NullID
		}, func([]ecs.EntityID, ecs.EntityID) result { return result{} }},
		{"ClearAllModified, then change", func(vm ecs.ViewMut[trLife], _ ecs.EntitiesViewMut, ids []ecs.EntityID) ecs.EntityID {
			vm.ClearAllModified()
			vm.MustGet(ids[1]).HP = 1
			return ecs.NullID
		}, func(ids []ecs.EntityID, _ ecs.EntityID) result { return result{mod: ids[1:2]} }},
		{"ClearAllModified, then iterate", func(vm ecs.ViewMut[trLife], _ ecs.EntitiesViewMut, ids []ecs.EntityID) ecs.EntityID {
			vm.ClearAllModified()
			for range vm.All() {
			}
			return ecs.NullID
		}, func(ids []ecs.EntityID, _ ecs.EntityID) result { return result{mod: ids} }},
		{"iterate Modified, then ClearAllModified (the guide's pattern)", func(vm ecs.ViewMut[trLife], _ ecs.EntitiesViewMut, ids []ecs.EntityID) ecs.EntityID {
			mod, _ := vm.Modified()
			for l := range mod.All() {
				l.HP++
			}
			vm.ClearAllModified()
			return ecs.NullID
		}, func([]ecs.EntityID, ecs.EntityID) result { return result{} }},
		{"insert, then ClearAllInserted", func(vm ecs.ViewMut[trLife], ents ecs.EntitiesViewMut, _ []ecs.EntityID) ecs.EntityID {
			n := vm.AddEntity(ents, trLife{})
			vm.ClearAllInserted()
			return n
		}, func(ids []ecs.EntityID, _ ecs.EntityID) result { return result{mod: ids[:1]} }},
		{"ClearAllInserted, then insert", func(vm ecs.ViewMut[trLife], ents ecs.EntitiesViewMut, _ []ecs.EntityID) ecs.EntityID {
			vm.ClearAllInserted()
			return vm.AddEntity(ents, trLife{})
		}, func(ids []ecs.EntityID, n ecs.EntityID) result { return result{ins: []ecs.EntityID{n}, mod: ids[:1]} }},
		{"ClearAllInsertedAndModified between changes", func(vm ecs.ViewMut[trLife], ents ecs.EntitiesViewMut, ids []ecs.EntityID) ecs.EntityID {
			vm.MustGet(ids[2]).HP = 1
			vm.AddEntity(ents, trLife{})
			vm.ClearAllInsertedAndModified()
			vm.MustGet(ids[3]).HP = 1
			return vm.AddEntity(ents, trLife{})
		}, func(ids []ecs.EntityID, n ecs.EntityID) result { return result{ins: []ecs.EntityID{n}, mod: ids[3:4]} }},
		{"two clears in one borrow", func(vm ecs.ViewMut[trLife], _ ecs.EntitiesViewMut, ids []ecs.EntityID) ecs.EntityID {
			vm.ClearAllModified()
			vm.MustGet(ids[1]).HP = 1
			vm.ClearAllModified()
			vm.MustGet(ids[2]).HP = 1
			return ecs.NullID
		}, func(ids []ecs.EntityID, _ ecs.EntityID) result { return result{mod: ids[2:3]} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, where := range []string{"World.Run", "World.Borrow"} {
				w, ids := clearedWorld(t, 4)
				withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.MustGet(ids[0]).HP = 9 })
				var n ecs.EntityID
				if where == "World.Run" {
					must(t, w.Run(func(vm ecs.ViewMut[trLife], ents ecs.EntitiesViewMut) { n = c.fn(vm, ents, ids) }))
				} else {
					var vm ecs.ViewMut[trLife]
					var ents ecs.EntitiesViewMut
					release, err := w.Borrow(&vm, &ents)
					must(t, err)
					n = c.fn(vm, ents, ids)
					release()
				}
				want := c.want(ids, n)
				sameSet(t, where+": Inserted", insertedIDs[trLife](t, w), want.ins)
				sameSet(t, where+": Modified", modifiedIDs[trLife](t, w), want.mod)
				// And a later borrow, changing nothing, does not bring
				// anything back or drop anything.
				withViewMut(t, w, func(ecs.ViewMut[trLife]) {})
				sameSet(t, where+": Inserted later", insertedIDs[trLife](t, w), want.ins)
				sameSet(t, where+": Modified later", modifiedIDs[trLife](t, w), want.mod)
			}
		})
	}
}

// TestTrackingOlderThan: the …OlderThan clears drop the entries made up to
// the timestamp (everything made before it was read from
// World.TrackingTimestamp or AllStoragesViewMut.TrackingTimestamp) and keep
// the later ones; each clears only its own logs.
func TestTrackingOlderThan(t *testing.T) {
	cases := []struct {
		name     string
		clear    func(vm ecs.ViewMut[trLife], ts uint64)
		dropsDel bool
		dropsRem bool
	}{
		{"ClearAllDeletedOlderThan", func(vm ecs.ViewMut[trLife], ts uint64) { vm.ClearAllDeletedOlderThan(ts) }, true, false},
		{"ClearAllRemovedOlderThan", func(vm ecs.ViewMut[trLife], ts uint64) { vm.ClearAllRemovedOlderThan(ts) }, false, true},
		{"ClearAllRemovedAndDeletedOlderThan", func(vm ecs.ViewMut[trLife], ts uint64) { vm.ClearAllRemovedAndDeletedOlderThan(ts) }, true, true},
	}
	for _, c := range cases {
		for _, how := range []string{"World.TrackingTimestamp", "AllStoragesViewMut.TrackingTimestamp"} {
			t.Run(c.name+" with "+how, func(t *testing.T) {
				w := ecs.NewWorld()
				ids, err := ecs.BulkAddEntity1(w, []trLife{{0}, {1}, {2}, {3}, {4}, {5}})
				must(t, err)
				stamp := func() (ts uint64) {
					if how == "World.TrackingTimestamp" {
						return w.TrackingTimestamp()
					}
					must(t, w.Run(func(all ecs.AllStoragesViewMut) { ts = all.TrackingTimestamp() }))
					return ts
				}
				// 0 deleted, 1 removed, stamp, 2 deleted, 3 removed, stamp2, 4 deleted.
				must(t, w.DeleteEntity(ids[0]))
				_, _, err = ecs.Remove[trLife](w, ids[1])
				must(t, err)
				ts := stamp()
				withViewMut(t, w, func(vm ecs.ViewMut[trLife]) {
					vm.Delete(ids[2])
					vm.Remove(ids[3])
				})
				ts2 := stamp()
				isTrue(t, newerThan(ts2, ts), "timestamps do not advance: %d then %d", ts, ts2)
				must(t, w.DeleteEntity(ids[4]))
				withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { c.clear(vm, ts) })
				wantDel := []del[trLife]{{ids[0], trLife{0}}, {ids[2], trLife{2}}, {ids[4], trLife{4}}}
				wantRem := []ecs.EntityID{ids[1], ids[3]}
				if c.dropsDel {
					wantDel = wantDel[1:]
				}
				if c.dropsRem {
					wantRem = wantRem[1:]
				}
				sameSeq(t, "Deleted after the first clear", deletedOf[trLife](t, w), wantDel)
				sameSeq(t, "Removed after the first clear", removedOf[trLife](t, w), wantRem)
				// Clearing again with the same timestamp changes nothing;
				// with the later one, it drops what came before it.
				withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { c.clear(vm, ts) })
				sameSeq(t, "Deleted after clearing again", deletedOf[trLife](t, w), wantDel)
				withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { c.clear(vm, ts2) })
				if c.dropsDel {
					wantDel = wantDel[1:]
				}
				if c.dropsRem {
					wantRem = wantRem[1:]
				}
				sameSeq(t, "Deleted after the second clear", deletedOf[trLife](t, w), wantDel)
				sameSeq(t, "Removed after the second clear", removedOf[trLife](t, w), wantRem)
				// The current timestamp drops everything made so far.
				withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { c.clear(vm, w.TrackingTimestamp()) })
				if c.dropsDel {
					wantDel = nil
				}
				if c.dropsRem {
					wantRem = nil
				}
				sameSeq(t, "Deleted after clearing up to now", deletedOf[trLife](t, w), wantDel)
				sameSeq(t, "Removed after clearing up to now", removedOf[trLife](t, w), wantRem)
			})
		}
	}
}

// newerThan reports whether timestamp a is after b, wrap-safely.
func newerThan(a, b uint64) bool { return int64(a-b) > 0 }

// storageMemory returns the memory report of T's storage in w.
func storageMemory[T any](t *testing.T, w *ecs.World) ecs.StorageMemory {
	t.Helper()
	r, err := w.MemoryUsage()
	must(t, err)
	name := fmt.Sprintf("%T", *new(T))
	for _, s := range r.Storages {
		if s.Type == name {
			return s
		}
	}
	t.Fatalf("no storage %s in the memory report", name)
	return ecs.StorageMemory{}
}

// TestTrackingDeletionLogBounded: entities come and go for thousands of
// steps (each step logs one deletion or one removal); clearing every k
// steps keeps the logs, and the storage's memory, bounded. Without clears
// the logs grow, and the memory report shows it.
func TestTrackingDeletionLogBounded(t *testing.T) {
	const steps, k = 3000, 16
	type clearFn func(vm ecs.ViewMut[trLife], prev uint64)
	// exact(i) is the number of log entries after step i (0-based).
	everyK := func(i int) int { return (i + 1) % k }
	olderThanPrevious := func(i int) int {
		if i+1 < k {
			return i + 1
		}
		return k + (i+1)%k
	}
	cases := []struct {
		name  string
		clear clearFn // nil: never
		exact func(i int) int
	}{
		{"ClearAllRemovedAndDeleted", func(vm ecs.ViewMut[trLife], _ uint64) { vm.ClearAllRemovedAndDeleted() }, everyK},
		{"ClearAllDeleted and ClearAllRemoved", func(vm ecs.ViewMut[trLife], _ uint64) {
			vm.ClearAllDeleted()
			vm.ClearAllRemoved()
		}, everyK},
		{"ClearAllRemovedAndDeletedOlderThan the previous clear", func(vm ecs.ViewMut[trLife], prev uint64) {
			vm.ClearAllRemovedAndDeletedOlderThan(prev)
		}, olderThanPrevious},
		{"ClearAllDeletedOlderThan and ClearAllRemovedOlderThan the previous clear", func(vm ecs.ViewMut[trLife], prev uint64) {
			vm.ClearAllDeletedOlderThan(prev)
			vm.ClearAllRemovedOlderThan(prev)
		}, olderThanPrevious},
		{"never cleared", nil, func(i int) int { return i + 1 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			prev := w.TrackingTimestamp()
			var mid ecs.StorageMemory
			for i := range steps {
				id, err := ecs.AddEntity1(w, trLife{i})
				must(t, err)
				if i%2 == 1 {
					_, _, err := ecs.Remove[trLife](w, id)
					must(t, err)
				}
				must(t, w.DeleteEntity(id))
				if c.clear != nil && (i+1)%k == 0 {
					ts := w.TrackingTimestamp()
					withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { c.clear(vm, prev) })
					prev = ts
				}
				if n := len(deletedOf[trLife](t, w)) + len(removedOf[trLife](t, w)); n != c.exact(i) {
					t.Fatalf("after step %d: %d log entries, want %d", i, n, c.exact(i))
				}
				if i == steps/2 {
					mid = storageMemory[trLife](t, w)
				}
			}
			end := storageMemory[trLife](t, w)
			if c.clear != nil {
				equal(t, "AllocatedBytes, from half way to the end", end.AllocatedBytes, mid.AllocatedBytes)
				// The half-way report already had up to 2k entries: the
				// end has as many at most, whatever the steps in between.
				isTrue(t, end.UsedBytes <= mid.UsedBytes+2*k*64, "UsedBytes went from %d half way to %d at the end", mid.UsedBytes, end.UsedBytes)
			} else {
				// Each entry holds at least an id and a timestamp.
				isTrue(t, end.UsedBytes-mid.UsedBytes >= (steps/2-1)*16,
					"the log grew by %d entries but UsedBytes only from %d to %d", steps/2-1, mid.UsedBytes, end.UsedBytes)
			}
		})
	}
	t.Run("in a workload, a cleaner every k frames", func(t *testing.T) {
		w := ecs.NewWorld()
		var (
			frame     int
			prev      uint64
			ran       bool
			seenPer   []int
			lastAlive ecs.EntityID
		)
		churn := func(all ecs.AllStoragesViewMut) error {
			id, err := ecs.AddEntity1(all, trLife{frame})
			if err != nil {
				return err
			}
			lastAlive = id
			return all.DeleteEntity(id)
		}
		reader := func(v ecs.View[trLife]) error {
			d, err := v.Deleted()
			if err != nil {
				return err
			}
			n := 0
			for id, l := range d {
				if id != lastAlive || l.HP != frame {
					return fmt.Errorf("frame %d: saw deletion of %v %v", frame, id, l)
				}
				n++
			}
			seenPer = append(seenPer, n)
			return nil
		}
		cleaner := func(vm ecs.ViewMut[trLife]) {
			if ran {
				vm.ClearAllDeletedOlderThan(prev)
			}
			prev, ran = w.TrackingTimestamp(), true
		}
		must(t, w.AddWorkload("w",
			ecs.System(churn).Named("churn"),
			ecs.System(reader).Named("reader"),
			ecs.System(cleaner).Named("cleaner").RunIf(func() bool { return (frame+1)%k == 0 }),
		))
		var mid ecs.StorageMemory
		for frame = 0; frame < steps; frame++ {
			must(t, w.RunWorkload("w"))
			// The cleaner drops what was deleted up to its previous run.
			if n, want := len(deletedOf[trLife](t, w)), olderThanPrevious(frame); n != want {
				t.Fatalf("after frame %d: %d deletions logged, want %d", frame, n, want)
			}
			if frame == steps/2 {
				mid = storageMemory[trLife](t, w)
			}
		}
		equal(t, "AllocatedBytes, from half way to the end", storageMemory[trLife](t, w).AllocatedBytes, mid.AllocatedBytes)
		equal(t, "reader runs", len(seenPer), steps)
		for f, n := range seenPer {
			if n != 1 {
				t.Fatalf("frame %d: the reader saw %d deletions, want 1", f, n)
			}
		}
	})
}

// TestTrackingParallelWorkload runs tracked storages through a workload
// whose systems run in parallel (writers of different types together,
// readers together, parallel iteration inside systems), many times, and
// checks every run's windows. Its point is the race detector (go test
// -race); the checks keep it a behaviour test too.
func TestTrackingParallelWorkload(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const n, frames = 256, 150
	w := ecs.NewWorld()
	must(t, ecs.TrackComponent[trPlain](w, ecs.TrackAll))
	for i := range n {
		_, err := ecs.AddEntity3(w, trLife{i}, trMana{i}, trPlain{i})
		must(t, err)
	}
	var (
		frame                       int
		lifeMod, lifeIns, lifeDel   atomic.Int64
		manaMod, plainMod, joinSeen atomic.Int64
	)
	// Writers, in parallel with each other: Life changes a quarter of its
	// components and has one entity come and one go per frame; Mana is
	// marked whole by a parallel iteration; Plain is marked through a
	// parallel join with Life's view... of the previous frame's changes.
	writeLife := func(ents ecs.EntitiesViewMut, vm ecs.ViewMut[trLife]) {
		ids := vm.IDs()
		for i := 0; i < len(ids); i += 4 {
			vm.MustGet(ids[i]).HP++
		}
		vm.Delete(ids[len(ids)-1])
		vm.AddEntity(ents, trLife{frame})
	}
	writeMana := func(vm ecs.ViewMut[trMana]) {
		vm.ParEachMin(16, func(m *trMana) { m.MP++ })
	}
	readLife := func(v ecs.View[trLife]) error {
		mod, err := v.Modified()
		if err != nil {
			return err
		}
		ins, err := v.Inserted()
		if err != nil {
			return err
		}
		d, err := v.Deleted()
		if err != nil {
			return err
		}
		nd := 0
		for range d {
			nd++
		}
		lifeMod.Store(int64(mod.Count()))
		lifeIns.Store(int64(ins.Count()))
		lifeDel.Store(int64(nd))
		return nil
	}
	readMana := func(v ecs.View[trMana]) error {
		mod, err := v.Modified()
		if err != nil {
			return err
		}
		var c atomic.Int64
		ecs.Join1(mod).ParEachMin(16, func(*trMana) { c.Add(1) })
		manaMod.Store(c.Load())
		return nil
	}
	markPlain := func(vm ecs.ViewMut[trPlain], m ecs.View[trMana]) error {
		mod, err := m.Modified()
		if err != nil {
			return err
		}
		var c atomic.Int64
		ecs.Join2(vm, mod).ParEachMin(16, func(p *trPlain, _ *trMana) { c.Add(1) })
		joinSeen.Store(c.Load())
		return nil
	}
	readPlain := func(v ecs.View[trPlain]) error {
		mod, err := v.Modified()
		if err != nil {
			return err
		}
		plainMod.Store(int64(mod.Count()))
		return nil
	}
	must(t, w.AddWorkload("w",
		ecs.System(writeLife).Named("writeLife"),
		ecs.System(writeMana).Named("writeMana"),
		ecs.System(readLife).Named("readLife"),
		ecs.System(readMana).Named("readMana"),
		ecs.System(markPlain).Named("markPlain"),
		ecs.System(readPlain).Named("readPlain"),
	))
	for frame = 0; frame < frames; frame++ {
		must(t, w.RunWorkload("w"))
		// writeLife modified the components at positions 0, 4, ... of n,
		// then deleted the last (position n-1) and added one: n/4
		// modified, one inserted, one deleted. (On the first frame the
		// reader's first run also sees the first insertions.)
		if frame > 0 {
			equal(t, fmt.Sprintf("frame %d: Life modified", frame), lifeMod.Load(), int64(n/4))
			equal(t, fmt.Sprintf("frame %d: Life inserted", frame), lifeIns.Load(), int64(1))
			equal(t, fmt.Sprintf("frame %d: Life deleted", frame), lifeDel.Load(), int64(1))
		}
		equal(t, fmt.Sprintf("frame %d: Mana modified", frame), manaMod.Load(), int64(n))
		equal(t, fmt.Sprintf("frame %d: Plain joined", frame), joinSeen.Load(), int64(n))
		equal(t, fmt.Sprintf("frame %d: Plain modified", frame), plainMod.Load(), int64(n))
		if t.Failed() {
			t.FailNow()
		}
	}
}

// TestTrackingLogSequenceAfterClear: a Deleted or Removed sequence taken
// before a clear of its log, and ranged over after it (in the same
// borrow), may report the cleared entries or none of them, but nothing
// that was never logged.
func TestTrackingLogSequenceAfterClear(t *testing.T) {
	cases := []struct {
		name  string
		clear func(vm ecs.ViewMut[trLife], ts uint64)
	}{
		{"ClearAllRemovedAndDeleted", func(vm ecs.ViewMut[trLife], _ uint64) { vm.ClearAllRemovedAndDeleted() }},
		{"ClearAllRemovedAndDeletedOlderThan", func(vm ecs.ViewMut[trLife], ts uint64) { vm.ClearAllRemovedAndDeletedOlderThan(ts) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			ids, err := ecs.BulkAddEntity1(w, []trLife{{1}, {2}, {3}, {4}, {5}})
			must(t, err)
			must(t, w.DeleteEntity(ids[1]))
			_, _, err = ecs.Remove[trLife](w, ids[2])
			must(t, err)
			ts := w.TrackingTimestamp()
			must(t, w.DeleteEntity(ids[3]))
			_, _, err = ecs.Remove[trLife](w, ids[4])
			must(t, err)
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) {
				d, err := vm.Deleted()
				must(t, err)
				r, err := vm.Removed()
				must(t, err)
				c.clear(vm, ts)
				for id, v := range d {
					isTrue(t, (id == ids[1] && v.HP == 2) || (id == ids[3] && v.HP == 4), "Deleted yields %v %v, never deleted", id, v)
				}
				for id := range r {
					isTrue(t, id == ids[2] || id == ids[4], "Removed yields %v, never removed", id)
				}
			})
		})
	}
}

// TestTrackingShrinkToFit: releasing spare memory keeps every tracking
// answer, and tracking goes on afterwards.
func TestTrackingShrinkToFit(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 100 {
		id, err := ecs.AddEntity1(w, trLife{i})
		must(t, err)
		ids = append(ids, id)
	}
	withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.ClearAllInserted() })
	for _, id := range ids[:90] {
		must(t, w.DeleteEntity(id))
	}
	withViewMut(t, w, func(vm ecs.ViewMut[trLife]) {
		vm.ClearAllDeleted()
		vm.MustGet(ids[95]).HP = -1
	})
	n, err := ecs.AddEntity1(w, trLife{1000})
	must(t, err)
	_, _, err = ecs.Remove[trLife](w, ids[96])
	must(t, err)
	must(t, w.DeleteEntity(ids[97]))
	describe := func() string {
		return fmt.Sprint(insertedIDs[trLife](t, w), modifiedIDs[trLife](t, w), deletedOf[trLife](t, w), removedOf[trLife](t, w))
	}
	before := describe()
	full := storageMemory[trLife](t, w)
	must(t, w.ShrinkToFit())
	equal(t, "tracking after ShrinkToFit", describe(), before)
	isTrue(t, storageMemory[trLife](t, w).AllocatedBytes < full.AllocatedBytes, "ShrinkToFit released nothing")
	// And it goes on: every kind, at the new sizes.
	n2, err := ecs.AddEntity1(w, trLife{2000})
	must(t, err)
	withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.MustGet(ids[98]).HP = -2 })
	must(t, w.DeleteEntity(ids[99]))
	sameSet(t, "Inserted", insertedIDs[trLife](t, w), []ecs.EntityID{n, n2})
	sameSet(t, "Modified", modifiedIDs[trLife](t, w), []ecs.EntityID{ids[95], ids[98]})
	sameSeq(t, "Deleted", deletedOf[trLife](t, w), []del[trLife]{{ids[97], trLife{97}}, {ids[99], trLife{99}}})
	sameSeq(t, "Removed", removedOf[trLife](t, w), ids[96:97])
}

// trBundle is a custom view: its fields get the window of the system that
// takes it.
type trBundle struct {
	Life ecs.View[trLife]
	Tag  ecs.View[trTag]
}

func TestTrackingBundleWindow(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.AddEntity1(w, trLife{0})
	must(t, err)
	var counts []int
	must(t, w.AddWorkload("w", func(b trBundle) error {
		ins, err := b.Life.Inserted()
		counts = append(counts, ins.Count())
		return err
	}))
	for i := range 3 {
		_, err := ecs.AddEntity2(w, trLife{i}, trTag{})
		must(t, err)
		must(t, w.RunWorkload("w"))
	}
	sameSeq(t, "insertions seen per run", counts, []int{2, 1, 1})
}

// TestTrackingConditionSeesItsSystemsWindow: a run condition of a system
// in a workload sees what changed since that system last ran, so "run if
// something was modified" is true only after new modifications.
func TestTrackingConditionSeesItsSystemsWindow(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, trLife{1})
	must(t, err)
	write := false
	runs := 0
	anyModified := func(l ecs.View[trLife]) bool {
		m, err := l.Modified()
		must(t, err)
		return m.Count() > 0
	}
	must(t, w.AddWorkload("w",
		func(l ecs.ViewMut[trLife]) {
			if write {
				l.MustGet(id).HP++
			}
		},
		ecs.System(func(ecs.View[trLife]) { runs++ }).RunIf(anyModified),
	))
	for frame, wr := range []bool{true, false, false, true, false} {
		write = wr
		must(t, w.RunWorkload("w"))
		want := 1
		if frame >= 3 {
			want = 2
		}
		equal(t, fmt.Sprintf("runs after frame %d", frame), runs, want)
	}
}

// TestTrackingLeftoverTakenOver: a component left behind by
// EntitiesViewMut.DeleteUnchecked is logged as deleted when a new entity
// reusing the slot takes its place, and the new one counts as inserted.
func TestTrackingLeftoverTakenOver(t *testing.T) {
	w := ecs.NewWorld()
	old, err := ecs.AddEntity1(w, trLife{7})
	must(t, err)
	must(t, w.Run(func(ents ecs.EntitiesViewMut, v ecs.ViewMut[trLife]) {
		v.ClearAllInsertedAndModified()
		ents.DeleteUnchecked(old) // leaves trLife{7} behind
	}))
	must(t, w.Run(func(ents ecs.EntitiesViewMut, v ecs.ViewMut[trLife]) {
		id := ents.AddEntity()
		equal(t, "reused index", id.Index(), old.Index())
		must(t, v.AddComponentUnchecked(id, trLife{8}))
		del, err := v.Deleted()
		must(t, err)
		var gone []string
		for d, c := range del {
			gone = append(gone, fmt.Sprint(d == old, c.HP))
		}
		deepEqual(t, "deleted", gone, []string{"true 7"})
		ins, err := v.Inserted()
		must(t, err)
		equal(t, "inserted", ins.Contains(id), true)
	}))
}
